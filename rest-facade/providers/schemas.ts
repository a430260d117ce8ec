import { webUrl } from '../schemas/common.js';
import { z } from '../zod.js';

export const ProviderResponse = z
  .object({
    id: z.number().int(),
    name: z.string(),
    bookingUrl: z.string().nullable(),
    cancelUrl: z.string().nullable(),
    notificationUrl: z.string().nullable(),
    logoUrl: z.string().nullable(),
  })
  .openapi('ProviderResponse');

const urlChange = (what: string) =>
  webUrl
    .nullable()
    .optional()
    .openapi({ description: `${what} Leave it out to keep it; null clears it.` });

export const ProviderUpdate = z
  .object({
    bookingUrl: urlChange('Called to book a ticket in your ticketing system.'),
    cancelUrl: urlChange('Called to cancel a ticket in your ticketing system.'),
    notificationUrl: urlChange('Receives signed booking notifications.'),
  })
  .openapi('ProviderUpdate');

export const VenueProviderExternalUrlsUpdate = z
  .object({
    bookingUrl: urlChange("This venue's booking URL, used instead of the provider's."),
    cancelUrl: urlChange("This venue's cancellation URL, used instead of the provider's."),
    notificationUrl: urlChange("This venue's notification URL, used instead of the provider's."),
  })
  .openapi('VenueProviderExternalUrlsUpdate');

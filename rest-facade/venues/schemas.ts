import { dateTime } from '../schemas/common.js';
import { VenueTypeEnum } from '../schemas/enums.js';
import { z } from '../zod.js';

export const OffererResponse = z
  .object({
    id: z.number().int(),
    createdDatetime: dateTime,
    name: z.string(),
    siren: z.string(),
    allowedOnAdage: z
      .boolean()
      .openapi({ description: 'Whether the offerer may publish collective offers to schools.' }),
  })
  .openapi('OffererResponse');

export const VenuePhysicalLocation = z
  .object({
    type: z.literal('physical'),
    address: z.string().nullable(),
    city: z.string().nullable(),
    postalCode: z.string().nullable(),
  })
  .openapi('VenuePhysicalLocation');

export const VenueDigitalLocation = z.object({ type: z.literal('digital') }).openapi('VenueDigitalLocation');

export const PartialAccessibility = z
  .object({
    audioDisabilityCompliant: z.boolean().nullable(),
    mentalDisabilityCompliant: z.boolean().nullable(),
    motorDisabilityCompliant: z.boolean().nullable(),
    visualDisabilityCompliant: z.boolean().nullable(),
  })
  .openapi('PartialAccessibility', { description: 'Unknown (null) for digital venues.' });

export const VenueResponse = z
  .object({
    id: z.number().int(),
    createdDatetime: dateTime,
    location: z.discriminatedUnion('type', [VenuePhysicalLocation, VenueDigitalLocation]),
    legalName: z.string(),
    publicName: z.string().nullable(),
    activityDomain: VenueTypeEnum,
    siret: z.string().nullable(),
    siretComment: z.string().nullable(),
    accessibility: PartialAccessibility,
    bookingUrl: z.string().nullable(),
    cancelUrl: z.string().nullable(),
    notificationUrl: z.string().nullable(),
  })
  .openapi('VenueResponse');

export const GetOffererVenuesResponse = z
  .object({ offerer: OffererResponse, venues: z.array(VenueResponse) })
  .openapi('GetOffererVenuesResponse');

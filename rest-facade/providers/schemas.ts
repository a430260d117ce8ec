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

import { isWebUrl, URL_MAX_LENGTH } from '../../graphql/providers/externalUrls.js';
import { webUrl } from './common.js';
import { awareDateTimeInput } from './datetimes.js';
import { id } from './inputs.js';
import { withoutNul } from './text.js';
import { z } from '../zod.js';

/** Schemas that event and product offers share: accessibility, locations, images, common fields. */

const awareDatetime = awareDateTimeInput;

export const Accessibility = z
  .object({
    audioDisabilityCompliant: z.boolean(),
    mentalDisabilityCompliant: z.boolean(),
    motorDisabilityCompliant: z.boolean(),
    visualDisabilityCompliant: z.boolean(),
  })
  .openapi('Accessibility');

export const PartialAccessibilityChange = z
  .object({
    audioDisabilityCompliant: z.boolean().nullable().optional(),
    mentalDisabilityCompliant: z.boolean().nullable().optional(),
    motorDisabilityCompliant: z.boolean().nullable().optional(),
    visualDisabilityCompliant: z.boolean().nullable().optional(),
  })
  .openapi('PartialAccessibilityChange');

export const AccessibilityResponse = z
  .object({
    audioDisabilityCompliant: z.boolean().nullable(),
    mentalDisabilityCompliant: z.boolean().nullable(),
    motorDisabilityCompliant: z.boolean().nullable(),
    visualDisabilityCompliant: z.boolean().nullable(),
  })
  .openapi('AccessibilityResponse');

const venueId = id().openapi({ description: 'A venue your key may act on.' });

/**
 * The access URL of a digital offer: a web URL that may hold the placeholders {token},
 * {email} and {offerId}, so it is no strict RFC 3986 URI and is not declared as one.
 */
const accessUrl = z
  .string()
  .min(1)
  .max(URL_MAX_LENGTH)
  .refine((value) => isWebUrl(value.replace(/\{(token|email|offerId)\}/g, 'x')), 'Input should be a valid URL')
  .openapi({
    description: 'The access URL. It may hold {token}, {email} and {offerId}, replaced for each booking.',
    example: 'https://stream.example.com/live?token={token}',
  });

export const PhysicalLocation = z
  .object({ type: z.literal('physical'), venueId })
  .openapi('PhysicalLocation', { description: 'At the venue.' });
export const DigitalLocation = z
  .object({
    type: z.literal('digital'),
    venueId,
    url: accessUrl,
  })
  .openapi('DigitalLocation', { description: 'Online.' });
export const AddressLocation = z
  .object({
    type: z.literal('address'),
    venueId,
    addressId: id(),
    addressLabel: withoutNul(z.string().min(1).max(200)).nullable().optional(),
  })
  .openapi('AddressLocation', {
    description: 'At an address other than the venue (POST /public/offers/v1/addresses).',
  });
export const OfferLocation = z.discriminatedUnion('type', [PhysicalLocation, DigitalLocation, AddressLocation]);

export const ImageBody = z
  .object({
    file: z
      .string()
      .min(1)
      .openapi({ description: 'Base64 PNG or JPEG, 400x600 to 800x1200 pixels, portrait 2:3, at most 10 MB.' }),
    credit: withoutNul(z.string().max(200)).nullable().optional(),
  })
  .openapi('ImageBody');

export const ImageResponse = z.object({ url: z.string(), credit: z.string().nullable() }).openapi('ImageResponse');

export const publication = z.union([z.literal('now'), awareDatetime]).openapi({
  description: '`now` publishes at once, a future datetime schedules the publication, null never publishes.',
});
/** Fields of creation and edition bodies that events and products share. */
export const offerFields = {
  bookingAllowedDatetime: awareDatetime.nullable().optional().openapi({
    description: 'When booking opens (future, timezone-aware); null: with the publication.',
  }),
  bookingContact: z.email().max(120).nullable().optional().openapi({
    description: 'Mandatory when tickets are withdrawn through your ticketing system (hasTicket).',
  }),
  bookingEmail: z.email().max(120).nullable().optional().openapi({ description: 'Notified of each booking.' }),
  description: withoutNul(z.string().max(10000)).nullable().optional(),
  externalTicketOfficeUrl: webUrl.nullable().optional(),
  idAtProvider: withoutNul(z.string().max(70))
    .nullable()
    .optional()
    .openapi({ description: 'Your identifier, unique per venue.' }),
  image: ImageBody.nullable().optional(),
  itemCollectionDetails: withoutNul(z.string().max(10000)).nullable().optional(),
};

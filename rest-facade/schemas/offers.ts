import { imageRules, locationRules, offerFieldRules } from '../../graphql/offers/fieldRules.js';
import { webUrl } from './common.js';
import { awareDateTimeInput } from './datetimes.js';
import { z } from '../zod.js';

/**
 * Schemas that event and product offers share: accessibility, locations, images, common fields.
 * Their rules are the domain's (graphql/offers/fieldRules.ts); these add the contract's shapes
 * and descriptions.
 */

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

const venueId = locationRules.venueId.openapi({ description: 'A venue your key may act on.' });

/** The access URL of a digital offer: not declared as a URI, since it may hold placeholders. */
const accessUrl = locationRules.accessUrl.openapi({
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
    addressId: locationRules.addressId,
    addressLabel: locationRules.addressLabel.nullable().optional(),
  })
  .openapi('AddressLocation', {
    description: 'At an address other than the venue (POST /public/offers/v1/addresses).',
  });
export const OfferLocation = z.discriminatedUnion('type', [PhysicalLocation, DigitalLocation, AddressLocation]);

export const ImageBody = z
  .object({
    file: imageRules.file.openapi({
      description: 'Base64 PNG or JPEG, 400x600 to 800x1200 pixels, portrait 2:3, at most 10 MB.',
    }),
    credit: imageRules.credit.nullable().optional(),
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
  bookingContact: offerFieldRules.email.nullable().optional().openapi({
    description: 'Mandatory when tickets are withdrawn through your ticketing system (hasTicket).',
  }),
  bookingEmail: offerFieldRules.email.nullable().optional().openapi({ description: 'Notified of each booking.' }),
  description: offerFieldRules.text.nullable().optional(),
  externalTicketOfficeUrl: webUrl.nullable().optional(),
  idAtProvider: offerFieldRules.idAtProvider
    .nullable()
    .optional()
    .openapi({ description: 'Your identifier, unique per venue.' }),
  image: ImageBody.nullable().optional(),
  itemCollectionDetails: offerFieldRules.text.nullable().optional(),
};

/**
 * Fields of edition bodies that events and products share, each null or left out to keep it
 * (they follow `accessibility` and `categoryRelatedFields` in the bodies).
 */
export const offerEditionFields = {
  enableDoubleBookings: z.boolean().nullable().optional(),
  isActive: z
    .boolean()
    .nullable()
    .optional()
    .openapi({ description: 'false deactivates the offer without cancelling bookings.' }),
  location: OfferLocation.nullable().optional(),
  name: offerFieldRules.editedName.nullable().optional(),
  publicationDatetime: publication.nullable().optional(),
};

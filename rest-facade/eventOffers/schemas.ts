import { PriceCategoryCreation, PriceCategoryResponse } from '../eventOfferPriceCategories/schemas.js';
import { dateTime, webUrl } from '../schemas/common.js';
import { OfferStatusEnum } from '../schemas/enums.js';
import { isWebUrl, URL_MAX_LENGTH } from '../../graphql/providers/externalUrls.js';
import { awareDateTimeInput } from '../schemas/datetimes.js';
import { withoutNul } from '../schemas/text.js';
import { z } from '../zod.js';
import { eventCategoryRelatedFields } from './categoryFields.js';

const awareDatetime = awareDateTimeInput;

export const Accessibility = z
  .object({
    audioDisabilityCompliant: z.boolean(),
    mentalDisabilityCompliant: z.boolean(),
    motorDisabilityCompliant: z.boolean(),
    visualDisabilityCompliant: z.boolean(),
  })
  .openapi('Accessibility');

const PartialAccessibilityChange = z
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

const venueId = z.int().gt(0).openapi({ description: 'A venue your key may act on.' });

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
    addressId: z.int().gt(0),
    addressLabel: withoutNul(z.string().min(1).max(200)).nullable().optional(),
  })
  .openapi('AddressLocation', { description: 'At an address other than the venue (POST /public/offers/v1/addresses).' });
export const OfferLocation = z.discriminatedUnion('type', [PhysicalLocation, DigitalLocation, AddressLocation]);

export const ImageBody = z
  .object({
    file: z.string().min(1).openapi({ description: 'Base64 PNG or JPEG, 400x600 to 800x1200 pixels, portrait 2:3, at most 10 MB.' }),
    credit: withoutNul(z.string().max(200)).nullable().optional(),
  })
  .openapi('ImageBody');

export const ImageResponse = z.object({ url: z.string(), credit: z.string().nullable() }).openapi('ImageResponse');

const publication = z.union([z.literal('now'), awareDatetime]).openapi({
  description: '`now` publishes at once, a future datetime schedules the publication, null never publishes.',
});
const videoUrl = webUrl.nullable().optional().openapi({
  description: 'A public video page on YouTube, Vimeo or Dailymotion (not a short, not a channel); null removes it.',
});

const sharedFields = {
  bookingAllowedDatetime: awareDatetime.nullable().optional().openapi({
    description: 'When booking opens (future, timezone-aware); null: with the publication.',
  }),
  bookingContact: z.email().max(120).nullable().optional().openapi({
    description: 'Mandatory when tickets are withdrawn through your ticketing system (hasTicket).',
  }),
  bookingEmail: z.email().max(120).nullable().optional().openapi({ description: 'Notified of each booking.' }),
  description: withoutNul(z.string().max(10000)).nullable().optional(),
  eventDuration: z.int().nullable().optional().openapi({ description: 'Minutes, under 24 hours.' }),
  externalTicketOfficeUrl: webUrl.nullable().optional(),
  idAtProvider: withoutNul(z.string().max(70)).nullable().optional().openapi({ description: 'Your identifier, unique per venue.' }),
  image: ImageBody.nullable().optional(),
  itemCollectionDetails: withoutNul(z.string().max(10000)).nullable().optional(),
  videoUrl,
};

export const EventOfferCreation = z
  .strictObject({
    accessibility: Accessibility,
    categoryRelatedFields: eventCategoryRelatedFields('create'),
    enableDoubleBookings: z.boolean().nullable().optional().openapi({
      description: 'Duo bookings; true by default where the category allows them.',
      default: true,
    }),
    hasTicket: z.boolean().openapi({
      description: 'Tickets are withdrawn in the app through your ticketing system (categories that allow it).',
    }),
    location: OfferLocation,
    name: withoutNul(z.string().min(1).max(90)),
    priceCategories: z.array(PriceCategoryCreation).max(50).nullable().optional(),
    publicationDatetime: publication.nullable().optional().openapi({ default: 'now' }),
    publicationDate: awareDatetime.nullable().optional().openapi({ deprecated: true, description: 'Use publicationDatetime.' }),
    ...sharedFields,
  })
  .openapi('EventOfferCreation');

export const EventOfferEdition = z
  .strictObject({
    accessibility: PartialAccessibilityChange.nullable().optional(),
    categoryRelatedFields: eventCategoryRelatedFields('edit').nullable().optional(),
    enableDoubleBookings: z.boolean().nullable().optional(),
    isActive: z.boolean().nullable().optional().openapi({ description: 'false deactivates the offer without cancelling bookings.' }),
    location: OfferLocation.nullable().optional(),
    name: withoutNul(z.string().min(1).max(140)).nullable().optional(),
    publicationDatetime: publication.nullable().optional(),
    ...sharedFields,
  })
  .openapi('EventOfferEdition');

export const EventOfferResponse = z
  .object({
    id: z.int(),
    name: z.string(),
    status: OfferStatusEnum,
    accessibility: AccessibilityResponse,
    bookingAllowedDatetime: dateTime.nullable(),
    bookingContact: z.string().nullable(),
    bookingEmail: z.string().nullable(),
    categoryRelatedFields: eventCategoryRelatedFields('read'),
    description: z.string().nullable(),
    enableDoubleBookings: z.boolean().nullable(),
    eventDuration: z.int().nullable(),
    externalTicketOfficeUrl: z.string().nullable(),
    hasTicket: z.boolean(),
    idAtProvider: z.string().nullable(),
    image: ImageResponse.nullable(),
    itemCollectionDetails: z.string().nullable(),
    location: OfferLocation,
    priceCategories: z.array(PriceCategoryResponse),
    publicationDate: dateTime.nullable().openapi({ deprecated: true }),
    publicationDatetime: dateTime.nullable(),
    videoUrl: z.string().nullable(),
  })
  .openapi('EventOfferResponse');

export const EventOffersResponse = z.object({ events: z.array(EventOfferResponse) }).openapi('EventOffersResponse');

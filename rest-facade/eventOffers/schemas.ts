import { PriceCategoryCreation, PriceCategoryResponse } from '../eventOfferPriceCategories/schemas.js';
import { dateTime, webUrl } from '../schemas/common.js';
import { OfferStatusEnum } from '../schemas/enums.js';
import { awareDateTimeInput } from '../schemas/datetimes.js';
import { offerFieldRules, priceCategoryList } from '../../graphql/offers/fieldRules.js';
import {
  Accessibility,
  AccessibilityResponse,
  ImageResponse,
  OfferLocation,
  offerEditionFields,
  offerFields,
  PartialAccessibilityChange,
  publication,
} from '../schemas/offers.js';
import { z } from '../zod.js';
import { eventCategoryRelatedFields } from './categoryFields.js';

const awareDatetime = awareDateTimeInput;

const videoUrl = webUrl.nullable().optional().openapi({
  description: 'A public video page on YouTube, Vimeo or Dailymotion (not a short, not a channel); null removes it.',
});

const sharedFields = {
  ...offerFields,
  eventDuration: offerFieldRules.eventDuration
    .nullable()
    .optional()
    .openapi({ description: 'Minutes, under 24 hours.' }),
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
    name: offerFieldRules.name,
    priceCategories: priceCategoryList(PriceCategoryCreation).nullable().optional(),
    publicationDatetime: publication.nullable().optional().openapi({ default: 'now' }),
    publicationDate: awareDatetime
      .nullable()
      .optional()
      .openapi({ deprecated: true, description: 'Use publicationDatetime.' }),
    ...sharedFields,
  })
  .openapi('EventOfferCreation');

export const EventOfferEdition = z
  .strictObject({
    accessibility: PartialAccessibilityChange.nullable().optional(),
    categoryRelatedFields: eventCategoryRelatedFields('edit').nullable().optional(),
    ...offerEditionFields,
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

import type { ResultOf } from 'gql.tada';
import { PriceCategoryFields } from '../eventOfferPriceCategories/response.js';
import { commonOfferAnswer, OfferFields } from '../schemas/offerResponse.js';
import { graphql } from '../subgraphs/graphql.js';
import type { z } from '../zod.js';
import type { EventOfferResponse } from './schemas.js';

/** The selection of an EventOfferResponse. */
export const EventFields = graphql.offers(
  `fragment EventFields on Offer {
    ...OfferFields
    videoUrl hasTicket eventDuration
    priceCategories { ...PriceCategoryFields }
  }`,
  [OfferFields, PriceCategoryFields],
);

/** In the answer's order (the tests hold every answer to its schema's). */
export function toEventResponse(event: ResultOf<typeof EventFields>): z.input<typeof EventOfferResponse> {
  const common = commonOfferAnswer(event);
  return {
    id: common.id,
    name: common.name,
    status: common.status,
    accessibility: common.accessibility,
    bookingAllowedDatetime: common.bookingAllowedDatetime,
    bookingContact: common.bookingContact,
    bookingEmail: common.bookingEmail,
    categoryRelatedFields: common.categoryRelatedFields,
    description: common.description,
    enableDoubleBookings: common.enableDoubleBookings,
    eventDuration: event.eventDuration,
    externalTicketOfficeUrl: common.externalTicketOfficeUrl,
    hasTicket: event.hasTicket,
    idAtProvider: common.idAtProvider,
    image: common.image,
    itemCollectionDetails: common.itemCollectionDetails,
    location: common.location,
    priceCategories: event.priceCategories,
    publicationDate: event.publicationDatetime,
    publicationDatetime: common.publicationDatetime,
    videoUrl: event.videoUrl,
  };
}

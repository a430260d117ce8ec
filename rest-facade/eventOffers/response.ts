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

export function toEventResponse(event: ResultOf<typeof EventFields>): z.input<typeof EventOfferResponse> {
  return {
    ...commonOfferAnswer(event),
    eventDuration: event.eventDuration,
    hasTicket: event.hasTicket,
    priceCategories: event.priceCategories,
    publicationDate: event.publicationDatetime,
    videoUrl: event.videoUrl,
  };
}

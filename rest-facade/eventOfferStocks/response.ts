import type { ResultOf } from 'gql.tada';
import { PriceCategoryFields } from '../eventOfferPriceCategories/response.js';
import { graphql } from '../subgraphs/graphql.js';
import type { z } from '../zod.js';
import type { DateResponse } from './schemas.js';

/** The selection of a DateResponse: `quantity` shows the places still on sale. */
export const DateFields = graphql.offers(
  `fragment DateFields on Stock {
    id beginningDatetime bookingLimitDatetime bookedQuantity quantity: remainingQuantity idAtProvider
    priceCategory { ...PriceCategoryFields }
  }`,
  [PriceCategoryFields],
);

/**
 * A date as the contract shows it. The graph's Stock serves products too, so its beginning,
 * booking limit and price category may be null; an event's date has all three.
 */
export function toDateResponse(date: ResultOf<typeof DateFields>): z.input<typeof DateResponse> {
  const { beginningDatetime, bookingLimitDatetime, priceCategory } = date;
  if (beginningDatetime === null || bookingLimitDatetime === null || priceCategory === null) {
    throw new Error(`The stock ${date.id} is no date of an event`);
  }
  return { ...date, beginningDatetime, bookingLimitDatetime, priceCategory };
}

import type { ResultOf } from 'gql.tada';
import { PriceCategoryFields } from '../eventOfferPriceCategories/response.js';
import { answeredQuantity } from '../schemas/quantity.js';
import { graphql } from '../subgraphs/graphql.js';
import type { z } from '../zod.js';
import type { DateResponse } from './schemas.js';

/** The selection of a DateResponse: `quantity` is the stored total, booked places included. */
export const DateFields = graphql.offers(
  `fragment DateFields on Stock {
    id beginningDatetime bookingLimitDatetime bookedQuantity quantity idAtProvider
    priceCategory { ...PriceCategoryFields }
  }`,
  [PriceCategoryFields],
);

type GraphDate = ResultOf<typeof DateFields>;

/** A Stock of an event: its beginning, booking limit and price category are set. */
type EventDate = GraphDate & {
  beginningDatetime: NonNullable<GraphDate['beginningDatetime']>;
  bookingLimitDatetime: NonNullable<GraphDate['bookingLimitDatetime']>;
  priceCategory: NonNullable<GraphDate['priceCategory']>;
};

function isEventDate(date: GraphDate): date is EventDate {
  return date.beginningDatetime !== null && date.bookingLimitDatetime !== null && date.priceCategory !== null;
}

/**
 * A date as the contract shows it: the graph's object itself, its fields in the contract's order
 * (no copy of 2500 dates), whose unlimited quantity (null) reads "unlimited". The graph's Stock
 * serves products too, so its beginning, booking limit and price category may be null; an event's
 * date has all three.
 */
export function toDateResponse(date: GraphDate): z.input<typeof DateResponse> {
  if (!isEventDate(date)) throw new Error(`The stock ${date.id} is no date of an event`);
  return Object.assign(date, { quantity: answeredQuantity(date.quantity) });
}

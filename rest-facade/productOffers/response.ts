import type { ResultOf } from 'gql.tada';
import { commonOfferAnswer, OfferFields } from '../schemas/offerResponse.js';
import { answeredQuantity } from '../schemas/quantity.js';
import { graphql } from '../subgraphs/graphql.js';
import type { z } from '../zod.js';
import type { ProductOfferResponse } from './schemas.js';

/** The selection of a ProductOfferResponse: `quantity` is the stored total, booked items included. */
export const ProductFields = graphql.offers(
  `fragment ProductFields on Offer {
    ...OfferFields
    stock { bookedQuantity bookingLimitDatetime price quantity }
  }`,
  [OfferFields],
);

type Product = ResultOf<typeof ProductFields>;

export function toProductResponse(product: Product): z.input<typeof ProductOfferResponse> {
  const stock = product.stock && { ...product.stock, quantity: answeredQuantity(product.stock.quantity) };
  return { ...commonOfferAnswer(product), stock };
}

export function toProductsResponse(products: Product[]): { products: z.input<typeof ProductOfferResponse>[] } {
  return { products: products.map(toProductResponse) };
}

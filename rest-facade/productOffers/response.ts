import type { ResultOf } from 'gql.tada';
import { commonOfferAnswer, OfferFields } from '../schemas/offerResponse.js';
import { graphql } from '../subgraphs/graphql.js';
import type { z } from '../zod.js';
import type { ProductOfferResponse } from './schemas.js';

/** The selection of a ProductOfferResponse: `quantity` shows the items still on sale. */
export const ProductFields = graphql.offers(
  `fragment ProductFields on Offer {
    ...OfferFields
    stock { bookedQuantity bookingLimitDatetime price quantity: remainingQuantity }
  }`,
  [OfferFields],
);

type Product = ResultOf<typeof ProductFields>;

export function toProductResponse(product: Product): z.input<typeof ProductOfferResponse> {
  return { ...commonOfferAnswer(product), stock: product.stock };
}

export function toProductsResponse(products: Product[]): { products: z.input<typeof ProductOfferResponse>[] } {
  return { products: products.map(toProductResponse) };
}

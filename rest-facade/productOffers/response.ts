import { commonOfferAnswer, type GraphOffer, offerFieldsSelection } from '../schemas/offerResponse.js';
import type { z } from '../zod.js';
import type { ProductOfferResponse } from './schemas.js';

/** The selection of a ProductOfferResponse: `quantity` shows the items still on sale. */
export const productFields = `
  fragment ProductFields on Offer {${offerFieldsSelection}
    stock { price bookedQuantity bookingLimitDatetime quantity: remainingQuantity }
  }`;

/** A product offer as the offers subgraph answers it. */
export interface GraphProduct extends GraphOffer {
  stock: {
    price: number;
    bookedQuantity: number;
    bookingLimitDatetime: string | null;
    quantity: number | 'unlimited';
  } | null;
}

export function toProductResponse(product: GraphProduct): z.input<typeof ProductOfferResponse> {
  return {
    ...(commonOfferAnswer(product) as Omit<z.input<typeof ProductOfferResponse>, 'stock'>),
    stock: product.stock,
  };
}

export function toProductsResponse(products: GraphProduct[]): { products: z.input<typeof ProductOfferResponse>[] } {
  return { products: products.map(toProductResponse) };
}

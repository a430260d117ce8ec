import { eanRule, priceRule, productsByEanList, refuseWrongEans } from '../../graphql/offers/fieldRules.js';
import { EANS_PER_QUERY_MAX, PRICE_MAX_CENTS, PRODUCTS_BY_EAN_MAX } from '../../graphql/offers/limits.js';
import { awareDateTimeInput } from '../schemas/datetimes.js';
import { commaSeparated, id, integerInput } from '../schemas/inputs.js';
import { OfferLocation, publication } from '../schemas/offers.js';
import { quantityInput, UNLIMITED } from '../schemas/quantity.js';
import { z } from '../zod.js';

/** EANs per query, and products per bulk upsert: the contract's limits (the domain's constants). */
export { EANS_PER_QUERY_MAX, PRODUCTS_BY_EAN_MAX as PRODUCTS_PER_UPSERT_MAX };

/**
 * `eans`: comma-separated EAN-13s, at most 100, each exactly 13 characters. The check digit
 * is the operation's business (422 when reading offers, `notFound` in the availability check).
 */
export const eansParameter = z
  .string()
  .transform((value, context) => {
    const eans = commaSeparated(value);
    return refuseWrongEans(eans, context, value) ? z.NEVER : eans;
  })
  .openapi({
    type: 'string',
    description: `Comma-separated EAN-13s, at most ${EANS_PER_QUERY_MAX}.`,
    example: '9782070368228,9782253004226',
  });

export const eansQuery = z.object({ eans: eansParameter });
export const eansAtVenueQuery = z.object({ eans: eansParameter, venueId: integerInput(id()) });

const StockUpsert = z
  .object({
    bookingLimitDatetime: awareDateTimeInput
      .nullable()
      .optional()
      .openapi({
        description:
          'When booking ends (timezone-aware ISO 8601, ahead, not before the publication nor the opening of bookings ' +
          'asked for); left out or null, an existing stock loses its booking limit.',
      }),
    price: priceRule.openapi({ description: `Euro cents, 0 to ${PRICE_MAX_CENTS}.` }),
    quantity: quantityInput(0)
      .nullable()
      .optional()
      .openapi({
        description: `Items still on sale (booked ones not counted), or "${UNLIMITED}" (also when left out); 0 deletes the stock.`,
      }),
  })
  .openapi('StockUpsert');

const ProductOfferByEanCreation = z
  .strictObject({
    ean: eanRule.openapi({
      description: 'EAN-13 of a product of the catalogue (a paper book, a CD or a vinyl record).',
    }),
    stock: StockUpsert,
    publicationDatetime: publication.nullable().optional().openapi({
      description:
        'For a new offer: `now` (the default) or a future datetime. Left out, an existing offer keeps its own.',
    }),
    bookingAllowedDatetime: awareDateTimeInput.nullable().optional(),
  })
  .openapi('ProductOfferByEanCreation');

export const ProductsOfferByEanCreation = z
  .strictObject({
    location: OfferLocation,
    products: productsByEanList(ProductOfferByEanCreation),
  })
  .openapi('ProductsOfferByEanCreation');

export const AvailableEANsResponse = z
  .object({
    available: z.array(z.string()),
    rejected: z
      .object({
        notCompliantWithCgu: z.array(z.string()),
        notFound: z.array(z.string()),
        subcategoryNotAllowed: z.array(z.string()),
      })
      .openapi('RejectedEANsPartialResponse'),
  })
  .openapi('AvailableEANsResponse');

import { offerFieldRules, priceRule } from '../../graphql/offers/fieldRules.js';
import { PRICE_MAX_CENTS } from '../../graphql/offers/limits.js';
import { categoryRelatedFieldsOf } from '../eventOffers/categoryFields.js';
import { dateTime } from '../schemas/common.js';
import { awareDateTimeInput } from '../schemas/datetimes.js';
import { id } from '../schemas/inputs.js';
import { OfferStatusEnum } from '../schemas/enums.js';
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
import { quantityInput, quantityOutput, UNLIMITED } from '../schemas/quantity.js';
import { z } from '../zod.js';

const price = priceRule.openapi({ description: `Euro cents, 0 to ${PRICE_MAX_CENTS}.` });
const bookingLimitDatetime = awareDateTimeInput
  .nullable()
  .optional()
  .openapi({
    description:
      'When booking ends (timezone-aware ISO 8601, ahead, not before the publication nor the opening of bookings); ' +
      'none: until the stock runs out.',
  });

export const StockCreation = z
  .object({
    bookingLimitDatetime,
    price,
    quantity: quantityInput(1)
      .nullable()
      .optional()
      .openapi({
        description: `Items on sale: a positive whole number, or "${UNLIMITED}" (also when left out).`,
      }),
  })
  .openapi('StockCreation');

export const StockEdition = z
  .strictObject({
    bookingLimitDatetime: bookingLimitDatetime.openapi({
      description: 'Leave it out to keep it; null removes it (booking then ends when the stock runs out).',
    }),
    price: price.nullable().optional().openapi({ description: 'Leave it out (or null) to keep it.' }),
    quantity: quantityInput(0)
      .nullable()
      .optional()
      .openapi({
        description: `Items still on sale, booked ones not counted: 0 or more, or "${UNLIMITED}". Leave it out (or null) to keep it.`,
      }),
  })
  .openapi('StockEdition', { description: 'Creates the stock (price required) or changes the fields given.' });

export const ProductOfferCreation = z
  .strictObject({
    accessibility: Accessibility,
    categoryRelatedFields: categoryRelatedFieldsOf('product', 'create'),
    enableDoubleBookings: z.boolean().nullable().optional().openapi({
      description: 'Duo bookings (two items per booking), where the category allows them (a museum pass does).',
      default: false,
    }),
    location: OfferLocation,
    name: offerFieldRules.name,
    publicationDatetime: publication.nullable().optional().openapi({ default: 'now' }),
    stock: StockCreation.nullable().optional(),
    ...offerFields,
  })
  .openapi('ProductOfferCreation');

const { externalTicketOfficeUrl: _notEditable, ...editableOfferFields } = offerFields;

export const ProductOfferEdition = z
  .strictObject({
    offerId: id().openapi({ description: 'The product offer to change.' }),
    accessibility: PartialAccessibilityChange.nullable().optional(),
    categoryRelatedFields: categoryRelatedFieldsOf('product', 'edit').nullable().optional(),
    ...offerEditionFields,
    stock: StockEdition.nullable().optional().openapi({
      description: 'null deletes the stock and cancels its unused bookings; an object creates or changes it.',
    }),
    ...editableOfferFields,
  })
  .openapi('ProductOfferEdition');

export const ProductStockResponse = z
  .object({
    bookedQuantity: z.int(),
    bookingLimitDatetime: dateTime.nullable(),
    price: z.int().openapi({ description: 'Euro cents.' }),
    quantity: quantityOutput.openapi({
      description: `All the items, booked ones included (bookedQuantity), or "${UNLIMITED}".`,
    }),
  })
  .openapi('ProductStockResponse');

export const ProductOfferResponse = z
  .object({
    id: z.int(),
    name: z.string(),
    status: OfferStatusEnum,
    accessibility: AccessibilityResponse,
    bookingAllowedDatetime: dateTime.nullable(),
    bookingContact: z.string().nullable(),
    bookingEmail: z.string().nullable(),
    categoryRelatedFields: categoryRelatedFieldsOf('product', 'read'),
    description: z.string().nullable(),
    enableDoubleBookings: z.boolean().nullable(),
    externalTicketOfficeUrl: z.string().nullable(),
    idAtProvider: z.string().nullable(),
    image: ImageResponse.nullable(),
    itemCollectionDetails: z.string().nullable(),
    location: OfferLocation,
    publicationDatetime: dateTime.nullable(),
    stock: ProductStockResponse.nullable(),
  })
  .openapi('ProductOfferResponse');

export const ProductOffersResponse = z
  .object({ products: z.array(ProductOfferResponse) })
  .openapi('ProductOffersResponse');
export const ProductOffersByEanResponse = z
  .object({ products: z.array(ProductOfferResponse) })
  .openapi('ProductOffersByEanResponse');

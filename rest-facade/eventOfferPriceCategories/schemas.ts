import { offerFieldRules, priceCategoryList, priceCategoryRules } from '../../graphql/offers/fieldRules.js';
import { ID_AT_PROVIDER_MAX_LENGTH, PRICE_CATEGORIES_MAX, PRICE_MAX_CENTS } from '../../graphql/offers/limits.js';

import { z } from '../zod.js';

/** Your own identifier of a price category or a date: at most 70 characters, unique within the event. */
export const idAtProviderInput = offerFieldRules.idAtProvider
  .nullable()
  .optional()
  .openapi({
    description: `Your own identifier, unique within the event; at most ${ID_AT_PROVIDER_MAX_LENGTH} characters.`,
    example: 'orchestra-2027',
  });

const label = priceCategoryRules.label.openapi({ example: 'Orchestra' });
const price = priceCategoryRules.price.openapi({
  description: `Euro cents, from 0 to ${PRICE_MAX_CENTS}.`,
  example: 2500,
});

export const PriceCategoryCreation = z
  .object({ label, price, idAtProvider: idAtProviderInput })
  .openapi('PriceCategoryCreation');

export const PriceCategoriesCreation = z
  .strictObject({
    priceCategories: priceCategoryList(PriceCategoryCreation).openapi({
      description: `At most ${PRICE_CATEGORIES_MAX} per request, and ${PRICE_CATEGORIES_MAX} per event in total.`,
    }),
  })
  .openapi('PriceCategoriesCreation');

export const PriceCategoryEdition = z
  .strictObject({
    label: label.optional().openapi({ description: 'Leave it out to keep it; it may not be null.' }),
    price: price.optional().openapi({
      description: `Euro cents, from 0 to ${PRICE_MAX_CENTS}; the dates of the category take the new price. Leave it out to keep it; it may not be null.`,
    }),
    idAtProvider: idAtProviderInput.openapi({ description: 'Leave it out to keep it; null clears it.' }),
  })
  .openapi('PriceCategoryEdition');

export const PriceCategoryResponse = z
  .object({
    id: z.int(),
    label: z.string(),
    price: z.int().openapi({ description: 'Euro cents.' }),
    idAtProvider: z.string().nullable(),
  })
  .openapi('PriceCategoryResponse');

export const PriceCategoriesResponse = z
  .object({ priceCategories: z.array(PriceCategoryResponse) })
  .openapi('PriceCategoriesResponse');

import { z } from '../shared/zod.js';
import { awareDateTime, id } from '../shared/fieldRules.js';
import type { InputRules } from '../shared/inputRules.js';
import {
  dateList,
  eanRule,
  imageRules,
  listRule,
  locationRules,
  offerFieldRules as rules,
  priceCategoryList,
  priceCategoryRules,
  priceRule,
  productsByEanList,
  publicationRule,
  quantityRule,
  refuseWrongEans,
  refuseWrongIdsAtProvider,
} from './fieldRules.js';
import { REVIEW_REASON_MAX_LENGTH, REVIEWED_OFFERS_MAX } from './limits.js';

/** A category id of the catalogue is a short upper-case name; a longer filter matches none. */
const CATEGORY_ID_MAX_LENGTH = 50;
const reviewReason = z.string().trim().min(1).max(REVIEW_REASON_MAX_LENGTH);

/**
 * The offers subgraph's inputs, checked by the rules of their fields (fieldRules.ts) on every
 * call of the graph, in the order of the REST bodies' fields. Whether a field may be null is
 * the service's business where it depends on the operation (an edition refuses a null name).
 */

const location = z.discriminatedUnion('type', [
  z.object({ type: z.literal('physical'), venueId: locationRules.venueId }),
  z.object({ type: z.literal('digital'), venueId: locationRules.venueId, url: locationRules.accessUrl }),
  z.object({
    type: z.literal('address'),
    venueId: locationRules.venueId,
    addressId: locationRules.addressId,
    addressLabel: locationRules.addressLabel.nullish(),
  }),
]);

const sharedOfferFields = {
  bookingAllowedDatetime: awareDateTime.nullish(),
  bookingContact: rules.email.nullish(),
  bookingEmail: rules.email.nullish(),
  description: rules.text.nullish(),
  externalTicketOfficeUrl: rules.webUrl.nullish(),
  idAtProvider: rules.idAtProvider.nullish(),
  image: z.object({ file: imageRules.file, credit: imageRules.credit.nullish() }).nullish(),
  itemCollectionDetails: rules.text.nullish(),
};

const eventFields = { eventDuration: rules.eventDuration.nullish(), videoUrl: rules.webUrl.nullish() };

const newPriceCategory = z.object({
  label: priceCategoryRules.label,
  price: priceCategoryRules.price,
  idAtProvider: rules.idAtProvider.nullish(),
});

const priceCategoryEdition = z.object({
  label: priceCategoryRules.label.optional(),
  price: priceCategoryRules.price.optional(),
  idAtProvider: rules.idAtProvider.nullish(),
});

const newDate = z.object({
  priceCategoryId: id(),
  quantity: quantityRule(1),
  idAtProvider: rules.idAtProvider.nullish(),
});

const dateEdition = z.object({
  priceCategoryId: id().nullish(),
  quantity: quantityRule(0).nullish(),
  idAtProvider: rules.idAtProvider.nullish(),
});

/** A product's stock: created (a price, at least one item), changed, or upserted by EAN (a price, 0 deletes it). */
const stockRule = (price: z.ZodType, minimumQuantity: 0 | 1) =>
  z.object({
    bookingLimitDatetime: awareDateTime.nullish(),
    price,
    quantity: quantityRule(minimumQuantity).nullish(),
  });

const productByEan = z.object({
  ean: eanRule,
  stock: stockRule(priceRule, 0),
  publicationDatetime: publicationRule.nullish(),
  bookingAllowedDatetime: awareDateTime.nullish(),
});

const idsAtProvider = listRule(refuseWrongIdsAtProvider);
const eans = listRule(refuseWrongEans);

export const offersInputRules: InputRules = {
  types: {
    EventCreateInput: z.object({
      location,
      name: rules.name,
      priceCategories: priceCategoryList(newPriceCategory).nullish(),
      publicationDatetime: publicationRule.nullish(),
      ...sharedOfferFields,
      ...eventFields,
    }),
    EventEditInput: z.object({
      location: location.nullish(),
      name: rules.editedName.nullish(),
      publicationDatetime: publicationRule.nullish(),
      ...sharedOfferFields,
      ...eventFields,
    }),
    ProductCreateInput: z.object({
      location,
      name: rules.name,
      publicationDatetime: publicationRule.nullish(),
      stock: stockRule(priceRule, 1).nullish(),
      ...sharedOfferFields,
    }),
    ProductEditInput: z.object({
      location: location.nullish(),
      name: rules.editedName.nullish(),
      publicationDatetime: publicationRule.nullish(),
      stock: stockRule(priceRule.nullish(), 0).nullish(),
      ...sharedOfferFields,
    }),
    ProductsByEanInput: z.object({ location, products: productsByEanList(productByEan) }),
    PriceCategoryCreationInput: newPriceCategory,
    PriceCategoryEditionInput: priceCategoryEdition,
    EventDateCreationInput: newDate,
    EventDateEditionInput: dateEdition,
  },
  arguments: {
    'Mutation.rejectOffer': { reason: reviewReason },
    'Mutation.reviewOffers': {
      offers: z
        .array(z.object({ offerId: z.int() }))
        .min(1)
        .max(REVIEWED_OFFERS_MAX),
      reason: reviewReason,
    },
    'Query.offersAwaitingReview': { category: z.string().max(CATEGORY_ID_MAX_LENGTH) },
    'Query.events': { idsAtProvider },
    'Query.products': { idsAtProvider },
    'Query.eventDates': { idsAtProvider },
    'Query.eventPriceCategories': { idsAtProvider },
    'Query.productsByEan': { eans },
    'Query.eanAvailability': { eans },
    'Mutation.createEventDates': { dates: dateList(newDate) },
    'Mutation.createEventPriceCategories': { priceCategories: priceCategoryList(newPriceCategory) },
    'Mutation.setOfferImage': { credit: imageRules.credit },
  },
};

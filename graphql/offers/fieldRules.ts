import { z } from '../shared/zod.js';
import { isWebUrl, webUrl } from '../providers/externalUrls.js';
import { URL_MAX_LENGTH } from '../providers/limits.js';
import { awareDateTime, id, withoutNul } from '../shared/fieldRules.js';
import { hasNul, NUL_MESSAGE } from '../shared/text.js';
import {
  ADDRESS_LABEL_MAX_LENGTH,
  CATEGORY_FIELD_MAX_LENGTH,
  DATE_QUANTITY_MAX,
  DATES_PER_CALL_MAX,
  EAN_LENGTH,
  EANS_PER_QUERY_MAX,
  EDITED_OFFER_NAME_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  EVENT_DURATION_MAX_MINUTES,
  ID_AT_PROVIDER_MAX_LENGTH,
  IDS_AT_PROVIDER_MAX,
  IMAGE_CREDIT_MAX_LENGTH,
  OFFER_NAME_MAX_LENGTH,
  OFFER_TEXT_MAX_LENGTH,
  PRICE_CATEGORIES_MAX,
  PRICE_CATEGORY_LABEL_MAX_LENGTH,
  PRICE_MAX_CENTS,
  PRODUCTS_BY_EAN_MAX,
} from './limits.js';

/**
 * The rules of individual offers' fields, each written once: the graph's input rules
 * (inputRules.ts) and the REST facade's schemas are both built from these.
 */

export const EVENT_DURATION_MESSAGE = 'The duration is in minutes, more than 0 and under 24 hours';

export const offerFieldRules = {
  name: withoutNul(z.string().min(1).max(OFFER_NAME_MAX_LENGTH)),
  editedName: withoutNul(z.string().min(1).max(EDITED_OFFER_NAME_MAX_LENGTH)),
  /** description, itemCollectionDetails */
  text: withoutNul(z.string().max(OFFER_TEXT_MAX_LENGTH)),
  /** bookingContact, bookingEmail */
  email: z.email().max(EMAIL_MAX_LENGTH),
  idAtProvider: withoutNul(z.string().max(ID_AT_PROVIDER_MAX_LENGTH)),
  /** externalTicketOfficeUrl, videoUrl */
  webUrl,
  /**
   * An event's duration in minutes. Bounded here, not only by the service, so that a number past
   * a GraphQL Int is refused as this field's 422 rather than failing the operation's variables.
   */
  eventDuration: z.int().gt(0, EVENT_DURATION_MESSAGE).lt(EVENT_DURATION_MAX_MINUTES, EVENT_DURATION_MESSAGE),
};

export const imageRules = {
  file: z.string().min(1),
  credit: withoutNul(z.string().max(IMAGE_CREDIT_MAX_LENGTH)),
};

export const locationRules = {
  venueId: id(),
  addressId: id(),
  addressLabel: withoutNul(z.string().min(1).max(ADDRESS_LABEL_MAX_LENGTH)),
  /**
   * The access URL of a digital offer: a web URL that may hold the placeholders {token},
   * {email} and {offerId}, so it is no strict RFC 3986 URI.
   */
  accessUrl: z
    .string()
    .min(1)
    .max(URL_MAX_LENGTH)
    .refine((value) => isWebUrl(value.replace(/\{(token|email|offerId)\}/g, 'x')), 'Input should be a valid URL'),
};

/** `now` publishes at once, a datetime schedules the publication. */
export const publicationRule = z.union([z.literal('now'), awareDateTime]);

/** Euro cents: the price of a price category, and of a product's stock. */
export const priceRule = z.int().min(0).max(PRICE_MAX_CENTS);

export const priceCategoryRules = {
  label: withoutNul(z.string().min(1).max(PRICE_CATEGORY_LABEL_MAX_LENGTH)),
  price: priceRule,
};

/** The price categories created by one call. */
export const priceCategoryList = <T extends z.ZodType>(priceCategory: T) =>
  z.array(priceCategory).max(PRICE_CATEGORIES_MAX);

/** The dates created by one call. */
export const dateList = <T extends z.ZodType>(date: T) => z.array(date).max(DATES_PER_CALL_MAX);

/** The products of one bulk upsert by EAN. */
export const productsByEanList = <T extends z.ZodType>(product: T) => z.array(product).max(PRODUCTS_BY_EAN_MAX);

export const UNLIMITED = 'unlimited';

/** Places or items: a whole number from `minimum` (1 to create, 0 to change), or "unlimited". */
export function quantityRule(minimum: 0 | 1) {
  return z.union([z.int().min(minimum).max(DATE_QUANTITY_MAX), z.literal(UNLIMITED)], {
    error: `Input should be a whole number from ${minimum} to ${DATE_QUANTITY_MAX}, or "${UNLIMITED}"`,
  });
}

/** The fields of `categoryRelatedFields` by their type: text (author, performer, ...) and EAN. */
export const categoryFieldRules = {
  string: withoutNul(z.string().max(CATEGORY_FIELD_MAX_LENGTH)),
  ean: z.string().regex(new RegExp(`^\\d{${EAN_LENGTH}}$`), `An EAN is ${EAN_LENGTH} digits`),
};

/** An EAN of a product sold by EAN: its check digit is the catalogue's business. */
export const eanRule = z.string().length(EAN_LENGTH);

/** Adds to `context` what is wrong with a list given as `input`, if anything; true when it did. */
type ListCheck = (values: readonly string[], context: z.RefinementCtx, input: unknown) => boolean;

/** EANs to look up: at least one, at most 100, each 13 characters. */
export const refuseWrongEans: ListCheck = (eans, context, input) => {
  if (eans.length === 0) {
    context.addIssue({
      code: 'too_small',
      origin: 'array',
      minimum: 1,
      inclusive: true,
      message: 'At least one EAN',
      input,
    });
    return true;
  }
  if (eans.length > EANS_PER_QUERY_MAX) {
    context.addIssue({
      code: 'too_big',
      origin: 'array',
      maximum: EANS_PER_QUERY_MAX,
      inclusive: true,
      message: `At most ${EANS_PER_QUERY_MAX} EANs`,
      input,
    });
    return true;
  }
  const wrong = eans.find((ean) => ean.length !== EAN_LENGTH);
  if (wrong === undefined) return false;
  context.addIssue({
    code: 'custom',
    message: `Each EAN is exactly ${EAN_LENGTH} characters: ${wrong.slice(0, 40)} is not`,
    params: { type: 'string_length' },
    input,
  });
  return true;
};

/** Identifiers at provider to filter by: none holding NUL, at most 100. */
export const refuseWrongIdsAtProvider: ListCheck = (ids, context, input) => {
  if (ids.some(hasNul)) {
    context.addIssue({ code: 'custom', message: NUL_MESSAGE, params: { type: 'string_pattern_mismatch' }, input });
    return true;
  }
  if (ids.length <= IDS_AT_PROVIDER_MAX) return false;
  context.addIssue({
    code: 'too_big',
    origin: 'array',
    maximum: IDS_AT_PROVIDER_MAX,
    inclusive: true,
    message: `At most ${IDS_AT_PROVIDER_MAX} identifiers`,
    input,
  });
  return true;
};

/** A list argument of the graph, checked as a whole (the REST facade checks the same list parsed from its query). */
export const listRule = (check: ListCheck) =>
  z.array(z.string()).superRefine((values, context) => {
    check(values, context, values);
  });

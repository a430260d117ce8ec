/**
 * Limits of the contract for individual offers, their price categories, dates and stocks: each
 * number exists once, read by the domain's rules (fieldRules.ts) and the REST facade alike.
 */

/** The name of a new offer; an edition may give a longer one, up to the column's size. */
export const OFFER_NAME_MAX_LENGTH = 90;
export const EDITED_OFFER_NAME_MAX_LENGTH = 140;
/** Description and withdrawal details. */
export const OFFER_TEXT_MAX_LENGTH = 10_000;
/** bookingContact and bookingEmail. */
export const EMAIL_MAX_LENGTH = 120;
/** A label of an address location, and the credit of an image. */
export const ADDRESS_LABEL_MAX_LENGTH = 200;
export const IMAGE_CREDIT_MAX_LENGTH = 200;
/** A text field of `categoryRelatedFields` (author, performer, ...). */
export const CATEGORY_FIELD_MAX_LENGTH = 1000;

/** An event's duration, in minutes: more than 0 and under 24 hours. */
export const EVENT_DURATION_MAX_MINUTES = 24 * 60;

/** Your own identifier of an offer, a price category or a date. */
export const ID_AT_PROVIDER_MAX_LENGTH = 70;
/** Identifiers at provider a list may filter by. */
export const IDS_AT_PROVIDER_MAX = 100;

export const PRICE_CATEGORY_LABEL_MAX_LENGTH = 50;
/** Euro cents. */
export const PRICE_MAX_CENTS = 30_000;
/** Per creation request, and per offer in total. */
export const PRICE_CATEGORIES_MAX = 50;

/** Dates created by one call. */
export const DATES_PER_CALL_MAX = 2_500;
/** Non-deleted dates of one event. */
export const DATES_PER_OFFER_MAX = 2_500;
/** An event with this many dates or more is not published (the contract's limit per offer). */
export const PUBLICATION_MAX_DATES = 2500;

/**
 * Places of one date. The contract sets no maximum, but the stored total must stay a 32-bit
 * integer once booked places are added, so a number the database cannot hold is refused (422)
 * rather than failing the insert.
 */
export const DATE_QUANTITY_MAX = 1_000_000;

/** An EAN-13 is 13 digits. */
export const EAN_LENGTH = 13;
/** EANs per query (offers by EAN, availability check). */
export const EANS_PER_QUERY_MAX = 100;
/** Products per bulk upsert by EAN. */
export const PRODUCTS_BY_EAN_MAX = 500;

/** The reason a reviewer gives for rejecting an offer, which its provider reads. */
export const REVIEW_REASON_MAX_LENGTH = 1000;
/** Offers reviewed by one decision. */
export const REVIEWED_OFFERS_MAX = 50;

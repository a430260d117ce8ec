/** Limits of the contract for price categories and event dates: each number exists once. */

/** Your own identifier of a price category or a date. */
export const ID_AT_PROVIDER_MAX_LENGTH = 70;

export const PRICE_CATEGORY_LABEL_MAX_LENGTH = 50;
/** Euro cents. */
export const PRICE_MAX_CENTS = 30_000;
/** Per creation request, and per offer in total. */
export const PRICE_CATEGORIES_MAX = 50;

/** Dates created by one call. */
export const DATES_PER_CALL_MAX = 2_500;
/** Non-deleted dates of one event. */
export const DATES_PER_OFFER_MAX = 2_500;

/**
 * Places of one date. The contract sets no maximum, but the stored total must stay a 32-bit
 * integer once booked places are added, so a number the database cannot hold is refused (422)
 * rather than failing the insert.
 */
export const DATE_QUANTITY_MAX = 1_000_000;

/** The largest id a path or body may name (a 32-bit integer). */
export const ID_MAX = 2_147_483_647;

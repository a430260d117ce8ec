/** Limits of the bookings subgraph: each number exists once, read by its rules. */

/** A countermark's length; text longer than four of them is malformed input rather than unknown. */
export const TOKEN_LENGTH = 6;

const HOUR_MS = 3_600_000;
/** An event booking may be cancelled by its beneficiary until 48 hours before the event... */
export const CANCELLATION_NOTICE_MS = 48 * HOUR_MS;
/** ...or until 48 hours after booking, when that comes first. */
export const CANCELLATION_WINDOW_MS = 48 * HOUR_MS;
/** An event booking not validated by the venue counts as used 48 hours after the event. */
export const AUTO_USE_DELAY_MS = 48 * HOUR_MS;
/** A product not picked up is released after 10 days for a book, 30 days otherwise. */
export const BOOK_PICKUP_DAYS = 10;
export const OTHER_PICKUP_DAYS = 30;

/** The longest barcode a ticket may have. */
export const BARCODE_MAX_LENGTH = 100;
/** A ticket's seat is kept to this many characters. */
export const SEAT_MAX_LENGTH = 100;
/** The longest barcode cancelled from an answer that is not a valid issue of tickets. */
export const STRAY_BARCODE_MAX_LENGTH = 1000;

/** A sandbox beneficiary: an email address of 120 characters at most... */
export const BENEFICIARY_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const BENEFICIARY_EMAIL_MAX_LENGTH = 120;
/** ...first and last names of 1 to 100 characters... */
export const BENEFICIARY_NAME_MAX_LENGTH = 100;
/** ...a birth date as YYYY-MM-DD... */
export const BIRTH_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** ...a postal code of five digits... */
export const BENEFICIARY_POSTAL_CODE_PATTERN = /^\d{5}$/;
/** ...and a phone number of 6 to 20 characters: digits, spaces and an optional leading +. */
export const BENEFICIARY_PHONE_PATTERN = /^\+?[0-9 ]{6,19}$/;

import type { ValidationIssue } from '../../shared/errors.js';
import { isStorable } from '../../../platform/time/moments.js';
import type { Quantity } from './types.js';

/** A path inside the request part; its segments are text, as the contract's `loc` is. */
type Loc = string[];

export interface DateFields {
  beginningDatetime?: Date | null;
  bookingLimitDatetime?: Date | null;
  priceCategoryId?: number | null;
  quantity?: Quantity | null;
  idAtProvider?: string | null;
}

/**
 * What a date's moments must be (the 422s the clock decides): storable, and a beginning and a
 * booking limit in the future (a limit already past would close the date as it opens). The
 * other fields' rules are checked with the inputs (inputRules.ts).
 */
export function dateMomentIssues(fields: DateFields, loc: Loc, now: Date): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const field of ['beginningDatetime', 'bookingLimitDatetime'] as const) {
    const moment = fields[field];
    if (moment && !isStorable(moment)) {
      issues.push({
        loc: [...loc, field],
        msg: 'The datetime must fall in the years 1 to 9999 (UTC)',
        type: 'datetime_parsing',
      });
    }
  }
  for (const field of ['beginningDatetime', 'bookingLimitDatetime'] as const) {
    const moment = fields[field];
    if (moment && moment.getTime() <= now.getTime()) {
      issues.push({ loc: [...loc, field], msg: 'The datetime must be in the future', type: 'datetime_future' });
    }
  }
  return issues;
}

/** When an offer opens: its publication and its opening of bookings, each null when not set. */
export interface OfferOpening {
  publication: Date | null;
  bookingAllowed: Date | null;
}

/**
 * Why a booking limit is refused (400), none when it is fine: it may not fall after the date's
 * beginning, nor before the offer's publication or its opening of bookings when they are set
 * (nobody could book in between). Products have no beginning.
 */
export function bookingLimitProblems(
  beginning: Date | null,
  bookingLimit: Date | null,
  opening: OfferOpening,
): string[] {
  if (!bookingLimit) return [];
  const problems: string[] = [];
  if (beginning && bookingLimit.getTime() > beginning.getTime()) {
    problems.push('The booking limit must not be after the beginning of the date');
  }
  const { publication, bookingAllowed } = opening;
  if (publication && bookingLimit.getTime() < publication.getTime()) {
    problems.push(
      `The booking limit must not be before the publication of the offer (${publication.toISOString()}): nobody could book in between`,
    );
  }
  if (bookingAllowed && bookingLimit.getTime() < bookingAllowed.getTime()) {
    problems.push(
      `The booking limit must not be before bookings open (bookingAllowedDatetime, ${bookingAllowed.toISOString()}): nobody could book in between`,
    );
  }
  return problems;
}

/** One date per beginning and price category: the key of that rule. */
export function beginningAndPriceCategoryKey(
  beginning: Date | null,
  priceCategoryId: number | null | undefined,
): string {
  return `${beginning?.getTime() ?? 'none'}/${priceCategoryId ?? 'none'}`;
}

/** Stored quantity (total) from a quantity given (places still on sale): booked places come on top. */
export function totalQuantity(given: Quantity, bookedQuantity: number): number | null {
  return given === 'unlimited' ? null : given + bookedQuantity;
}

/** Places still on sale: the graph's `remainingQuantity` (REST answers the stored total). */
export function remainingQuantity(stock: { quantity: number | null; bookedQuantity: number }): Quantity {
  return stock.quantity == null ? 'unlimited' : Math.max(0, stock.quantity - stock.bookedQuantity);
}

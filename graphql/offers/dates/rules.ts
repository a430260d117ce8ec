import type { ValidationIssue } from '../../shared/errors.js';
import { isStorable } from '../../shared/moments.js';
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
 * What a date's moments must be (the 422s the clock decides): storable, and a beginning in
 * the future. The other fields' rules are checked with the inputs (inputRules.ts).
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
  if (fields.beginningDatetime && fields.beginningDatetime.getTime() <= now.getTime()) {
    issues.push({
      loc: [...loc, 'beginningDatetime'],
      msg: 'The datetime must be in the future',
      type: 'datetime_future',
    });
  }
  return issues;
}

/**
 * Why a booking limit is refused (400), or null: it may not fall after the date's beginning,
 * nor before the event's publication when one is set (nobody could book in between).
 */
export function bookingLimitProblem(
  beginning: Date | null,
  bookingLimit: Date | null,
  publication: Date | null,
): string | null {
  if (!bookingLimit) return null;
  if (beginning && bookingLimit.getTime() > beginning.getTime()) {
    return 'The booking limit must not be after the beginning of the date';
  }
  if (publication && bookingLimit.getTime() < publication.getTime()) {
    return `The booking limit must not be before the publication of the event (${publication.toISOString()})`;
  }
  return null;
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

/** Places still on sale, as the contract shows them. */
export function remainingQuantity(stock: { quantity: number | null; bookedQuantity: number }): Quantity {
  return stock.quantity == null ? 'unlimited' : Math.max(0, stock.quantity - stock.bookedQuantity);
}

import type { ValidationIssue } from '../../shared/errors.js';
import { isStorable } from '../../shared/moments.js';
import { hasNul, NUL_MESSAGE } from '../../shared/text.js';
import { DATE_QUANTITY_MAX, ID_AT_PROVIDER_MAX_LENGTH, ID_MAX } from '../limits.js';
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
 * The constraints a date's fields carry on their own (the 422s): a beginning in the future,
 * a quantity of at least 1 on creation (0 on edition) or "unlimited", a positive price
 * category id, an idAtProvider of at most 70 characters. Checked in the domain so that
 * /graphql callers meet them too; the REST schemas check all but the future.
 */
export function dateFieldIssues(fields: DateFields, loc: Loc, mode: 'create' | 'edit', now: Date): ValidationIssue[] {
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
  issues.push(...quantityIssues(fields.quantity, [...loc, 'quantity'], mode === 'create' ? 1 : 0));
  const priceCategoryId = fields.priceCategoryId;
  if (priceCategoryId != null && (priceCategoryId <= 0 || priceCategoryId > ID_MAX)) {
    issues.push({
      loc: [...loc, 'priceCategoryId'],
      msg: 'A price category id is a positive integer',
      type: priceCategoryId <= 0 ? 'greater_than' : 'less_than_equal',
      ctx: { limit_value: priceCategoryId <= 0 ? 0 : ID_MAX },
    });
  }
  if (fields.idAtProvider != null && hasNul(fields.idAtProvider)) {
    issues.push({ loc: [...loc, 'idAtProvider'], msg: NUL_MESSAGE, type: 'string_pattern_mismatch' });
  } else if (fields.idAtProvider != null && fields.idAtProvider.length > ID_AT_PROVIDER_MAX_LENGTH) {
    issues.push({
      loc: [...loc, 'idAtProvider'],
      msg: `At most ${ID_AT_PROVIDER_MAX_LENGTH} characters`,
      type: 'string_too_long',
      ctx: { limit_value: ID_AT_PROVIDER_MAX_LENGTH },
    });
  }
  return issues;
}

/** A quantity of places or items: a whole number from `minimum` (1 on creation, 0 on edition), or "unlimited". */
export function quantityIssues(quantity: Quantity | null | undefined, loc: Loc, minimum: 0 | 1): ValidationIssue[] {
  if (
    typeof quantity !== 'number' ||
    (Number.isInteger(quantity) && quantity >= minimum && quantity <= DATE_QUANTITY_MAX)
  )
    return [];
  return [
    {
      loc,
      msg: `A quantity is a whole number from ${minimum} to ${DATE_QUANTITY_MAX}, or "unlimited"`,
      type: quantity < minimum ? 'greater_than_equal' : 'less_than_equal',
      ctx: { limit_value: quantity < minimum ? minimum : DATE_QUANTITY_MAX },
    },
  ];
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

import { z } from './zod.js';
import { daysInMonth, digitsAt, momentOf, offsetMinutesAt } from '../../platform/time/calendar.js';
import { isStorable } from '../../platform/time/moments.js';
import { hasNul, NUL_MESSAGE } from './text.js';

/**
 * Rules of single fields that every subgraph's inputs share. Each is a zod schema without
 * OpenAPI metadata: the REST facade adds its descriptions to the same schemas.
 */

/** The largest id a path or body may name: a GraphQL Int (and a database id) is 32-bit. */
export const ID_MAX = 2_147_483_647;

/** An id: a positive 32-bit integer. A function: each field gets its own schema to describe. */
export const id = () => z.int().gt(0).max(ID_MAX);

/**
 * Refuses text holding NUL (422): neither database can store it, so it would otherwise fail
 * the query. A refinement, so the documented shape of the field does not change.
 */
export function withoutNul<T extends z.ZodString>(schema: T): T {
  return schema.refine((value) => !hasNul(value), {
    message: NUL_MESSAGE,
    params: { type: 'string_pattern_mismatch' },
  });
}

/**
 * A decimal in a JSON body. Integers are the usual numbers of this contract, so a decimal
 * field names its own error types: `float_parsing` for text, `float_type` for anything else.
 */
export function decimal<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, context) => {
    if (typeof value === 'number' || value === undefined) return value;
    context.addIssue({
      code: 'custom',
      message: 'Input should be a valid number',
      params: { type: typeof value === 'string' ? 'float_parsing' : 'float_type' },
      input: value,
    });
    return z.NEVER;
  }, schema);
}

/** ISO 8601 with a timezone: `Z` or an offset such as `+01:00` (or `+0100`); seconds and fractions optional. */
const AWARE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/i;
/** The same without a timezone, or a bare date: a time we would have to guess. */
const NAIVE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/i;

function isRealMoment(match: RegExpExecArray): boolean {
  const month = Number(match[2]);
  if (month < 1 || month > 12) return false;
  const day = Number(match[3]);
  return (
    day >= 1 &&
    day <= daysInMonth(Number(match[1]), month) &&
    Number(match[4]) <= 23 &&
    Number(match[5]) <= 59 &&
    Number(match[6] ?? 0) <= 59 &&
    Number(match[7] ?? 0) <= 23 &&
    Number(match[8] ?? 0) <= 59
  );
}

/**
 * The moment of the form integrations send, `2026-05-01T20:00:00Z`, with or without milliseconds
 * and with `Z` or an offset such as `+02:00`, read by position; null for any other form or a
 * value out of range, which the pattern then reads. The pattern and a Date parse per value took
 * two thirds of the validation of 2500 dates (issue 19).
 */
function usualFormMoment(value: string): Date | null {
  const length = value.length;
  const fraction = length === 24 || length === 29;
  if (!fraction && length !== 20 && length !== 25) return null;
  if (fraction && value.charCodeAt(19) !== 46) return null; // .
  const zoneAt = fraction ? 23 : 19;
  // An offset written `+02:00` only: the pattern reads `+0200`, and `+02` is no ISO 8601 offset here.
  const offsetMinutes =
    length === zoneAt + 1 ? (value.charCodeAt(zoneAt) === 90 ? 0 : null) : offsetMinutesAt(value, zoneAt); // Z
  if (offsetMinutes === null) return null;
  return momentOf(value, 84, fraction ? digitsAt(value, 20, 3) : 0, offsetMinutes); // T
}

/** Any other ISO 8601 form the pattern takes: offsets without a colon, other fractions, `t` and `z`. */
function otherFormMoment(value: string): Date | null {
  const match = AWARE.exec(value);
  return match && isRealMoment(match) ? new Date(value) : null;
}

/**
 * A datetime in a request: ISO 8601 and timezone-aware, read as the moment it names (and so
 * stored in UTC). A naive datetime is refused (422 `timezone_aware`), never guessed.
 */
export const awareDateTime = z.string().transform((value, context) => {
  const moment = usualFormMoment(value) ?? otherFormMoment(value);
  if (moment && isStorable(moment)) return moment;
  const naive = NAIVE.test(value);
  context.addIssue({
    code: 'custom',
    message: naive ? 'Input should be a timezone-aware ISO 8601 datetime' : 'Input should be a valid ISO 8601 datetime',
    params: { type: naive ? 'timezone_aware' : 'datetime_parsing' },
    input: value,
  });
  return z.NEVER;
});

import { digitsAt, momentOf, offsetMinutesAt } from '../time/calendar.js';

/** Values of raw rows, as the two drivers give them. */

/**
 * PostgreSQL's text of a timestamptz, `2026-05-01 20:00:00.12+00` (a fraction of at most three
 * digits, an offset in hours or hours and minutes), read by position; null for any other text.
 * `new Date` read it through V8's legacy parser: 4 % of a page of 50 products (issue 19).
 */
function postgresMoment(value: string): Date | null {
  const length = value.length;
  let zoneAt = 19;
  let millisecond = 0;
  if (value.charCodeAt(19) === 46) {
    // .
    const digits = length - 23 - (value.charCodeAt(length - 3) === 58 ? 3 : 0);
    if (digits < 1 || digits > 3) return null;
    millisecond = digitsAt(value, 20, digits) * (digits === 1 ? 100 : digits === 2 ? 10 : 1);
    zoneAt = 20 + digits;
  }
  const offsetMinutes = offsetMinutesAt(value, zoneAt);
  return offsetMinutes === null ? null : momentOf(value, 32, millisecond, offsetMinutes); // space
}

/** The PostgreSQL driver gives Date objects or text; libSQL epoch milliseconds, as numbers or text. */
export function asDate(value: string | number | Date): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  if (/^\d+$/.test(value)) return new Date(Number(value));
  return postgresMoment(value) ?? new Date(value);
}

export function asDateOrNull(value: string | number | Date | null | undefined): Date | null {
  return value == null ? null : asDate(value);
}

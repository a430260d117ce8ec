import { isStorable } from '../../graphql/shared/moments.js';
import { z } from '../zod.js';

/** ISO 8601 with a timezone: `Z` or an offset such as `+01:00` (or `+0100`); seconds and fractions optional. */
const AWARE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/i;
/** The same without a timezone, or a bare date: a time we would have to guess. */
const NAIVE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/i;

export { isStorable };

function isRealMoment(match: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = match.slice(1);
  const lastOfMonth = new Date(0);
  lastOfMonth.setUTCFullYear(Number(year), Number(month), 0); // (Date.UTC would read years 0-99 as 1900-1999)
  const daysInMonth = lastOfMonth.getUTCDate();
  return (
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= daysInMonth &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offsetHours) <= 23 &&
    Number(offsetMinutes) <= 59
  );
}

/**
 * A datetime in a request: ISO 8601 and timezone-aware, read as the moment it names (and so
 * stored in UTC). A naive datetime is refused (422 `timezone_aware`), never guessed.
 */
export const awareDateTimeInput = z
  .string()
  .transform((value, context) => {
    const match = AWARE.exec(value);
    const moment = match && isRealMoment(match) ? new Date(value) : null;
    if (moment && isStorable(moment)) return moment;
    const naive = NAIVE.test(value);
    context.addIssue({
      code: 'custom',
      message: naive
        ? 'Input should be a timezone-aware ISO 8601 datetime'
        : 'Input should be a valid ISO 8601 datetime',
      params: { type: naive ? 'timezone_aware' : 'datetime_parsing' },
      input: value,
    });
    return z.NEVER;
  })
  .openapi({
    format: 'date-time',
    description: 'ISO 8601 with a timezone (Z or an offset); stored in UTC.',
    example: '2027-03-14T20:30:00+01:00',
  });

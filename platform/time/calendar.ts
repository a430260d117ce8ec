/**
 * Moments read from their text by position and arithmetic, the proleptic Gregorian calendar's
 * (year 0 is a leap year): a pattern and a Date parse per value cost the 2500 dates of a body,
 * and the dates of every row PostgreSQL answers as text, more than the rest of their reading
 * (issue 19).
 */

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}

/** The number written in `count` digits from `at`, or -1 if any of them is no digit. */
export function digitsAt(value: string, at: number, count: number): number {
  let number = 0;
  for (let index = at; index < at + count; index += 1) {
    const digit = value.charCodeAt(index) - 48;
    if (!(digit >= 0 && digit <= 9)) return -1;
    number = number * 10 + digit;
  }
  return number;
}

/** Days from 1970-01-01 to a day of the calendar, in integer arithmetic. */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const shifted = month <= 2 ? year - 1 : year;
  const era = Math.floor(shifted / 400);
  const yearOfEra = shifted - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The moment a local time names at an offset of `offsetMinutes` east of UTC, or null when a field
 * is out of its range (a -1 of `digitsAt` among them) or the day is not in its month.
 */
function utcMoment(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millisecond: number,
  offsetMinutes: number,
): Date | null {
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || millisecond < 0) return null;
  return new Date(
    daysSinceEpoch(year, month, day) * DAY +
      (hour * 60 + minute - offsetMinutes) * MINUTE +
      second * 1000 +
      millisecond,
  );
}

/**
 * The moment of a text that starts `YYYY-MM-DD?HH:MM:SS`, the character `separator` at the `?`,
 * with the milliseconds and the offset its reader found after the seconds; null when the text
 * does not start so or a field is out of range.
 */
export function momentOf(value: string, separator: number, millisecond: number, offsetMinutes: number): Date | null {
  if (
    value.charCodeAt(4) !== 45 || // -
    value.charCodeAt(7) !== 45 ||
    value.charCodeAt(10) !== separator ||
    value.charCodeAt(13) !== 58 || // :
    value.charCodeAt(16) !== 58
  )
    return null;
  return utcMoment(
    digitsAt(value, 0, 4),
    digitsAt(value, 5, 2),
    digitsAt(value, 8, 2),
    digitsAt(value, 11, 2),
    digitsAt(value, 14, 2),
    digitsAt(value, 17, 2),
    millisecond,
    offsetMinutes,
  );
}

/**
 * The offset that ends a text from `at`, `+HH` or `+HH:MM` (or `-`), in minutes east of UTC; null
 * for anything else, an hour over 23 or a minute over 59 among it.
 */
export function offsetMinutesAt(value: string, at: number): number | null {
  const sign = value.charCodeAt(at);
  if (sign !== 43 && sign !== 45) return null; // + -
  const hours = digitsAt(value, at + 1, 2);
  let minutes = 0;
  if (value.length === at + 6 && value.charCodeAt(at + 3) === 58) minutes = digitsAt(value, at + 4, 2);
  else if (value.length !== at + 3) return null;
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return null;
  return (sign === 45 ? -1 : 1) * (hours * 60 + minutes);
}

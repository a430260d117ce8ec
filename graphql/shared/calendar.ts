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
export function utcMoment(
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

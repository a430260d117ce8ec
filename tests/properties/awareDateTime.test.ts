/**
 * The datetimes of request bodies (graphql/shared/fieldRules.ts): the usual form is read by
 * position and the other ISO 8601 forms by a pattern, and both must name the moment JavaScript's
 * own parser names, take only days the calendar has, and refuse what the contract refuses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { awareDateTime } from '../../graphql/shared/fieldRules.js';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** Whether the month has this day: JavaScript's parser rolls 30 February over to March. */
const isRealDay = (year: number, month: number, day: number) =>
  new Date(Date.parse(`${pad(year, 4)}-${pad(month)}-01T00:00:00Z`) + (day - 1) * 86_400_000).getUTCDate() === day;

const usualForm = fc.record({
  year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1, 4, 100, 400, 1900, 2000, 2024, 2100, 9999)),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 31 }),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
  second: fc.integer({ min: 0, max: 59 }),
  millisecond: fc.option(fc.integer({ min: 0, max: 999 })),
  offset: fc.option(
    fc.record({
      sign: fc.constantFrom('+', '-'),
      hours: fc.integer({ min: 0, max: 23 }),
      minutes: fc.integer({ min: 0, max: 59 }),
    }),
  ),
});

describe('awareDateTime', () => {
  it('reads the usual form as the moment JavaScript reads, on real days of storable years only', () => {
    fc.assert(
      fc.property(usualForm, ({ year, month, day, hour, minute, second, millisecond, offset }) => {
        const value =
          `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}` +
          (millisecond === null ? '' : `.${pad(millisecond, 3)}`) +
          (offset === null ? 'Z' : `${offset.sign}${pad(offset.hours)}:${pad(offset.minutes)}`);
        const result = awareDateTime.safeParse(value);
        const moment = new Date(value);
        const storable = moment.getUTCFullYear() >= 1 && moment.getUTCFullYear() <= 9999;
        expect(result.success).toBe(isRealDay(year, month, day) && storable);
        if (result.success) expect(result.data.getTime()).toBe(moment.getTime());
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads the other ISO 8601 forms with a timezone as JavaScript does', () => {
    for (const value of [
      '2026-12-01T20:00Z',
      '2026-12-01T20:00+01:00',
      '2026-12-01T20:00:00.5Z',
      '2026-12-01T20:00:00.123456789-03:30',
      '2026-12-01t20:00:00z',
      '2026-12-01T20:00:00+0100',
    ]) {
      const result = awareDateTime.safeParse(value);
      expect(result.success, value).toBe(true);
      expect(result.data?.getTime(), value).toBe(new Date(value.toUpperCase()).getTime());
    }
  });

  it('refuses naive, impossible and malformed datetimes with their error type', () => {
    const typeOf = (value: string) => {
      const result = awareDateTime.safeParse(value);
      if (result.success) return 'accepted';
      const [issue] = result.error.issues;
      return issue.code === 'custom' ? issue.params?.type : issue.code;
    };
    for (const [value, type] of [
      ['2026-12-01T20:00:00', 'timezone_aware'],
      ['2026-12-01', 'timezone_aware'],
      ['2026-02-29T20:00:00Z', 'datetime_parsing'],
      ['2026-04-31T20:00:00.000Z', 'datetime_parsing'],
      ['2026-12-01T24:00:00Z', 'datetime_parsing'],
      ['2026-12-01T20:60:00+01:00', 'datetime_parsing'],
      ['2026-12-01T20:00:60Z', 'datetime_parsing'],
      ['2026-12-01T20:00:00+24:00', 'datetime_parsing'],
      ['2026-12-01T20:00:00+01:60', 'datetime_parsing'],
      ['2026-12-01T20:00:00*01:00', 'datetime_parsing'],
      ['2026-12-01X20:00:00Z', 'datetime_parsing'],
      ['2026-1a-01T20:00:00Z', 'datetime_parsing'],
      ['0000-06-01T00:00:00Z', 'datetime_parsing'],
      ['9999-12-31T23:00:00-02:00', 'datetime_parsing'],
      ['tomorrow', 'datetime_parsing'],
    ]) {
      expect(typeOf(value), value).toBe(type);
    }
  });
});

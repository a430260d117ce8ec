/**
 * Dates of raw rows (platform/sql/rowValues.ts): PostgreSQL's text of a timestamptz is read by
 * position, and must name the moment it was written from, whatever its fraction and offset.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asDate, asDateOrNull } from '../../platform/sql/rowValues.js';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** A moment as PostgreSQL writes it at a session offset, its fraction without trailing zeros. */
function postgresText(moment: Date, offsetMinutes: number): string {
  const local = new Date(moment.getTime() + offsetMinutes * 60_000);
  const fraction = pad(local.getUTCMilliseconds(), 3).replace(/0+$/, '');
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = Math.abs(offsetMinutes);
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    (fraction ? `.${fraction}` : '') +
    `${sign}${pad(Math.floor(offset / 60))}${offset % 60 ? `:${pad(offset % 60)}` : ''}`
  );
}

const storedMoment = fc
  .integer({ min: Date.parse('0001-01-02T00:00:00.000Z'), max: Date.parse('9999-12-30T23:59:59.999Z') })
  .map((time) => new Date(time));
const offsetMinutes = fc.oneof(fc.constant(0), fc.integer({ min: -15 * 60, max: 15 * 60 }));

describe('dates of raw rows', () => {
  it("reads PostgreSQL's text of every stored moment, at any offset", () => {
    fc.assert(
      fc.property(storedMoment, offsetMinutes, (moment, offset) => {
        const text = postgresText(moment, offset);
        expect(asDate(text).getTime(), text).toBe(moment.getTime());
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads the other forms as before: epoch milliseconds, Dates, microseconds and ISO text', () => {
    const moment = new Date('2026-05-01T20:00:00.123Z');
    expect(asDate(moment)).toBe(moment);
    expect(asDate(moment.getTime()).getTime()).toBe(moment.getTime());
    expect(asDate(String(moment.getTime())).getTime()).toBe(moment.getTime());
    expect(asDate('2026-05-01 20:00:00.123456+00').getTime()).toBe(new Date('2026-05-01 20:00:00.123456+00').getTime());
    expect(asDate('2026-05-01T22:00:00.123+02:00').getTime()).toBe(moment.getTime());
    expect(asDate('2026-02-30 20:00:00+00').getTime()).toBe(new Date('2026-02-30 20:00:00+00').getTime());
    expect(asDateOrNull(null)).toBeNull();
  });
});

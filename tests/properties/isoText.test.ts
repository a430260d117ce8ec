/**
 * The text of every date the graph answers (platform/time/moments.ts, dateTimeScalar.ts): it
 * must be `toISOString`'s, byte for byte, and the scalar must answer what graphql-scalars' answers.
 */
import fc from 'fast-check';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { describe, expect, it } from 'vitest';
import { DateTimeISO } from '../../graphql/shared/dateTimeScalar.js';
import { isoText } from '../../platform/time/moments.js';

/** From year -271821 to 275760: every moment a Date holds. */
const anyMoment = fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }).map((time) => new Date(time));
/** Years 1 to 9999, where the stored moments are. */
const storedMoment = fc
  .integer({ min: Date.parse('0001-01-01T00:00:00.000Z'), max: Date.parse('9999-12-31T23:59:59.999Z') })
  .map((time) => new Date(time));

describe('isoText', () => {
  it("writes toISOString's text for every moment", () => {
    fc.assert(
      fc.property(fc.oneof(anyMoment, storedMoment), (moment) => {
        expect(isoText(moment)).toBe(moment.toISOString());
      }),
      { numRuns: 20_000 },
    );
    for (const text of ['0999-12-31T23:59:59.999Z', '1000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      expect(isoText(new Date(text))).toBe(text);
    }
  });

  it('gives the DateTimeISO scalar the answers of graphql-scalars', () => {
    for (const value of [new Date('2026-05-01T20:00:00.007Z'), new Date('0042-01-01T00:00:00Z'), 1_780_000_000_000]) {
      expect(DateTimeISO.serialize(value)).toBe(GraphQLDateTimeISO.serialize(value));
    }
    for (const value of [new Date(Number.NaN), 'not a date', {}]) {
      expect(() => DateTimeISO.serialize(value)).toThrow();
      expect(() => GraphQLDateTimeISO.serialize(value)).toThrow();
    }
    expect(DateTimeISO.toConfig().description).toBe(GraphQLDateTimeISO.description);
    expect(DateTimeISO.name).toBe('DateTimeISO');
  });
});

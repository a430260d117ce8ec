import { describe, expect, it } from 'vitest';
import { decodeEventPayload, encodeEventPayload } from '../../server/work/eventPayload.js';

/** What the outbox does to a payload: JSON in the job's row, parsed back by the worker. */
const throughJson = (value: Record<string, unknown>) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

describe('domain event payloads in a job', () => {
  it('come back with their Dates as Dates, at any depth, and everything else as it was', () => {
    const at = new Date('2030-03-02T10:00:00.123Z');
    const payload = {
      stockId: 7,
      reason: null,
      decision: 'APPROVED',
      beginningDatetime: at,
      nested: { dates: [at, new Date(0)], flag: true },
    };

    const stored = throughJson(encodeEventPayload(payload));

    expect(stored.beginningDatetime).toEqual({ $date: '2030-03-02T10:00:00.123Z' });
    const decoded = decodeEventPayload(stored);
    expect(decoded).toEqual(payload);
    expect(decoded.beginningDatetime).toBeInstanceOf(Date);
    expect((decoded.nested as { dates: unknown[] }).dates[1]).toEqual(new Date(0));
  });

  it('leave a string that looks like a date a string', () => {
    const payload = { label: '2030-03-02T10:00:00.000Z', shape: { $date: 1, other: 2 } };
    expect(decodeEventPayload(throughJson(encodeEventPayload(payload)))).toEqual(payload);
  });
});

/**
 * A domain event's payload as a job's JSON payload and back. Payloads carry Dates (a date's new
 * beginning, the time of a decision), which JSON would turn into strings that a handler would
 * then compare or store as text; a Date is written `{ "$date": "<ISO 8601>" }` instead, and read
 * back as a Date. A payload's own object with a single `$date` key would be read as a Date too:
 * event payloads have no such field.
 */

export function encodeEventPayload(payload: object): Record<string, unknown> {
  return encode(payload) as Record<string, unknown>;
}

export function decodeEventPayload(payload: Record<string, unknown>): Record<string, unknown> {
  return decode(payload) as Record<string, unknown>;
}

function encode(value: unknown): unknown {
  if (value instanceof Date) return { $date: value.toISOString() };
  if (Array.isArray(value)) return value.map(encode);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, encode(field)]));
  }
  return value;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0][0] === '$date' && typeof entries[0][1] === 'string') {
    return new Date(entries[0][1]);
  }
  return Object.fromEntries(entries.map(([key, field]) => [key, decode(field)]));
}

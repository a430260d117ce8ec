// A batch's bodies, each stored once per provider (decision 034). Plain JavaScript (JSDoc-typed,
// checked by tsc), so that the writer's thread (requestLogThread.mjs) loads it as the server does.
import { hash } from 'node:crypto';
import { keptBody } from './keptBody.mjs';

/**
 * A body by its key, with its bytes when they are still to be stored; `body` null: the writer
 * stored this key for this provider a moment ago (writer.ts), and only the entry is written.
 * @typedef {{ key: string, body: Uint8Array | string | null }} KeyedBody
 */

/**
 * What a batch writes: each entry's values with its bodies' keys in their place, and every body the
 * batch stores once, as `[providerId, key, text, truncated, lastSeenAt]`.
 * @typedef {{ entries: unknown[][], bodies: unknown[][] }} SeparatedBatch
 */

/**
 * The key of a body's kept bytes: a SHA-256 digest, so that the same answer sent a thousand times
 * (a list an integration polls) is stored once, and two different bodies never share a key.
 * @param {Uint8Array | string} body
 */
export function bodyKeyOf(body) {
  return hash('sha256', body, 'hex');
}

/**
 * Each row as the writer hands it over holds the entry's values in the order of its columns (the
 * first the provider's id, the one at `seenAt` its time), then its request's and its answer's
 * bodies as {@link KeyedBody} or null. Each row's bodies become their keys, and the bodies still
 * to store are gathered once per provider and key: turned into text once, however many rows
 * carry them, their last-seen time the newest row's that carries them (retention.ts).
 * @param {readonly unknown[][]} rows
 * @param {number} seenAt the index of the entry's time among its values
 * @returns {SeparatedBatch}
 */
export function separateBodies(rows, seenAt) {
  /** @type {Map<string, unknown[]>} */
  const bodies = new Map();
  /** @param {number} providerId @param {unknown} seen @param {unknown} value @returns {string | null} */
  const keyOf = (providerId, seen, value) => {
    if (value === null || value === undefined) return null;
    const { key, body } = /** @type {KeyedBody} */ (value);
    if (body === null) return key;
    const stored = bodies.get(`${providerId} ${key}`);
    if (stored) stored[4] = seen;
    else {
      const kept = keptBody(body);
      bodies.set(`${providerId} ${key}`, [providerId, key, kept.text ?? '', kept.truncated, seen]);
    }
    return key;
  };
  const entries = rows.map((row) => {
    const values = row.slice(0, -2);
    return [
      ...values,
      keyOf(/** @type {number} */ (values[0]), values[seenAt], row[row.length - 2]),
      keyOf(/** @type {number} */ (values[0]), values[seenAt], row[row.length - 1]),
    ];
  });
  return { entries, bodies: [...bodies.values()] };
}

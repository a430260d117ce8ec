import type { ShownAnswer } from '../../../app/docs/samples.server.js';

/**
 * Whether the answer a page shows is the one the server gave. The shown body is a subset of the
 * real one: an object shows some of the answer's keys, an array some of its items in their order.
 * What differs from one run to the next is matched by its shape: an id (a key `id`, `…Id` or
 * `…_id`) by being a whole number, a datetime by being one, a token (a countermark, a barcode)
 * by its length and alphabet. Everything else is the very value shown. A key `...` says that the
 * page left the answer's other keys out, and is not compared.
 */

/** `"...": "..."` in a shown object says that the answer has more there. */
const ELIDED = '...';
const ID_KEY = /^(id|.+Id|.+_id)$/;
const TOKEN_KEYS = new Set(['token', 'barcode']);
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const TOKEN = /^[A-Z0-9]+$/;

/** A value's description in a report: short, as JSON. */
function shortly(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

const where = (path: string) => (path === '' ? 'the body' : path);

/** Why `actual` is not what `shown` says at `path` (the key that holds them: `key`), or []. */
export function bodyDifferences(shown: unknown, actual: unknown, path = '', key = ''): string[] {
  if (typeof shown === 'number' && ID_KEY.test(key))
    return Number.isInteger(actual) ? [] : [`${where(path)}: an id is shown, the answer has ${shortly(actual)}`];
  if (typeof shown === 'string' && DATETIME.test(shown))
    return typeof actual === 'string' && DATETIME.test(actual)
      ? []
      : [`${where(path)}: a datetime is shown, the answer has ${shortly(actual)}`];
  if (typeof shown === 'string' && TOKEN_KEYS.has(key) && TOKEN.test(shown))
    return typeof actual === 'string' && TOKEN.test(actual) && actual.length === shown.length
      ? []
      : [`${where(path)}: a token like ${shortly(shown)} is shown, the answer has ${shortly(actual)}`];
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${where(path)}: a list is shown, the answer has ${shortly(actual)}`];
    return itemDifferences(shown, actual, path);
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return [`${where(path)}: an object is shown, the answer has ${shortly(actual)}`];
    return Object.entries(shown).flatMap(([name, value]) => {
      if (name === ELIDED) return [];
      const at = path === '' ? name : `${path}.${name}`;
      if (!(name in actual)) return [`${at}: shown, but not in the answer`];
      return bodyDifferences(value, (actual as Record<string, unknown>)[name], at, name);
    });
  }
  return Object.is(shown, actual)
    ? []
    : [`${where(path)}: ${shortly(shown)} is shown, the answer has ${shortly(actual)}`];
}

/**
 * The shown items must be found in the answer in the same order (each match taken as early as it
 * can be, which finds a match whenever there is one). An item found nowhere is reported with what
 * the answer's item at the same position differs by.
 */
function itemDifferences(shown: unknown[], actual: unknown[], path: string): string[] {
  let next = 0;
  for (const [index, item] of shown.entries()) {
    let found = -1;
    for (let candidate = next; candidate < actual.length; candidate += 1) {
      if (bodyDifferences(item, actual[candidate]).length === 0) {
        found = candidate;
        break;
      }
    }
    if (found === -1) {
      const at = `${path}[${index}]`;
      const sameIndex = actual[Math.min(Math.max(next, index), actual.length - 1)];
      const closest = actual.length === 0 ? ['the answer is an empty list'] : bodyDifferences(item, sameIndex, at);
      return [`${at}: no item of the answer (${actual.length}) matches it, from position ${next} on`, ...closest];
    }
    next = found + 1;
  }
  return [];
}

/** Header values that change with every answer, matched by being there. */
const VARYING_HEADERS = new Set(['date', 'etag', 'x-request-id', 'content-length']);

/** Why a real answer is not the one a page shows, or []. */
export function answerDifferences(
  shown: ShownAnswer,
  actual: { status: number | null; headers: Record<string, string>; body: string },
): string[] {
  const differences: string[] = [];
  if (shown.status !== undefined && shown.status !== actual.status)
    differences.push(`status: ${shown.status} is shown, the answer is ${actual.status}`);
  for (const [name, value] of Object.entries(shown.headers ?? {})) {
    const real = actual.headers[name];
    if (real === undefined) differences.push(`header ${name}: shown, but not in the answer`);
    else if (!VARYING_HEADERS.has(name) && real !== value)
      differences.push(`header ${name}: ${shortly(value)} is shown, the answer has ${shortly(real)}`);
  }
  if (shown.body === undefined) return differences;
  let body: unknown;
  try {
    body = JSON.parse(actual.body);
  } catch {
    return [...differences, `the body: JSON is shown, the answer is ${shortly(actual.body)}`];
  }
  return [...differences, ...bodyDifferences(shown.body, body)];
}

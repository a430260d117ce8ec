import { createHash } from 'node:crypto';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

export type ParsedKey = { ok: true; key: string } | { ok: false; message: string };

/**
 * The header's value: a Structured Field string as the IETF draft writes it (`"8e03…"`), or the
 * bare token most clients send (Stripe's form). Either way 1 to 255 printable ASCII characters.
 */
export function parseIdempotencyKey(value: string): ParsedKey {
  const trimmed = value.trim();
  let key: string;
  if (trimmed.startsWith('"')) {
    const quoted = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(trimmed);
    if (!quoted) return { ok: false, message: 'A quoted key must be a string of printable ASCII characters' };
    key = quoted[1].replace(/\\(["\\])/g, '$1');
  } else {
    if (!/^[\x21-\x7e]*$/.test(trimmed)) {
      return { ok: false, message: 'The key must be printable ASCII characters without spaces, or a quoted string' };
    }
    key = trimmed;
  }
  if (key.length === 0) return { ok: false, message: 'The key must not be empty' };
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    return { ok: false, message: `The key must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters long` };
  }
  return { ok: true, key };
}

/** What makes two requests "the same request" for a key: method, path with its query, and body. */
export function requestFingerprint(method: string, pathWithQuery: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${pathWithQuery}\n`)
    .update(JSON.stringify(body ?? null))
    .digest('hex');
}

import { promisify } from 'node:util';
import { constants, deflateRaw, inflateRawSync } from 'node:zlib';

/** How much of a JSON body is kept: 64 KB each way, as the console promises. */
export const REQUEST_LOG_BODY_MAX_BYTES = 64 * 1024;

/** A body as the recorder caught it: the answer's chunk as Express ended it, or the request's JSON text. */
export type CaughtBody = Buffer | string;

export interface KeptBody {
  bytes: Buffer | null;
  truncated: boolean;
}

const nothing: KeptBody = { bytes: null, truncated: false };

/**
 * The first {@link REQUEST_LOG_BODY_MAX_BYTES} bytes of a body, and whether it was cut. A cut
 * that falls inside a multi-byte character drops that character rather than keep half of it.
 */
export function keptBody(body: CaughtBody | null | undefined): KeptBody {
  if (body === null || body === undefined) return nothing;
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (bytes.length === 0) return nothing;
  if (bytes.length <= REQUEST_LOG_BODY_MAX_BYTES) return { bytes, truncated: false };
  let end = REQUEST_LOG_BODY_MAX_BYTES;
  // Back to the first byte of the character the limit falls in (continuation bytes are 10xxxxxx).
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return { bytes: bytes.subarray(0, end), truncated: true };
}

const deflate = promisify(deflateRaw);

/**
 * Bodies from this size on are deflated. Each deflate sets up a compressor of its own (hundreds of
 * KB): for the many small answers that cost more than writing them (GET provider fell to 0.44 of
 * its baseline when every body was deflated), and a small row costs SQLite little.
 */
const DEFLATE_FROM_BYTES = 4 * 1024;
/** The first character of a stored body says how to read the rest: as it is, or deflated in base64. */
const PLAIN = '=';
const DEFLATED = '~';

/**
 * A kept body as stored. A large one is deflated (fastest level) on libuv's thread pool, not the
 * event loop, on which SQLite's driver writes: 400 rows of a 23 KB answer took 95 ms to insert as
 * text, about 3 ms deflated. Base64 keeps the value a text parameter, bound through the prepared
 * statements, on both engines.
 */
export async function storedBody(bytes: Buffer | null): Promise<string | null> {
  if (bytes === null) return null;
  if (bytes.length < DEFLATE_FROM_BYTES) return PLAIN + bytes.toString('utf8');
  return DEFLATED + (await deflate(bytes, { level: constants.Z_BEST_SPEED })).toString('base64');
}

/** The JSON text of a stored body. */
export function bodyTextOf(stored: string | null): string | null {
  if (stored === null) return null;
  if (stored.startsWith(PLAIN)) return stored.slice(1);
  return inflateRawSync(Buffer.from(stored.slice(1), 'base64')).toString('utf8');
}

/**
 * What the buffer may hold of a body until the writer runs: a body over the limit is cut now
 * (a copy of its first bytes and a byte more, so the writer still sees it was longer), so that
 * a full buffer holds at most that much per body, not a whole large answer.
 */
export function boundedBody(body: CaughtBody): CaughtBody {
  if (typeof body === 'string') {
    // A UTF-16 unit is at most 3 bytes of UTF-8: a string this short cannot be over the limit.
    if (body.length * 3 <= REQUEST_LOG_BODY_MAX_BYTES) return body;
    const bytes = Buffer.from(body, 'utf8');
    return bytes.length <= REQUEST_LOG_BODY_MAX_BYTES
      ? body
      : Buffer.from(bytes.subarray(0, REQUEST_LOG_BODY_MAX_BYTES + 1));
  }
  return body.length <= REQUEST_LOG_BODY_MAX_BYTES
    ? body
    : Buffer.from(body.subarray(0, REQUEST_LOG_BODY_MAX_BYTES + 1));
}

export function caughtBytes(body: CaughtBody | null | undefined): number {
  if (body === null || body === undefined) return 0;
  return typeof body === 'string' ? body.length * 3 : body.length;
}

/** How much of a JSON body is kept: 64 KB each way, as the console promises. */
export const REQUEST_LOG_BODY_MAX_BYTES = 64 * 1024;

/** A body as the recorder caught it: the answer's chunk as Express ended it, or the request's JSON text. */
export type CaughtBody = Buffer | string;

export interface KeptBody {
  text: string | null;
  truncated: boolean;
}

const nothing: KeptBody = { text: null, truncated: false };

/**
 * The first {@link REQUEST_LOG_BODY_MAX_BYTES} bytes of a body as text, and whether it was cut.
 * A cut that falls inside a multi-byte character drops that character rather than keep half of it.
 */
export function keptBody(body: CaughtBody | null | undefined): KeptBody {
  if (body === null || body === undefined) return nothing;
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (bytes.length === 0) return nothing;
  if (bytes.length <= REQUEST_LOG_BODY_MAX_BYTES) return { text: bytes.toString('utf8'), truncated: false };
  let end = REQUEST_LOG_BODY_MAX_BYTES;
  // Back to the first byte of the character the limit falls in (continuation bytes are 10xxxxxx).
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
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

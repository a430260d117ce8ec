import { REQUEST_LOG_BODY_MAX_BYTES } from './keptBody.mjs';

export { keptBody, REQUEST_LOG_BODY_MAX_BYTES } from './keptBody.mjs';

/** A body as the recorder caught it: the answer's chunk as Express ended it, or the request's JSON text. */
export type CaughtBody = Buffer | string;

export interface KeptBody {
  text: string | null;
  truncated: boolean;
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

export function caughtBytes(body: Uint8Array | string | null | undefined): number {
  if (body === null || body === undefined) return 0;
  return typeof body === 'string' ? body.length * 3 : body.length;
}

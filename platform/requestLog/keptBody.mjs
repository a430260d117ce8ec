// How much of a body the request log keeps, as text. Plain JavaScript (JSDoc-typed, checked by
// tsc), so that the writer's thread (requestLogThread.mjs) loads it as the server does,
// from the sources under vitest as from dist/.

/** How much of a JSON body is kept: 64 KB each way, as the console promises. */
export const REQUEST_LOG_BODY_MAX_BYTES = 64 * 1024;

/**
 * The first {@link REQUEST_LOG_BODY_MAX_BYTES} bytes of a body as text, and whether it was cut.
 * A cut that falls inside a multi-byte character drops that character rather than keep half of it.
 * @param {Uint8Array | string | null | undefined} body
 * @returns {{ text: string | null, truncated: boolean }}
 */
export function keptBody(body) {
  if (body === null || body === undefined) return { text: null, truncated: false };
  // A Buffer posted to a thread arrives as a plain Uint8Array: it is viewed as a Buffer again, not copied.
  const bytes =
    typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (bytes.length === 0) return { text: null, truncated: false };
  if (bytes.length <= REQUEST_LOG_BODY_MAX_BYTES) return { text: bytes.toString('utf8'), truncated: false };
  let end = REQUEST_LOG_BODY_MAX_BYTES;
  // Back to the first byte of the character the limit falls in (continuation bytes are 10xxxxxx).
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}

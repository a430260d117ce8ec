/** What the client sends a request with: the platform's fetch, or one a test or an integrator gives. */
export type FetchLike = (request: Request) => Promise<Response>;

export interface RetryOptions {
  /** Attempts of one call, the first included (default 3; 1 turns retries off). */
  maxAttempts?: number;
  /** A wait longer than this is not waited for: the answer is returned as it is (default 60 seconds). */
  maxDelaySeconds?: number;
}

export interface RetryingFetchOptions extends RetryOptions {
  /** Defaults to the global fetch, read at each call (so that a fetch installed later is the one used). */
  fetch?: FetchLike;
  /** Waits between attempts; a test gives one that records the delays instead of waiting. */
  sleep?: (milliseconds: number) => Promise<void>;
  /** Makes the Idempotency-Key of a write (default: a random UUID). */
  newIdempotencyKey?: () => string;
}

export const DEFAULT_MAX_ATTEMPTS = 3;
export const DEFAULT_MAX_DELAY_SECONDS = 60;

/**
 * The answers that say "send the same request again later", with the seconds to wait in
 * `Retry-After`: over the rate limit (nothing was done), the operation's service unavailable, and
 * a write whose Idempotency-Key is still running (the retry gets the first request's answer).
 */
const RETRIED_STATUSES = new Set([409, 429, 503]);

/** Writes: the API runs each once per Idempotency-Key, which makes them safe to send again. */
const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

const defaultSleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** `Retry-After` in seconds, from either form the header may take (seconds, or an HTTP date); null when absent. */
export function retryAfterSeconds(response: Response, now: () => number = Date.now): number | null {
  const value = response.headers.get('Retry-After')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now()) / 1000));
}

/** The request as sent on every attempt: a write carries an Idempotency-Key, the caller's or a new one. */
function withIdempotencyKey(request: Request, newKey: () => string): Request {
  if (!WRITE_METHODS.has(request.method) || request.headers.has('Idempotency-Key')) return request;
  const headers = new Headers(request.headers);
  headers.set('Idempotency-Key', newKey());
  return new Request(request, { headers });
}

/**
 * A fetch that sends a request again, the same key and body, while the answer asks to wait
 * (409, 429, 503 with `Retry-After`), waiting as long as it says, for a bounded number of
 * attempts. Any other answer, or the last one, is returned as received.
 */
export function retryingFetch(options: RetryingFetchOptions = {}): FetchLike {
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const maxDelaySeconds = options.maxDelaySeconds ?? DEFAULT_MAX_DELAY_SECONDS;
  const sleep = options.sleep ?? defaultSleep;
  const newKey = options.newIdempotencyKey ?? (() => crypto.randomUUID());
  return async (request) => {
    const send: FetchLike = options.fetch ?? ((input) => globalThis.fetch(input));
    const prepared = withIdempotencyKey(request, newKey);
    for (let attempt = 1; ; attempt += 1) {
      // Each attempt sends a copy: a body can be read once.
      const response = await send(attempt < maxAttempts ? prepared.clone() : prepared);
      if (attempt >= maxAttempts || !RETRIED_STATUSES.has(response.status)) return response;
      const delay = retryAfterSeconds(response);
      if (delay === null || delay > maxDelaySeconds) return response;
      await response.body?.cancel();
      await sleep(delay * 1000);
    }
  };
}

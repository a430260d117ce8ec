/** First retry waits this long; each further retry doubles it. */
export const RETRY_BASE_DELAY_MS = 1_000;

/** No retry waits longer than an hour, however many attempts failed. */
export const RETRY_MAX_DELAY_MS = 60 * 60 * 1_000;

/**
 * How long to wait before running a job again after its `attempt`-th attempt failed:
 * 2^attempt seconds (2 s, 4 s, 8 s, ...), capped at an hour. Deterministic, without jitter,
 * so tests can move a clock by exactly this much; jobs are claimed in batches by polling
 * workers, which spreads retries enough on its own.
 */
export function retryDelayMs(attempt: number): number {
  const exponent = Math.max(0, Math.floor(attempt));
  // 2^exponent overflows the cap long before it overflows a double; stop early anyway.
  if (exponent >= 32) return RETRY_MAX_DELAY_MS;
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** exponent, RETRY_MAX_DELAY_MS);
}

/** The contract's rate limit: one budget per API key, shared by every process. */
export const RATE_LIMIT_POINTS = 200;
export const RATE_LIMIT_WINDOW_SECONDS = 60;

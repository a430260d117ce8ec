/** Named limits of the HTTP layer, so each number exists once. */
export const JSON_BODY_LIMIT = '8mb';
export const MULTIPART_BODY_LIMIT_BYTES = 10 * 1024 * 1024;
export const SHUTDOWN_GRACE_MS = 10_000;

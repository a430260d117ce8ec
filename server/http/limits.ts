/** Named limits of the HTTP layer, so each number exists once. */
// A 10 MB image arrives base64-encoded in JSON: about 13.4 MB.
export const JSON_BODY_LIMIT = '16mb';
export const MULTIPART_BODY_LIMIT_BYTES = 10 * 1024 * 1024;
export const SHUTDOWN_GRACE_MS = 10_000;

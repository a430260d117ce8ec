export { IdempotencyRecord } from './IdempotencyRecord.js';
export { IDEMPOTENCY_KEY_MAX_LENGTH, parseIdempotencyKey, requestFingerprint } from './key.js';
export { type Claim, IDEMPOTENCY_LOCK_MS, IDEMPOTENCY_TTL_MS, IdempotencyStore, type StoredAnswer } from './store.js';

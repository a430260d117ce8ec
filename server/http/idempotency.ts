import type { RequestHandler, Response } from 'express';
import {
  type IdempotencyStore,
  parseIdempotencyKey,
  requestFingerprint,
  type StoredAnswer,
} from '../../platform/idempotency/index.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';
import type { Logger } from '../logger.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function refuseKey(res: Response, msg: string, type: string): void {
  res.status(422).json([{ loc: ['header', IDEMPOTENCY_KEY_HEADER], msg, type }]);
}

/** An answer the client should not get back on a retry: nothing ran, so a retry must run it. */
function nothingRan(status: number): boolean {
  return status === 422 || status >= 500;
}

/**
 * Keeps the answer of the first request with a key, just before it is sent: a retry that follows
 * the answer at once finds it. Invalid input and server errors free the key instead.
 */
function recordAnswer(res: Response, settle: (status: number, answer: StoredAnswer) => Promise<void>): void {
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    const chunk = typeof args[0] === 'function' ? undefined : args[0];
    // Express ends an answer with its whole body, a string or a Buffer.
    const body = Buffer.isBuffer(chunk) ? chunk.toString('utf8') : typeof chunk === 'string' ? chunk : null;
    const contentType = res.getHeader('Content-Type');
    void settle(res.statusCode, {
      status: res.statusCode,
      contentType: typeof contentType === 'string' ? contentType : null,
      body,
    }).finally(() => end(...args));
    return res;
  }) as Response['end'];
}

/**
 * `Idempotency-Key` on the writes of the REST API (the IETF draft of that name): the first answer
 * is kept 24 hours per API key with a fingerprint of the request; a retry of the same request gets
 * it back with `Idempotent-Replayed: true` and runs nothing; the same key on another request is a
 * 422 naming the header; a retry while the first still runs is a 409. Mounted after authentication
 * and the body reader (the fingerprint covers the body as read). A request without the header is
 * untouched.
 */
export function idempotentWrites(store: IdempotencyStore, logger: Logger): RequestHandler {
  return asyncHandler(async (req, res, next) => {
    const header = req.get(IDEMPOTENCY_KEY_HEADER);
    const caller = res.locals.caller;
    // Sessions never reach the REST API, so every caller here has a key; a person has none to key a record on.
    const apiKeyId = caller && caller.kind !== 'staff' ? caller.apiKeyId : undefined;
    if (header === undefined || !WRITE_METHODS.has(req.method) || apiKeyId === undefined) {
      next();
      return;
    }
    const parsed = parseIdempotencyKey(header);
    if (!parsed.ok) {
      refuseKey(res, parsed.message, 'value_error');
      return;
    }
    const key = parsed.key;
    const claim = await store.claim(apiKeyId, key, requestFingerprint(req.method, req.originalUrl, req.body));
    switch (claim.kind) {
      case 'first':
        recordAnswer(res, (status, answer) =>
          (nothingRan(status) ? store.release(apiKeyId, key) : store.complete(apiKeyId, key, answer)).catch(
            (error: unknown) => logger.error({ err: error, requestId: res.locals.requestId }, 'idempotency record'),
          ),
        );
        next();
        return;
      case 'replay':
        res.status(claim.status).set(REPLAYED_HEADER, 'true');
        if (claim.contentType) res.set('Content-Type', claim.contentType);
        if (claim.body === null) res.end();
        else res.send(claim.body);
        return;
      case 'reused':
        refuseKey(
          res,
          'This key was used for another request (method, path or body) within the last 24 hours: use a new key for a new request',
          'idempotency_key_reused',
        );
        return;
      case 'running':
        res
          .status(409)
          .set('Retry-After', String(claim.retryAfterSeconds))
          .json({ global: ['A request with this Idempotency-Key is still running: retry once it has answered'] });
        return;
    }
  });
}

import type { RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

import { RATE_LIMIT_POINTS, RATE_LIMIT_WINDOW_SECONDS } from '../rest-facade/rateLimitPolicy.js';

export { RATE_LIMIT_POINTS, RATE_LIMIT_WINDOW_SECONDS };
export const RATE_LIMIT_KEY_PREFIX = 'rate-limit:api-key';

export interface RateLimiterOptions {
  /**
   * Share one budget per key across every process that uses this Redis. The limiter takes
   * the connection over: close() quits it. Without it, each process counts on its own.
   */
  redis?: Redis;
  points?: number;
  durationSeconds?: number;
  keyPrefix?: string;
}

export interface RateLimiter {
  /** Mount after the auth middleware: it keys on `res.locals.caller.apiKeyPrefix`. */
  middleware: RequestHandler;
  close(): Promise<void>;
}

/**
 * The per-API-key budget. Every answer carries the RateLimit-* headers of the IETF draft
 * (`RateLimit-Limit`, `-Remaining`, `-Reset`, `-Policy`); an answer over budget is a 429 with
 * `Retry-After` and the contract's `{"global": [...]}` error body.
 *
 * With Redis, a Redis that is down or slow never fails a request: rate-limiter-flexible sends
 * the consumption to an in-memory insurance limiter instead (a per-process budget until Redis
 * is back), and `rejectIfRedisNotReady` makes that immediate rather than waiting on ioredis'
 * offline queue.
 */
export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const points = options.points ?? RATE_LIMIT_POINTS;
  const durationSeconds = options.durationSeconds ?? RATE_LIMIT_WINDOW_SECONDS;
  const keyPrefix = options.keyPrefix ?? RATE_LIMIT_KEY_PREFIX;
  const memoryLimiter = new RateLimiterMemory({ points, duration: durationSeconds, keyPrefix });
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({
        storeClient: options.redis,
        points,
        duration: durationSeconds,
        keyPrefix,
        rejectIfRedisNotReady: true,
        insuranceLimiter: memoryLimiter,
      })
    : memoryLimiter;
  const policy = `${points};w=${durationSeconds}`;
  const window = durationSeconds === 60 ? 'minute' : `${durationSeconds} seconds`;

  const setHeaders = (res: Response, result: RateLimiterRes): void => {
    res.setHeader('RateLimit-Limit', String(points));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, result.remainingPoints)));
    res.setHeader('RateLimit-Reset', String(secondsUntilReset(result)));
    res.setHeader('RateLimit-Policy', policy);
  };

  const middleware: RequestHandler = (req, res, next) => {
    const caller = res.locals.caller;
    // Unauthenticated requests are answered by the auth middleware; nothing to count here.
    if (!caller) return next();

    limiter.consume(caller.apiKeyPrefix, 1).then(
      (result) => {
        setHeaders(res, result);
        next();
      },
      (rejection: unknown) => {
        // A rejection is either "over budget" (a RateLimiterRes) or an error of both stores.
        if (!(rejection instanceof RateLimiterRes)) return next(rejection);
        const retryAfterSeconds = secondsUntilReset(rejection);
        setHeaders(res, rejection);
        res.setHeader('Retry-After', String(retryAfterSeconds));
        res.status(429).json({
          global: [
            `Too many requests: the limit is ${points} requests per ${window} per API key. Retry after ${retryAfterSeconds} seconds.`,
          ],
        });
      },
    );
  };

  return {
    middleware,
    async close() {
      const redis = options.redis;
      if (redis && redis.status !== 'end') await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Whole seconds, at least 1: a client told to retry after 0 seconds would hammer the API. */
function secondsUntilReset(result: RateLimiterRes): number {
  return Math.max(1, Math.ceil(result.msBeforeNext / 1000));
}

import type { RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

import { budgetNameOf } from '../graphql/shared/caller.js';
import type { RateLimitRefusal } from '../platform/metrics/index.js';
import { RATE_LIMIT_POINTS, RATE_LIMIT_WINDOW_SECONDS } from '../rest-facade/rateLimitPolicy.js';

export { RATE_LIMIT_POINTS, RATE_LIMIT_WINDOW_SECONDS };
export const RATE_LIMIT_KEY_PREFIX = 'rate-limit:api-key';
/** The policy's name in the `RateLimit` and `RateLimit-Policy` fields: one budget per API key. */
export const RATE_LIMIT_POLICY_NAME = 'per-key';

/** The IETF draft's `RateLimit` field: where a key stands in the `per-key` policy. */
export function rateLimitField(remaining: number, resetSeconds: number): string {
  return `"${RATE_LIMIT_POLICY_NAME}";r=${remaining};t=${resetSeconds}`;
}

export interface RateLimiterOptions {
  /**
   * Share one budget per key across every process that uses this Redis. The limiter takes
   * the connection over: close() quits it. Without it, each process counts on its own.
   */
  redis?: Redis;
  points?: number;
  durationSeconds?: number;
  keyPrefix?: string;
  /** Told of each refusal (a 429), where it came from: the process's metrics count them. */
  onRefusal?: (source: RateLimitRefusal) => void;
}

/** Where a key stands in its window, after a request was counted. */
export interface BudgetState {
  /** Points per window. */
  limit: number;
  windowSeconds: number;
  remaining: number;
  msBeforeReset: number;
}

export type Charge =
  { allowed: true; state: BudgetState } | { allowed: false; state: BudgetState; retryAfterSeconds: number };

export interface RateLimiter {
  /**
   * Counts one point per request. Mount after the auth middleware: it keys on
   * `res.locals.caller.apiKeyPrefix`, and leaves where the key stands in `res.locals.rateLimit`.
   */
  middleware: RequestHandler;
  /** The same, for `/graphql`: a refusal is a GraphQL error rather than the contract's body. */
  graphqlMiddleware: RequestHandler;
  /**
   * Charges `points` more to a key, in the same budget and store as the middleware (Redis shared
   * by every process). Over budget, the points are given back: what was refused did not run.
   */
  charge(key: string, points: number): Promise<Charge>;
  close(): Promise<void>;
}

/**
 * The per-API-key budget. Every answer carries the IETF draft's `RateLimit-Policy` and `RateLimit`
 * fields, and the earlier draft's `RateLimit-Limit`, `-Remaining` and `-Reset`; an answer over budget is a 429 with
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
  // The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers): a named policy, and where the key stands in it.
  const policy = `"${RATE_LIMIT_POLICY_NAME}";q=${points};w=${durationSeconds}`;
  const window = durationSeconds === 60 ? 'minute' : `${durationSeconds} seconds`;

  const setHeaders = (res: Response, result: RateLimiterRes): void => {
    const remaining = Math.max(0, result.remainingPoints);
    const reset = secondsUntilReset(result);
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader('RateLimit', rateLimitField(remaining, reset));
    // The earlier draft's fields, which clients already read.
    res.setHeader('RateLimit-Limit', String(points));
    res.setHeader('RateLimit-Remaining', String(remaining));
    res.setHeader('RateLimit-Reset', String(reset));
  };

  const stateOf = (result: RateLimiterRes): BudgetState => ({
    limit: points,
    windowSeconds: durationSeconds,
    remaining: Math.max(0, result.remainingPoints),
    msBeforeReset: result.msBeforeNext,
  });

  const countRequests =
    (refusalBody: (message: string) => object, source: RateLimitRefusal): RequestHandler =>
    (req, res, next) => {
      const caller = res.locals.caller;
      // Unauthenticated requests are answered by the auth middleware; nothing to count here.
      if (!caller) return next();

      limiter.consume(budgetNameOf(caller), 1).then(
        (result) => {
          setHeaders(res, result);
          res.locals.rateLimit = stateOf(result);
          next();
        },
        (rejection: unknown) => {
          // A rejection is either "over budget" (a RateLimiterRes) or an error of both stores.
          if (!(rejection instanceof RateLimiterRes)) return next(rejection);
          const retryAfterSeconds = secondsUntilReset(rejection);
          options.onRefusal?.(source);
          setHeaders(res, rejection);
          res.setHeader('Retry-After', String(retryAfterSeconds));
          res
            .status(429)
            .json(
              refusalBody(
                `Too many requests: the limit is ${points} requests per ${window} per API key. Retry after ${retryAfterSeconds} seconds.`,
              ),
            );
        },
      );
    };

  const charge = async (key: string, extra: number): Promise<Charge> => {
    try {
      return { allowed: true, state: stateOf(await limiter.consume(key, extra)) };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      options.onRefusal?.('graphql_cost');
      // The store counted the points before refusing them: give them back.
      const restored = await limiter.reward(key, extra).catch(() => undefined);
      const remaining = restored
        ? Math.max(0, restored.remainingPoints)
        : Math.max(0, points - (rejection.consumedPoints - extra));
      return {
        allowed: false,
        state: { limit: points, windowSeconds: durationSeconds, remaining, msBeforeReset: rejection.msBeforeNext },
        retryAfterSeconds: secondsUntilReset(rejection),
      };
    }
  };

  return {
    middleware: countRequests((message) => ({ global: [message] }), 'rest'),
    graphqlMiddleware: countRequests(
      (message) => ({ errors: [{ message, extensions: { code: 'RATE_LIMITED' } }] }),
      'graphql',
    ),
    charge,
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

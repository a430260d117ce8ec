import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Caller } from '../../graphql/shared/caller.js';
import {
  createRateLimiter,
  RATE_LIMIT_POINTS,
  RATE_LIMIT_WINDOW_SECONDS,
  type RateLimiter,
  type RateLimiterOptions,
} from '../../server/rateLimit.js';

const redisUrl = process.env.REDIS_URL || undefined;

const limiters: RateLimiter[] = [];
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await Promise.all(limiters.splice(0).map((limiter) => limiter.close()));
});

/**
 * A listening app (one server for many requests, rather than one per supertest call) whose fake
 * auth sets the caller from the `X-Test-Key` header, as the real auth middleware does from the key.
 */
async function anApp(options: RateLimiterOptions = {}): Promise<Server> {
  const limiter = createRateLimiter(options);
  limiters.push(limiter);
  const app: Express = express();
  app.use((req, res, next) => {
    const prefix = req.header('X-Test-Key');
    if (prefix) {
      const caller: Caller = { kind: 'provider', apiKeyId: 1, apiKeyPrefix: prefix, providerId: 1, offererId: null };
      res.locals.caller = caller;
    }
    next();
  });
  app.use(limiter.middleware);
  app.get('/ping', (_req, res) => {
    res.json({ ok: true });
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return server;
}

function ping(server: Server, key?: string) {
  const call = request(`http://127.0.0.1:${(server.address() as AddressInfo).port}`).get('/ping');
  return key ? call.set('X-Test-Key', key) : call;
}

async function pingTimes(server: Server, key: string, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < times; index += 1) statuses.push((await ping(server, key)).status);
  return statuses;
}

function expectTooManyRequests(response: request.Response, points = RATE_LIMIT_POINTS): void {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(RATE_LIMIT_WINDOW_SECONDS);
  expect(response.headers['ratelimit-remaining']).toBe('0');
  expect(response.body).toEqual({
    global: [
      `Too many requests: the limit is ${points} requests per minute per API key. Retry after ${retryAfter} seconds.`,
    ],
  });
}

describe('rate limit, in memory', () => {
  it('lets 200 requests of one key through, with the RateLimit fields of both drafts, and answers the 201st with 429', async () => {
    const server = await anApp();

    for (let index = 1; index <= RATE_LIMIT_POINTS; index += 1) {
      const response = await ping(server, 'key-a');
      expect(response.status).toBe(200);
      expect(response.headers['ratelimit-limit']).toBe('200');
      expect(response.headers['ratelimit-remaining']).toBe(String(RATE_LIMIT_POINTS - index));
      expect(response.headers['ratelimit-policy']).toBe('"per-key";q=200;w=60');
      const reset = Number(response.headers['ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
      // The current draft's field says the same as the earlier draft's three.
      expect(response.headers.ratelimit).toBe(`"per-key";r=${RATE_LIMIT_POINTS - index};t=${reset}`);
      expect(response.headers['retry-after']).toBeUndefined();
    }

    const refused = await ping(server, 'key-a');
    expectTooManyRequests(refused);
    expect(refused.headers['ratelimit-limit']).toBe('200');
    expect(refused.headers['ratelimit-policy']).toBe('"per-key";q=200;w=60');
    expect(refused.headers.ratelimit).toBe(`"per-key";r=0;t=${refused.headers['retry-after']}`);
    expectTooManyRequests(await ping(server, 'key-a'));
  });

  it('gives each key its own budget', async () => {
    const server = await anApp({ points: 3 });

    expect(await pingTimes(server, 'key-a', 4)).toEqual([200, 200, 200, 429]);
    expect(await pingTimes(server, 'key-b', 4)).toEqual([200, 200, 200, 429]);
    const refused = await ping(server, 'key-a');
    expectTooManyRequests(refused, 3);
    expect(refused.headers['ratelimit-policy']).toBe('"per-key";q=3;w=60');
  });

  it('leaves requests without a caller to the auth middleware: no count, no headers', async () => {
    const server = await anApp({ points: 1 });

    expect(await Promise.all([ping(server), ping(server)].map(async (call) => (await call).status))).toEqual([
      200, 200,
    ]);
    const response = await ping(server);
    expect(response.headers['ratelimit-limit']).toBeUndefined();
  });

  it('falls back to an in-memory budget when Redis cannot be reached, instead of failing requests', async () => {
    // Port 1 has no Redis; never connecting and never queueing makes every Redis call fail at once.
    const unreachable = new Redis({
      host: '127.0.0.1',
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const server = await anApp({ redis: unreachable, points: 2 });

    expect(await pingTimes(server, 'key-a', 3)).toEqual([200, 200, 429]);
    expectTooManyRequests(await ping(server, 'key-a'), 2);
  });
});

describe('rate limit, shared through Redis', () => {
  it.skipIf(!redisUrl)(
    'counts one budget for a key across two processes (two apps, two connections) (needs REDIS_URL)',
    async () => {
      const connect = async () => {
        const redis = new Redis(redisUrl!);
        // Ready before the first request, or the first requests would count in the insurance limiter.
        await redis.ping();
        return redis;
      };
      const keyPrefix = `rate-limit-test:${randomBytes(8).toString('hex')}`;
      const appA = await anApp({ redis: await connect(), keyPrefix });
      const appB = await anApp({ redis: await connect(), keyPrefix });

      expect((await pingTimes(appA, 'shared-key', 120)).every((status) => status === 200)).toBe(true);
      const onB = await pingTimes(appB, 'shared-key', 80);
      expect(onB.every((status) => status === 200)).toBe(true);

      expectTooManyRequests(await ping(appA, 'shared-key'));
      expectTooManyRequests(await ping(appB, 'shared-key'));
      // Another key still has its whole budget.
      const other = await ping(appB, 'other-key');
      expect(other.status).toBe(200);
      expect(other.headers['ratelimit-remaining']).toBe('199');
    },
  );
});

describe('charging more than one point (what a /graphql operation costs)', () => {
  const stores: Array<[string, () => Promise<RateLimiterOptions>]> = [['in memory', async () => ({})]];
  if (redisUrl) {
    stores.push([
      'in Redis',
      async () => {
        const redis = new Redis(redisUrl);
        await redis.ping();
        return { redis, keyPrefix: `rate-limit-test:${randomBytes(8).toString('hex')}` };
      },
    ]);
  }

  it.each(stores)(
    'takes the points from the same budget, and gives them back when refused (%s)',
    async (_, options) => {
      const limiter = createRateLimiter({ ...(await options()), points: 10 });
      limiters.push(limiter);

      const charged = await limiter.charge('key-a', 6);
      expect(charged).toMatchObject({ allowed: true, state: { limit: 10, windowSeconds: 60, remaining: 4 } });
      const refused = await limiter.charge('key-a', 5);
      expect(refused.allowed).toBe(false);
      expect(refused.state.remaining).toBe(4);
      if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      // The refused 5 were given back: 4 are still there.
      expect(await limiter.charge('key-a', 4)).toMatchObject({ allowed: true, state: { remaining: 0 } });
      expect((await limiter.charge('key-a', 1)).allowed).toBe(false);
      expect(await limiter.charge('key-b', 1)).toMatchObject({ allowed: true, state: { remaining: 9 } });
    },
  );
});

afterAll(() => {
  // A reminder in the output when the Redis-backed test did not run.
  if (!redisUrl) console.info('rate limit: the shared-budget test was skipped because REDIS_URL is unset');
});

import { Redis } from 'ioredis';
import type { Logger } from './logger.js';

const REDIS_CONNECT_TIMEOUT_MS = 5_000;
/**
 * A Redis that holds the connection open but does not answer (hung, or a network that drops
 * packets) fails a command after this long, and the rate limit counts in memory for that request
 * (server/rateLimit.ts). Without it, every request would wait on it for as long as it hangs.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

export interface RedisLink {
  redis: Redis;
  /** Whether the shared budget is in use now: false while Redis is away (each process then counts alone). */
  readonly shared: boolean;
}

/**
 * Waits for Redis before serving, so that the first requests count in the shared budget; a Redis
 * that does not answer is logged and the limiter counts in memory meanwhile. ioredis reconnects
 * on its own (backing off up to 2 s); the switch to memory and back is logged once each way,
 * not at every attempt (docs/decisions/026-redis-outage.md).
 */
export async function connectRedis(url: string, logger: Logger): Promise<RedisLink> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  let lostAt: number | null = null;
  let lastError: string | null = null;
  let started = false;
  redis.on('error', (error: Error) => {
    // The same refusal at each reconnection attempt says nothing new.
    if (error.message === lastError) return;
    lastError = error.message;
    logger.warn({ err: error.message }, 'redis error');
  });
  // 'reconnecting' rather than 'close': a connection closed on purpose (quit at shutdown) is not an outage.
  redis.on('reconnecting', () => {
    if (lostAt !== null) return;
    lostAt = Date.now();
    if (started) logger.warn('redis unavailable: each process counts the rate limit on its own until it answers');
  });
  redis.on('ready', () => {
    lastError = null;
    if (lostAt === null) return;
    logger.info({ outageMs: Date.now() - lostAt }, 'redis available again: the rate limit is shared again');
    lostAt = null;
  });
  await redis.connect().catch((error: Error) => {
    lostAt ??= Date.now();
    logger.warn({ err: error.message }, 'redis unreachable at start-up: rate limit counts in memory until it answers');
  });
  started = true;
  return {
    redis,
    get shared() {
      return redis.status === 'ready';
    },
  };
}

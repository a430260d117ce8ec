import type { EntityManager } from '@mikro-orm/core';
import { RequestLogEntry } from './RequestLogEntry.js';

/** How long a recorded request is kept: the console shows the last 7 days. */
export const REQUEST_LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export interface RetentionLimits {
  /** Rows kept per provider at most; the oldest go first. */
  maxRowsPerProvider: number;
}

/**
 * Drops the requests older than 7 days, then, for each provider over its cap, the oldest beyond
 * it (by id: the order they were written in). Plain deletes by bound, so several processes may
 * run it at once on either engine: a row deleted by one is simply not found by the other.
 */
export async function purgeRequestLog(
  em: EntityManager,
  now: Date,
  limits: RetentionLimits,
): Promise<{ expired: number; overCap: number }> {
  const expired = await em.nativeDelete(RequestLogEntry, {
    createdAt: { $lt: new Date(now.getTime() - REQUEST_LOG_RETENTION_MS) },
  });
  const crowded = (await em
    .getConnection()
    .execute('select provider_id from request_log group by provider_id having count(*) > ?', [
      limits.maxRowsPerProvider,
    ])) as { provider_id: number | string }[];
  let overCap = 0;
  for (const { provider_id } of crowded) {
    const providerId = Number(provider_id);
    // The oldest row the cap keeps; every older row of the provider goes.
    const [oldestKept] = await em.find(
      RequestLogEntry,
      { providerId },
      { fields: ['id'], orderBy: { id: 'desc' }, offset: limits.maxRowsPerProvider - 1, limit: 1 },
    );
    if (oldestKept) overCap += await em.nativeDelete(RequestLogEntry, { providerId, id: { $lt: oldestKept.id } });
  }
  return { expired, overCap };
}

import type { EntityManager } from '@mikro-orm/core';
import { asDate } from '../sql/rowValues.js';
import { selectRows } from '../sql/sqlText.js';
import { REQUEST_LOG_BODY_REUSE_MS } from './writer.js';
import { RequestLogBody } from './RequestLogBody.js';
import { RequestLogEntry } from './RequestLogEntry.js';

/** How long a recorded request is kept: the console shows the last 7 days. */
export const REQUEST_LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export interface RetentionLimits {
  /** Rows kept per provider at most; the oldest go first. */
  maxRowsPerProvider: number;
}

/**
 * Drops the requests older than 7 days, then, for each provider over its cap, the oldest beyond
 * it (by id: the order they were written in), and with them the bodies no request kept carries.
 * A body's last-seen time is the newest of the requests that wrote it (statements.mjs); a request
 * that carried it again within REQUEST_LOG_BODY_REUSE_MS of that wrote its key only (writer.ts),
 * so a body last seen more than that before the oldest request kept belongs to none. Plain deletes by bound, so several processes
 * may run it at once on either engine: a row deleted by one is simply not found by the other.
 */
export async function purgeRequestLog(
  em: EntityManager,
  now: Date,
  limits: RetentionLimits,
): Promise<{ expired: number; overCap: number }> {
  const cutoff = new Date(now.getTime() - REQUEST_LOG_RETENTION_MS);
  const expired = await em.nativeDelete(RequestLogEntry, { createdAt: { $lt: cutoff } });
  await em.nativeDelete(RequestLogBody, {
    lastSeenAt: { $lt: new Date(cutoff.getTime() - REQUEST_LOG_BODY_REUSE_MS) },
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
    if (!oldestKept) continue;
    overCap += await em.nativeDelete(RequestLogEntry, { providerId, id: { $lt: oldestKept.id } });
    // Ids follow the order of the writes, times the order of arrival: with several processes, a
    // request kept may have arrived before the oldest by id.
    const [{ earliest }] = await selectRows<{ earliest: string | number | Date | null }>(
      em,
      'select min(created_at) as earliest from request_log where provider_id = ?',
      [providerId],
    );
    if (earliest === null) continue;
    const seenBefore = new Date(asDate(earliest).getTime() - REQUEST_LOG_BODY_REUSE_MS);
    await em.nativeDelete(RequestLogBody, { providerId, lastSeenAt: { $lt: seenBefore } });
  }
  return { expired, overCap };
}

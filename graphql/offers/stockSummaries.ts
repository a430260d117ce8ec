import type { EntityManager } from '@mikro-orm/core';
import { placeholders, selectRows } from '../../platform/sql/sqlText.js';
import { noStocks, type StockSummary } from './status.js';

/**
 * Stock summaries of many offers in one grouped query: a page of 50 events costs one
 * round trip for their statuses, not 50.
 */
export async function stockSummaries(
  em: EntityManager,
  offerIds: number[],
  now: Date,
): Promise<Map<number, StockSummary>> {
  const summaries = new Map<number, StockSummary>();
  if (offerIds.length === 0) return summaries;
  const at = em.getPlatform().processDateProperty(now);
  const open =
    '(booking_limit_datetime is null or booking_limit_datetime > ?) and (beginning_datetime is null or beginning_datetime > ?)';
  const rows = await selectRows<{
    offer_id: number;
    stock_count: number | string;
    open_count: number | string | null;
    open_with_places: number | string | null;
  }>(
    em,
    `select offer_id, count(*) as stock_count, sum(case when ${open} then 1 else 0 end) as open_count, ` +
      `sum(case when ${open} and (quantity is null or quantity > booked_quantity) then 1 else 0 end) as open_with_places ` +
      `from stock where offer_id in (${placeholders(offerIds.length)}) and is_deleted = ? group by offer_id`,
    [at, at, at, at, ...offerIds, false],
  );
  for (const row of rows) {
    summaries.set(Number(row.offer_id), {
      count: Number(row.stock_count),
      open: Number(row.open_count ?? 0),
      openWithPlaces: Number(row.open_with_places ?? 0),
    });
  }
  for (const id of offerIds) if (!summaries.has(id)) summaries.set(id, noStocks);
  return summaries;
}

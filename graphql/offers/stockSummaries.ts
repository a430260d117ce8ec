import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/knex';
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
  const knex = (em as SqlEntityManager).getKnex();
  const at = em.getPlatform().processDateProperty(now);
  const open =
    '(booking_limit_datetime is null or booking_limit_datetime > ?) and (beginning_datetime is null or beginning_datetime > ?)';
  const query = knex('stock')
    .select(
      'offer_id',
      knex.raw('count(*) as stock_count'),
      knex.raw(`sum(case when ${open} then 1 else 0 end) as open_count`, [at, at]),
      knex.raw(
        `sum(case when ${open} and (quantity is null or quantity > booked_quantity) then 1 else 0 end) as open_with_places`,
        [at, at],
      ),
    )
    .whereIn('offer_id', offerIds)
    .andWhere('is_deleted', false)
    .groupBy('offer_id');
  const rows = await (em as SqlEntityManager).getConnection().execute<
    {
      offer_id: number;
      stock_count: number | string;
      open_count: number | string | null;
      open_with_places: number | string | null;
    }[]
  >(query);
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

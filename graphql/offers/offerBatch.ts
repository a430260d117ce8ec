import type { GraphContext } from '../../shared/context.js';
import type { SqlEntityManager } from '@mikro-orm/knex';
import type { PriceCategory } from '../PriceCategory.js';

interface PriceCategoryRow {
  id: number;
  offer_id: number;
  label: string;
  price: number;
  id_at_provider: string | null;
}
import type { StockSummary } from './status.js';
import { stockSummaries } from './stockSummaries.js';

/** A price category as an answer shows it: read as plain rows, since nothing changes them here. */
export type PriceCategoryView = Pick<PriceCategory, 'id' | 'label' | 'price' | 'idAtProvider'>;

interface Batch {
  summaries: Map<number, Promise<StockSummary>>;
  priceCategories: Map<number, Promise<PriceCategoryView[]>>;
}

const batches = new WeakMap<GraphContext, Batch>();

function batchOf(context: GraphContext): Batch {
  let batch = batches.get(context);
  if (!batch) {
    batch = { summaries: new Map(), priceCategories: new Map() };
    batches.set(context, batch);
  }
  return batch;
}

/**
 * Loads, for every offer of an answer at once, what each offer's fields need (stock
 * summaries for the status, price categories): two queries for a page of 50, not 100.
 */
export function primeOffers(context: GraphContext, offerIds: number[]): void {
  const batch = batchOf(context);
  const missing = offerIds.filter((id) => !batch.summaries.has(id));
  if (missing.length === 0) return;
  const summaries = stockSummaries(context.em, missing, context.clock.now());
  // Plain rows, not entities: hydrating 150 price categories cost more than the query.
  const sql = context.em as SqlEntityManager;
  const priceCategories = sql
    .getConnection()
    .execute<PriceCategoryRow[]>(
      sql.getKnex()('price_category').select('id', 'offer_id', 'label', 'price', 'id_at_provider').whereIn('offer_id', missing).orderBy('id'),
    )
    .then((rows) => {
      const byOffer = new Map<number, PriceCategoryView[]>(missing.map((id) => [id, []]));
      for (const row of rows) {
        byOffer.get(Number(row.offer_id))?.push({
          id: Number(row.id),
          label: row.label,
          price: Number(row.price),
          idAtProvider: row.id_at_provider,
        });
      }
      return byOffer;
    });
  for (const id of missing) {
    batch.summaries.set(id, summaries.then((all) => all.get(id)!));
    batch.priceCategories.set(id, priceCategories.then((all) => all.get(id) ?? []));
  }
}

export function stockSummaryOf(context: GraphContext, offerId: number): Promise<StockSummary> {
  primeOffers(context, [offerId]);
  return batchOf(context).summaries.get(offerId)!;
}

export function priceCategoriesOf(context: GraphContext, offerId: number): Promise<PriceCategoryView[]> {
  primeOffers(context, [offerId]);
  return batchOf(context).priceCategories.get(offerId)!;
}

/** After a change, what was loaded before it no longer holds. */
export function forgetOffers(context: GraphContext): void {
  batches.delete(context);
}

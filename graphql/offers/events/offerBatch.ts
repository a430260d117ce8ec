import type { GraphContext } from '../../shared/context.js';
import { PriceCategory } from '../PriceCategory.js';
import type { StockSummary } from './status.js';
import { stockSummaries } from './stockSummaries.js';

interface Batch {
  summaries: Map<number, Promise<StockSummary>>;
  priceCategories: Map<number, Promise<PriceCategory[]>>;
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
  const priceCategories = context.em
    .find(PriceCategory, { offer: { $in: missing } }, { orderBy: { id: 'asc' } })
    .then((rows) => {
      const byOffer = new Map<number, PriceCategory[]>(missing.map((id) => [id, []]));
      for (const row of rows) byOffer.get(row.offer.id)?.push(row);
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

export function priceCategoriesOf(context: GraphContext, offerId: number): Promise<PriceCategory[]> {
  primeOffers(context, [offerId]);
  return batchOf(context).priceCategories.get(offerId)!;
}

/** After a change, what was loaded before it no longer holds. */
export function forgetOffers(context: GraphContext): void {
  batches.delete(context);
}

import type { GraphContext } from '../shared/context.js';
import type { Offer } from './Offer.js';
import type { PriceCategory } from './PriceCategory.js';
import { asDate } from '../../platform/sql/rowValues.js';
import { placeholders, selectRows } from '../../platform/sql/sqlText.js';
import { noStocks, type StockSummary } from './status.js';
import type { Stock } from './Stock.js';
import { stockSummaries } from './stockSummaries.js';

/** A price category as an answer shows it: read as plain rows, since nothing changes them here. */
export type PriceCategoryView = Pick<PriceCategory, 'id' | 'label' | 'price' | 'idAtProvider'>;

/** A product's stock as an answer shows it, read as a plain row likewise. */
export type ProductStockView = Pick<
  Stock,
  | 'id'
  | 'price'
  | 'quantity'
  | 'bookedQuantity'
  | 'bookingLimitDatetime'
  | 'beginningDatetime'
  | 'priceCategory'
  | 'idAtProvider'
>;

type Loaded<T> = Map<number, Promise<T>>;

interface Batch {
  /** The offers of the answer, in the order they were primed. */
  offerIds: number[];
  primed: Set<number>;
  summaries: Loaded<StockSummary>;
  priceCategories: Loaded<PriceCategoryView[]>;
  productStocks: Loaded<ProductStockView | null>;
}

const batches = new WeakMap<GraphContext, Batch>();

function batchOf(context: GraphContext): Batch {
  let batch = batches.get(context);
  if (!batch) {
    batch = {
      offerIds: [],
      primed: new Set(),
      summaries: new Map(),
      priceCategories: new Map(),
      productStocks: new Map(),
    };
    batches.set(context, batch);
  }
  return batch;
}

/**
 * Declares the offers of an answer, so that what their fields need (stock summaries for the
 * status, price categories, a product's stock) is loaded for all of them at once: one query
 * of each kind for a page of 50, not 50 of each, and only for the kinds a field asks for.
 */
export function primeOffers(context: GraphContext, offerIds: number[]): void {
  const batch = batchOf(context);
  for (const id of offerIds) {
    if (batch.primed.has(id)) continue;
    batch.primed.add(id);
    batch.offerIds.push(id);
  }
}

/** The value for one offer; the first request loads it for every primed offer still lacking it. */
function loadFor<T>(
  context: GraphContext,
  offerId: number,
  pick: (batch: Batch) => Loaded<T>,
  load: (offerIds: number[]) => Promise<Map<number, T>>,
  fallback: T,
): Promise<T> {
  primeOffers(context, [offerId]);
  const batch = batchOf(context);
  const loaded = pick(batch);
  if (!loaded.has(offerId)) {
    const waiting = batch.offerIds.filter((id) => !loaded.has(id));
    const all = load(waiting);
    for (const id of waiting)
      loaded.set(
        id,
        all.then((values) => values.get(id) ?? fallback),
      );
  }
  return loaded.get(offerId)!;
}

export function stockSummaryOf(context: GraphContext, offerId: number): Promise<StockSummary> {
  return loadFor(
    context,
    offerId,
    (batch) => batch.summaries,
    (ids) => stockSummaries(context.em, ids, context.clock.now()),
    noStocks,
  );
}

/**
 * What an offer's status needs to know of its stocks. A product has one stock at most: its
 * summary comes from the stock its answer loads anyway, one query fewer per page of products.
 */
export async function statusStocksOf(
  context: GraphContext,
  offer: Pick<Offer, 'id' | 'isEvent'>,
): Promise<StockSummary> {
  if (offer.isEvent) return stockSummaryOf(context, offer.id);
  const stock = await productStockOf(context, offer.id);
  if (!stock) return noStocks;
  const now = context.clock.now().getTime();
  const open = stock.bookingLimitDatetime == null || stock.bookingLimitDatetime.getTime() > now;
  const hasPlaces = stock.quantity == null || stock.quantity > stock.bookedQuantity;
  return { count: 1, open: open ? 1 : 0, openWithPlaces: open && hasPlaces ? 1 : 0 };
}

export function priceCategoriesOf(context: GraphContext, offerId: number): Promise<PriceCategoryView[]> {
  return loadFor(
    context,
    offerId,
    (batch) => batch.priceCategories,
    (ids) => priceCategoryViews(context, ids),
    [],
  );
}

export function productStockOf(context: GraphContext, offerId: number): Promise<ProductStockView | null> {
  return loadFor(
    context,
    offerId,
    (batch) => batch.productStocks,
    (ids) => productStockViews(context, ids),
    null,
  );
}

/** After a change, what was loaded before it no longer holds. */
export function forgetOffers(context: GraphContext): void {
  batches.delete(context);
}

interface PriceCategoryRow {
  id: number;
  offer_id: number;
  label: string;
  price: number;
  id_at_provider: string | null;
}

// Plain rows, not entities: hydrating 150 price categories cost more than the query.
async function priceCategoryViews(
  context: GraphContext,
  offerIds: number[],
): Promise<Map<number, PriceCategoryView[]>> {
  const rows = await selectRows<PriceCategoryRow>(
    context.em,
    `select id, offer_id, label, price, id_at_provider from price_category where offer_id in (${placeholders(offerIds.length)}) order by id`,
    offerIds,
  );
  const byOffer = new Map<number, PriceCategoryView[]>(offerIds.map((id) => [id, []]));
  for (const row of rows) {
    byOffer
      .get(Number(row.offer_id))
      ?.push({ id: Number(row.id), label: row.label, price: Number(row.price), idAtProvider: row.id_at_provider });
  }
  return byOffer;
}

interface ProductStockRow {
  id: number;
  offer_id: number;
  price: number;
  quantity: number | null;
  booked_quantity: number;
  booking_limit_datetime: string | number | Date | null;
}

async function productStockViews(context: GraphContext, offerIds: number[]): Promise<Map<number, ProductStockView>> {
  const rows = await selectRows<ProductStockRow>(
    context.em,
    'select id, offer_id, price, quantity, booked_quantity, booking_limit_datetime from stock ' +
      `where offer_id in (${placeholders(offerIds.length)}) and is_deleted = ? and beginning_datetime is null`,
    [...offerIds, false],
  );
  return new Map(
    rows.map((row) => [
      Number(row.offer_id),
      {
        id: Number(row.id),
        price: Number(row.price),
        quantity: row.quantity == null ? null : Number(row.quantity),
        bookedQuantity: Number(row.booked_quantity),
        bookingLimitDatetime: row.booking_limit_datetime == null ? null : asDate(row.booking_limit_datetime),
        beginningDatetime: null,
        priceCategory: null,
        idAtProvider: null,
      },
    ]),
  );
}

import express from 'express';
import { answeredQuantity } from '../../rest-facade/schemas/quantity.js';
import type { StockSummary } from '../../graphql/offers/status.js';
import type { Runtime } from '../../server/runtime.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';
import { commonOfferAnswer } from './rawOfferAnswer.js';
import { rawCallerOf, refusesIndividualOffers, type Row, rowValues, connectionOf } from './rawSupport.js';

/**
 * The baseline of GET /public/offers/v1/products?limit=50 by hand on bare Express: the key
 * query, then one query for the page of products joined to their stocks (not deleted), from
 * which the stock summaries of the statuses and each product's live stock (no beginning) are
 * taken; through the same connection, the same JSON. No GraphQL, no zod, no limiter.
 */

/** The page as a derived table, so that the limit counts products, not stocks. */
function productsWithStocksSql(byOfferer: boolean): string {
  return `select p.*, s.id as stock_id, s.price as stock_price, s.quantity as stock_quantity,
      s.booked_quantity as stock_booked_quantity, s.booking_limit_datetime as stock_booking_limit_datetime,
      s.beginning_datetime as stock_beginning_datetime
    from (select o.* from offer o join venue v on v.id = o.venue_id
          where o.provider_id = ?${byOfferer ? ' and v.offerer_id = ?' : ''} and o.is_event = ? and o.id >= ?
          order by o.id limit ?) p
    left join stock s on s.offer_id = p.id and s.is_deleted = ?
    order by p.id, s.id`;
}
const withOfferer = productsWithStocksSql(true);
const withoutOfferer = productsWithStocksSql(false);

interface ProductStock {
  price: number;
  quantity: number | null;
  bookedQuantity: number;
  bookingLimit: Date | null;
  beginning: Date | null;
}

export function createRawProductListApp(runtime: Runtime): express.Express {
  const app = express();
  const connection = connectionOf(runtime);
  const values = rowValues(runtime.orm.em.getPlatform());

  app.get(
    '/public/offers/v1/products',
    asyncHandler(async (req, res, next) => {
      try {
        const caller = await rawCallerOf(connection, req, res);
        if (!caller || refusesIndividualOffers(caller, res)) return;
        const firstIndex = Math.max(1, Number(req.query.firstIndex ?? 1));
        const limit = Math.min(Number(req.query.limit ?? 50), 50);
        const rows =
          caller.offererId == null
            ? await connection.execute<Row[]>(withoutOfferer, [caller.providerId, false, firstIndex, limit, false])
            : await connection.execute<Row[]>(withOfferer, [
                caller.providerId,
                caller.offererId,
                false,
                firstIndex,
                limit,
                false,
              ]);

        // One row per (product, stock), in product order: group them back.
        const products: { row: Row; stocks: ProductStock[] }[] = [];
        for (const row of rows) {
          let current = products[products.length - 1];
          if (!current || Number(current.row.id) !== Number(row.id)) {
            current = { row, stocks: [] };
            products.push(current);
          }
          if (row.stock_id != null) {
            current.stocks.push({
              price: Number(row.stock_price),
              quantity: row.stock_quantity == null ? null : Number(row.stock_quantity),
              bookedQuantity: Number(row.stock_booked_quantity),
              bookingLimit: values.dateOrNull(row.stock_booking_limit_datetime),
              beginning: values.dateOrNull(row.stock_beginning_datetime),
            });
          }
        }

        const now = runtime.clock.now().getTime();
        res.json({
          products: products.map(({ row: product, stocks }) => {
            const summary: StockSummary = { count: stocks.length, open: 0, openWithPlaces: 0 };
            let live: ProductStock | null = null;
            for (const stock of stocks) {
              const open =
                (stock.bookingLimit == null || stock.bookingLimit.getTime() > now) &&
                (stock.beginning == null || stock.beginning.getTime() > now);
              if (open) summary.open += 1;
              if (open && (stock.quantity == null || stock.quantity > stock.bookedQuantity))
                summary.openWithPlaces += 1;
              if (stock.beginning == null) live = stock;
            }
            return {
              ...commonOfferAnswer(product, summary, values, runtime.services.images),
              stock: live && {
                bookedQuantity: live.bookedQuantity,
                bookingLimitDatetime: live.bookingLimit?.toISOString() ?? null,
                price: live.price,
                // The stored total, booked items included, as the facade answers it since issue 35.
                quantity: answeredQuantity(live.quantity),
              },
            };
          }),
        });
      } catch (error) {
        next(error);
      }
    }),
  );
  return app;
}

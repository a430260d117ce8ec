import express from 'express';
import { remainingQuantity } from '../../graphql/offers/dates/rules.js';
import { offerStatus, type StockSummary } from '../../graphql/offers/status.js';
import { parseApiKey, secretMatches } from '../../graphql/providers/apiKeys.js';
import type { Runtime } from '../../server/runtime.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';

/**
 * The baseline of GET /public/offers/v1/products?limit=50 by hand on bare Express: the key
 * query, then one query for the page of products joined to their stocks (not deleted), from
 * which the stock summaries of the statuses and each product's live stock (no beginning) are
 * taken; through the same connection, the same JSON. No GraphQL, no zod, no limiter.
 */
const keySql = `select k.secret_hash, k.revoked_at, k.offerer_id, p.id as provider_id, p.is_active, p.can_manage_individual_offers
  from api_key k join provider p on p.id = k.provider_id where k.prefix = ?`;

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

type Row = Record<string, unknown>;

/** Dates of raw rows: the PostgreSQL driver gives Date objects, libSQL epoch milliseconds or text. */
function asDate(value: unknown): Date {
  if (value instanceof Date) return value;
  return new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string | number));
}
const dateOrNull = (value: unknown) => (value == null ? null : asDate(value));
const iso = (value: unknown) => (value == null ? null : asDate(value).toISOString());
const flag = (value: unknown) => Boolean(value);

interface ProductStock {
  price: number;
  quantity: number | null;
  bookedQuantity: number;
  bookingLimit: Date | null;
  beginning: Date | null;
}

function locationOf(product: Row) {
  const venueId = Number(product.venue_id);
  if (product.location_type === 'digital')
    return { type: 'digital', venueId, url: (product.url as string | null) ?? '' };
  if (product.location_type === 'address') {
    return {
      type: 'address',
      venueId,
      addressId: product.address_id == null ? 0 : Number(product.address_id),
      addressLabel: product.address_label ?? null,
    };
  }
  return { type: 'physical', venueId };
}

export function createRawProductListApp(runtime: Runtime): express.Express {
  const app = express();
  const connection = runtime.orm.em.getConnection();
  const images = runtime.services.images;

  app.get(
    '/public/offers/v1/products',
    asyncHandler(async (req, res, next) => {
      try {
        const [scheme, token] = (req.get('authorization') ?? '').split(' ');
        const parsed = scheme === 'Bearer' && token ? parseApiKey(token) : null;
        const [key] = parsed ? await connection.execute<Row[]>(keySql, [parsed.prefix]) : [];
        if (!parsed || !key || key.revoked_at != null || !secretMatches(parsed.secret, String(key.secret_hash))) {
          res.status(401).json({ auth: 'API key required' });
          return;
        }
        if (!key.is_active || !key.can_manage_individual_offers) {
          const reason = key.is_active
            ? 'Your provider is not allowed to manage individual offers'
            : 'This provider is inactive';
          res.status(403).json({ global: [reason] });
          return;
        }
        const limit = Math.min(Number(req.query.limit ?? 50), 50);
        const rows =
          key.offerer_id == null
            ? await connection.execute<Row[]>(withoutOfferer, [key.provider_id, false, 1, limit, false])
            : await connection.execute<Row[]>(withOfferer, [key.provider_id, key.offerer_id, false, 1, limit, false]);

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
              bookingLimit: dateOrNull(row.stock_booking_limit_datetime),
              beginning: dateOrNull(row.stock_beginning_datetime),
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
            const fields =
              typeof product.category_related_fields === 'string'
                ? JSON.parse(product.category_related_fields)
                : product.category_related_fields;
            return {
              id: Number(product.id),
              name: product.name,
              status: offerStatus(
                {
                  validation: product.validation as 'APPROVED',
                  isActive: flag(product.is_active),
                  publicationDatetime: dateOrNull(product.publication_datetime),
                  publishedAt: dateOrNull(product.published_at),
                  bookingOpenedAt: dateOrNull(product.booking_opened_at),
                },
                summary,
              ),
              accessibility: {
                audioDisabilityCompliant: flag(product.audio_disability_compliant),
                mentalDisabilityCompliant: flag(product.mental_disability_compliant),
                motorDisabilityCompliant: flag(product.motor_disability_compliant),
                visualDisabilityCompliant: flag(product.visual_disability_compliant),
              },
              bookingAllowedDatetime: iso(product.booking_allowed_datetime),
              bookingContact: product.booking_contact,
              bookingEmail: product.booking_email,
              categoryRelatedFields: { category: product.category, ...fields },
              description: product.description,
              enableDoubleBookings: flag(product.enable_double_bookings),
              externalTicketOfficeUrl: product.external_ticket_office_url,
              idAtProvider: product.id_at_provider,
              image: product.image_key
                ? { url: images.urlOf(product.image_key as string), credit: product.image_credit ?? null }
                : null,
              itemCollectionDetails: product.item_collection_details,
              location: locationOf(product),
              publicationDatetime: iso(product.publication_datetime),
              stock: live && {
                price: live.price,
                bookedQuantity: live.bookedQuantity,
                bookingLimitDatetime: live.bookingLimit?.toISOString() ?? null,
                quantity: remainingQuantity(live),
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

import express from 'express';
import { offerStatus, type StockSummary } from '../../graphql/offers/status.js';
import { parseApiKey, secretMatches } from '../../graphql/providers/apiKeys.js';
import type { Runtime } from '../../server/runtime.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';

/**
 * The baseline of GET /public/offers/v1/events?limit=50 by hand on bare Express: the key
 * query, then one query each for the page of events, their price categories and their stock
 * summaries, through the same connection; the same JSON. No GraphQL, no zod, no limiter.
 */
const keySql = `select k.secret_hash, k.revoked_at, k.offerer_id, p.id as provider_id, p.is_active, p.can_manage_individual_offers
  from api_key k join provider p on p.id = k.provider_id where k.prefix = ?`;
const eventsSql = `select o.* from offer o join venue v on v.id = o.venue_id
  where o.provider_id = ? and v.offerer_id = ? and o.is_event = ? and o.id >= ? order by o.id limit ?`;

type Row = Record<string, unknown>;
const iso = (value: unknown) => (value == null ? null : new Date(value as string | number).toISOString());
const flag = (value: unknown) => Boolean(value);

export function createRawEventListApp(runtime: Runtime): express.Express {
  const app = express();
  const connection = runtime.orm.em.getConnection();
  const platform = runtime.orm.em.getPlatform();

  app.get(
    '/public/offers/v1/events',
    asyncHandler(async (req, res, next) => {
      try {
        const [scheme, token] = (req.get('authorization') ?? '').split(' ');
        const parsed = scheme === 'Bearer' && token ? parseApiKey(token) : null;
        const [key] = parsed ? await connection.execute<Row[]>(keySql, [parsed.prefix]) : [];
        if (!parsed || !key || key.revoked_at != null || !secretMatches(parsed.secret, String(key.secret_hash))) {
          res.status(401).json({ auth: 'API key required' });
          return;
        }
        const limit = Math.min(Number(req.query.limit ?? 50), 50);
        const events = await connection.execute<Row[]>(eventsSql, [key.provider_id, key.offerer_id, true, 1, limit]);
        const ids = events.map((event: Row) => Number(event.id));
        const marks = ids.map(() => '?').join(',') || 'null';
        const now = platform.processDateProperty(runtime.clock.now());
        const [priceCategories, summaries] = await Promise.all([
          connection.execute<Row[]>(`select * from price_category where offer_id in (${marks}) order by id`, ids),
          connection.execute<Row[]>(
            `select offer_id, count(*) as stock_count,
             sum(case when (booking_limit_datetime is null or booking_limit_datetime > ?) and (beginning_datetime is null or beginning_datetime > ?) then 1 else 0 end) as open_count,
             sum(case when (booking_limit_datetime is null or booking_limit_datetime > ?) and (beginning_datetime is null or beginning_datetime > ?) and (quantity is null or quantity > booked_quantity) then 1 else 0 end) as open_with_places
           from stock where offer_id in (${marks}) and is_deleted = ? group by offer_id`,
            [now, now, now, now, ...ids, false],
          ),
        ]);
        const summaryOf = new Map<number, StockSummary>(
          summaries.map((row: Row) => [
            Number(row.offer_id),
            {
              count: Number(row.stock_count),
              open: Number(row.open_count),
              openWithPlaces: Number(row.open_with_places),
            },
          ]),
        );
        res.json({
          events: events.map((event: Row) => {
            const categoryFields =
              typeof event.category_related_fields === 'string'
                ? JSON.parse(event.category_related_fields)
                : event.category_related_fields;
            return {
              id: Number(event.id),
              name: event.name,
              status: offerStatus(
                {
                  validation: event.validation as 'APPROVED',
                  isActive: flag(event.is_active),
                  publicationDatetime:
                    event.publication_datetime == null ? null : new Date(event.publication_datetime as string),
                  publishedAt: event.published_at == null ? null : new Date(event.published_at as string),
                  bookingOpenedAt: event.booking_opened_at == null ? null : new Date(event.booking_opened_at as string),
                },
                summaryOf.get(Number(event.id)) ?? { count: 0, open: 0, openWithPlaces: 0 },
              ),
              accessibility: {
                audioDisabilityCompliant: flag(event.audio_disability_compliant),
                mentalDisabilityCompliant: flag(event.mental_disability_compliant),
                motorDisabilityCompliant: flag(event.motor_disability_compliant),
                visualDisabilityCompliant: flag(event.visual_disability_compliant),
              },
              bookingAllowedDatetime: iso(event.booking_allowed_datetime),
              bookingContact: event.booking_contact,
              bookingEmail: event.booking_email,
              categoryRelatedFields: { category: event.category, ...categoryFields },
              description: event.description,
              enableDoubleBookings: flag(event.enable_double_bookings),
              eventDuration: event.event_duration,
              externalTicketOfficeUrl: event.external_ticket_office_url,
              hasTicket: flag(event.has_ticket),
              idAtProvider: event.id_at_provider,
              image: null,
              itemCollectionDetails: event.item_collection_details,
              location: { type: 'physical', venueId: Number(event.venue_id) },
              priceCategories: priceCategories
                .filter((category: Row) => Number(category.offer_id) === Number(event.id))
                .map((category: Row) => ({
                  id: Number(category.id),
                  label: category.label,
                  price: Number(category.price),
                  idAtProvider: category.id_at_provider,
                })),
              publicationDate: iso(event.publication_datetime),
              publicationDatetime: iso(event.publication_datetime),
              videoUrl: event.video_url,
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

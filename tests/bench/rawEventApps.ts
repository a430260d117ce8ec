import express from 'express';
import { NotFoundError } from '../../graphql/shared/errors.js';
import type { Runtime } from '../../server/runtime.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';
import { eventAnswer, priceCategoryOf, stockSummariesSql, stockSummaryOf } from './rawOfferAnswer.js';
import {
  type Connection,
  placeholders,
  rawCallerOf,
  type RawCaller,
  refuse,
  refusesIndividualOffers,
  type Row,
  rowValues,
  connectionOf,
} from './rawSupport.js';

/**
 * The baselines of GET /public/offers/v1/events?limit=50 and GET /public/offers/v1/events/{id}
 * by hand on bare Express: the key query, the events (a page, or one, scoped to the key's
 * provider and offerer), then their price categories and their stock summaries, one query each,
 * through the same connection; the same JSON. No GraphQL, no zod, no limiter, no entities.
 */

function eventsSql(caller: RawCaller, where: string): string {
  return (
    'select o.* from offer o join venue v on v.id = o.venue_id ' +
    `where o.provider_id = ?${caller.offererId == null ? '' : ' and v.offerer_id = ?'} and o.is_event = ? and ${where}`
  );
}

function scope(caller: RawCaller): unknown[] {
  return caller.offererId == null ? [caller.providerId] : [caller.providerId, caller.offererId];
}

/** The events' answers: their price categories and stock summaries, one query each. */
async function answersOf(runtime: Runtime, connection: Connection, events: Row[]) {
  const ids = events.map((event) => Number(event.id));
  const platform = runtime.orm.em.getPlatform();
  const now = platform.processDateProperty(runtime.clock.now());
  const [categories, summaries]: Row[][] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          connection.execute<Row[]>(
            `select id, offer_id, label, price, id_at_provider from price_category where offer_id in (${placeholders(ids)}) order by id`,
            ids,
          ),
          connection.execute<Row[]>(stockSummariesSql(ids), [now, now, now, now, ...ids, false]),
        ]);
  const summaryOf = new Map(summaries.map((row) => [Number(row.offer_id), row]));
  const values = rowValues(platform);
  return events.map((event) => {
    const id = Number(event.id);
    return eventAnswer(
      event,
      categories.filter((category) => Number(category.offer_id) === id).map(priceCategoryOf),
      stockSummaryOf(summaryOf.get(id)),
      values,
      runtime.services.images,
    );
  });
}

export function createRawEventListApp(runtime: Runtime): express.Express {
  const app = express();
  const connection = connectionOf(runtime);
  app.get(
    '/public/offers/v1/events',
    asyncHandler(async (req, res, next) => {
      try {
        const caller = await rawCallerOf(connection, req, res);
        if (!caller || refusesIndividualOffers(caller, res)) return;
        const firstIndex = Math.max(1, Number(req.query.firstIndex ?? 1));
        const limit = Math.min(Number(req.query.limit ?? 50), 50);
        const events = await connection.execute<Row[]>(`${eventsSql(caller, 'o.id >= ?')} order by o.id limit ?`, [
          ...scope(caller),
          true,
          firstIndex,
          limit,
        ]);
        res.json({ events: await answersOf(runtime, connection, events) });
      } catch (error) {
        next(error);
      }
    }),
  );
  return app;
}

export function createRawEventApp(runtime: Runtime): express.Express {
  const app = express();
  const connection = connectionOf(runtime);
  app.get(
    '/public/offers/v1/events/:eventId',
    asyncHandler(async (req, res, next) => {
      try {
        const caller = await rawCallerOf(connection, req, res);
        if (!caller || refusesIndividualOffers(caller, res)) return;
        const events = await connection.execute<Row[]>(eventsSql(caller, 'o.id = ?'), [
          ...scope(caller),
          true,
          Number(req.params.eventId),
        ]);
        if (events.length === 0) {
          refuse(res, new NotFoundError('Event offer not found'));
          return;
        }
        const [answer] = await answersOf(runtime, connection, events);
        res.json(answer);
      } catch (error) {
        next(error);
      }
    }),
  );
  return app;
}

import express from 'express';
import type {
  CollectiveBookingStatus,
  CollectiveCancellationReason,
} from '../../graphql/collective/CollectiveBooking.js';
import type { CollectiveValidation } from '../../graphql/collective/CollectiveOffer.js';
import {
  collectiveDisplayedStatus,
  collectiveLegacyStatus,
  lastBookingOf,
} from '../../graphql/collective/displayedStatus.js';
import type { Runtime } from '../../server/runtime.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';
import {
  type Connection,
  flag,
  placeholders,
  rawCallerOf,
  type Row,
  rowValues,
  type RowValues,
  connectionOf,
} from './rawSupport.js';

/**
 * The baseline of GET /v2/collective/offers/ (no filter) by hand on bare Express: the key query;
 * the offers (only the columns the answer and the status need), then the bookings of those
 * offers; the displayed and deprecated statuses by the same functions as the graph; through the
 * same connection, the same JSON. No GraphQL, no zod, no limiter, no entity hydration.
 */

const listColumns =
  'o.id, o.venue_id, o.validation, o.is_active, o.archived_at, o.start_datetime, o.end_datetime, o.booking_limit_datetime';
const listSql = `select ${listColumns} from collective_offer o where o.provider_id = ? order by o.id`;
const listOfOffererSql =
  `select ${listColumns} from collective_offer o join venue v on v.id = o.venue_id ` +
  'where o.provider_id = ? and v.offerer_id = ? order by o.id';

const bookingColumns =
  'id, offer_id, status, cancellation_reason, date_created, confirmation_date, date_used, reimbursement_date, cancellation_limit_date';

interface RawBooking {
  id: number;
  status: CollectiveBookingStatus;
  cancellationReason: CollectiveCancellationReason | null;
  answer: {
    id: number;
    status: CollectiveBookingStatus;
    dateCreated: string | null;
    confirmationDate: string | null;
    dateUsed: string | null;
    reimbursementDate: string | null;
    cancellationLimitDate: string | null;
  };
}

/** The bookings of these offers, by offer, in id order. */
async function bookingsOf(connection: Connection, values: RowValues, offerIds: number[]) {
  const byOffer = new Map<number, RawBooking[]>();
  if (offerIds.length === 0) return byOffer;
  const sql = `select ${bookingColumns} from collective_booking where offer_id in (${placeholders(offerIds)}) order by id`;
  for (const row of await connection.execute<Row[]>(sql, offerIds)) {
    const offerId = Number(row.offer_id);
    let list = byOffer.get(offerId);
    if (!list) byOffer.set(offerId, (list = []));
    const status = row.status as CollectiveBookingStatus;
    list.push({
      id: Number(row.id),
      status,
      cancellationReason: (row.cancellation_reason as CollectiveCancellationReason | null) ?? null,
      answer: {
        id: Number(row.id),
        status,
        dateCreated: values.iso(row.date_created),
        confirmationDate: values.iso(row.confirmation_date),
        dateUsed: values.iso(row.date_used),
        reimbursementDate: values.iso(row.reimbursement_date),
        cancellationLimitDate: values.iso(row.cancellation_limit_date),
      },
    });
  }
  return byOffer;
}

/** The displayed status from the offer's row and its bookings, as the graph derives it. */
function displayedStatusOf(offer: Row, bookings: RawBooking[], values: RowValues, now: Date) {
  return collectiveDisplayedStatus(
    {
      archivedAt: values.dateOrNull(offer.archived_at),
      validation: offer.validation as CollectiveValidation,
      isActive: flag(offer.is_active),
      startDatetime: values.date(offer.start_datetime),
      endDatetime: values.date(offer.end_datetime),
      bookingLimitDatetime: values.date(offer.booking_limit_datetime),
    },
    lastBookingOf(bookings),
    now,
  );
}

export function createRawCollectiveListApp(runtime: Runtime): express.Express {
  const app = express();
  const connection = connectionOf(runtime);
  const values = rowValues(runtime.orm.em.getPlatform());
  app.get(
    '/v2/collective/offers/',
    asyncHandler(async (req, res, next) => {
      try {
        const caller = await rawCallerOf(connection, req, res);
        if (!caller) return;
        const offers =
          caller.offererId == null
            ? await connection.execute<Row[]>(listSql, [caller.providerId])
            : await connection.execute<Row[]>(listOfOffererSql, [caller.providerId, caller.offererId]);
        const bookings = await bookingsOf(
          connection,
          values,
          offers.map((offer) => Number(offer.id)),
        );
        const now = runtime.clock.now();
        res.json(
          offers.map((offer) => {
            const mine = bookings.get(Number(offer.id)) ?? [];
            const displayed = displayedStatusOf(offer, mine, values, now);
            return {
              id: Number(offer.id),
              status: collectiveLegacyStatus(displayed),
              offerStatus: displayed,
              venueId: Number(offer.venue_id),
              startDatetime: values.iso(offer.start_datetime),
              endDatetime: values.iso(offer.end_datetime),
              bookings: mine.map((booking) => booking.answer),
            };
          }),
        );
      } catch (error) {
        next(error);
      }
    }),
  );
  return app;
}

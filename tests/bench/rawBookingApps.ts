import express from 'express';
import type { Booking } from '../../graphql/bookings/Booking.js';
import { checkMove } from '../../graphql/bookings/bookingTransitions.js';
import { DomainError, NotFoundError } from '../../graphql/shared/errors.js';
import type { Runtime } from '../../server/runtime.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';
import {
  rawCallerOf,
  type RawCaller,
  refuse,
  refusesIndividualOffers,
  type Row,
  rowValues,
  connectionOf,
} from './rawSupport.js';

/**
 * The baselines of GET /public/bookings/v1/bookings?offerId=...&limit=50 and GET
 * /public/bookings/v1/token/{token} by hand on bare Express: the key query; for the page, the
 * offer in the key's scope, then the page of bookings with their offer, stock, price category,
 * venue, address and beneficiary in one query; for the countermark, that one query alone, scoped
 * to the key, and the validation's checks on its status (checkMove, as the graph). Through the
 * same connection; the same JSON. No GraphQL, no zod, no limiter, no entities.
 */

const bookingViewSql = `select b.id, b.token, b.status, b.quantity, b.amount, b.creation_date, b.cancellation_limit_date,
    b.offer_id, b.stock_id, o.name as offer_name, o.ean as offer_ean, o.venue_id, s.price_category_id,
    pc.label as price_category_label, v.public_name, v.legal_name,
    coalesce(oa.street, va.street) as street, coalesce(oa.city, va.city) as city,
    coalesce(oa.postal_code, va.postal_code) as address_postal_code,
    coalesce(oa.department_code, va.department_code) as department_code,
    be.email, be.first_name, be.last_name, be.birth_date, be.phone_number, be.postal_code as user_postal_code
  from booking b
  join stock s on s.id = b.stock_id
  left join price_category pc on pc.id = s.price_category_id
  join offer o on o.id = b.offer_id
  join venue v on v.id = o.venue_id
  left join address oa on oa.id = o.address_id
  left join address va on va.id = v.address_id
  join beneficiary be on be.id = b.beneficiary_id`;

const pageSql = `${bookingViewSql} where b.offer_id = ? and b.id >= ? order by b.id limit ?`;

function offerInScopeSql(caller: RawCaller): string {
  return `select o.id from offer o join venue v on v.id = o.venue_id where o.id = ? and o.provider_id = ?${
    caller.offererId == null ? '' : ' and v.offerer_id = ?'
  }`;
}

function tokenSql(caller: RawCaller): string {
  return `${bookingViewSql} where b.token = ? and o.provider_id = ?${caller.offererId == null ? '' : ' and v.offerer_id = ?'}`;
}

function scope(caller: RawCaller): unknown[] {
  return caller.offererId == null ? [caller.providerId] : [caller.providerId, caller.offererId];
}

/** A booking as GetBookingResponse shows it, in the facade's order (rest-facade/bookings/routes.ts). */
function bookingAnswer(row: Row, values: ReturnType<typeof rowValues>) {
  const street = row.street as string | null;
  const city = row.city as string | null;
  const postalCode = row.address_postal_code as string | null;
  return {
    id: Number(row.id),
    status: row.status,
    quantity: Number(row.quantity),
    price: Number(row.amount),
    creationDate: values.iso(row.creation_date),
    confirmationDate: values.iso(row.cancellation_limit_date),
    offerId: Number(row.offer_id),
    offerName: row.offer_name,
    offerEan: row.offer_ean,
    offerAddress: city ? [street, `${postalCode ?? ''} ${city}`.trim()].filter(Boolean).join(', ') : null,
    offerDepartmentCode: row.department_code,
    stockId: Number(row.stock_id),
    priceCategoryId: row.price_category_id == null ? null : Number(row.price_category_id),
    priceCategoryLabel: row.price_category_label,
    venueId: Number(row.venue_id),
    venueName: row.public_name ?? row.legal_name,
    userEmail: row.email,
    userFirstName: row.first_name,
    userLastName: row.last_name,
    userBirthDate: row.birth_date,
    userPhoneNumber: row.phone_number,
    userPostalCode: row.user_postal_code,
  };
}

export function createRawBookingListApp(runtime: Runtime): express.Express {
  const app = express();
  const connection = connectionOf(runtime);
  const values = rowValues(runtime.orm.em.getPlatform());
  app.get(
    '/public/bookings/v1/bookings',
    asyncHandler(async (req, res, next) => {
      try {
        const caller = await rawCallerOf(connection, req, res);
        if (!caller || refusesIndividualOffers(caller, res)) return;
        const offerId = Number(req.query.offerId);
        const [offer] = await connection.execute<Row[]>(offerInScopeSql(caller), [offerId, ...scope(caller)]);
        if (!offer) {
          refuse(res, new NotFoundError('Offer not found'));
          return;
        }
        const firstIndex = Math.max(1, Number(req.query.firstIndex ?? 1));
        const limit = Math.min(Number(req.query.limit ?? 50), 50);
        const rows = await connection.execute<Row[]>(pageSql, [offerId, firstIndex, limit]);
        res.json({ bookings: rows.map((row) => bookingAnswer(row, values)) });
      } catch (error) {
        next(error);
      }
    }),
  );
  return app;
}

export function createRawBookingByTokenApp(runtime: Runtime): express.Express {
  const app = express();
  const connection = connectionOf(runtime);
  const values = rowValues(runtime.orm.em.getPlatform());
  app.get(
    '/public/bookings/v1/token/:token',
    asyncHandler(async (req, res, next) => {
      try {
        const caller = await rawCallerOf(connection, req, res);
        if (!caller) return;
        const [row] = await connection.execute<Row[]>(tokenSql(caller), [
          req.params.token.toUpperCase(),
          ...scope(caller),
        ]);
        if (!row) {
          refuse(res, new NotFoundError('This countermark matches none of your bookings'));
          return;
        }
        try {
          // What checkMove reads of a booking to refuse a validation: its status and cancellation limit.
          const booking = {
            status: row.status,
            cancellationLimitDate: values.dateOrNull(row.cancellation_limit_date),
          } as unknown as Booking;
          checkMove(booking, 'use', runtime.clock.now());
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          refuse(res, error);
          return;
        }
        res.json(bookingAnswer(row, values));
      } catch (error) {
        next(error);
      }
    }),
  );
  return app;
}

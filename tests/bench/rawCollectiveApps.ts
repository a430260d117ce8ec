import express from 'express';
import type {
  CollectiveBookingStatus,
  CollectiveCancellationReason,
} from '../../graphql/collective/CollectiveBooking.js';
import type { CollectiveOffer, CollectiveValidation } from '../../graphql/collective/CollectiveOffer.js';
import {
  collectiveDisplayedStatus,
  collectiveLegacyStatus,
  lastBookingOf,
} from '../../graphql/collective/displayedStatus.js';
import { locationOf, offerVenueOf } from '../../graphql/collective/views.js';
import { ForbiddenError, NotFoundError } from '../../graphql/shared/errors.js';
import type { Runtime } from '../../server/runtime.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';
import {
  type Connection,
  flag,
  jsonColumn,
  placeholders,
  rawCallerOf,
  refuse,
  type Row,
  rowValues,
  type RowValues,
  connectionOf,
} from './rawSupport.js';

/**
 * The baselines of GET /v2/collective/offers/ (no filter) and GET /v2/collective/offers/{id} by
 * hand on bare Express: the key query; the offers (the list: only the columns its answer and
 * the status need; one offer: with its venue's offerer, institution, programme and address
 * joined), then the bookings of those offers; the displayed, deprecated statuses, location and
 * offerVenue by the same functions as the graph; through the same connection, the same JSON. No
 * GraphQL, no zod, no limiter, no entity hydration.
 */

const listColumns =
  'o.id, o.venue_id, o.validation, o.is_active, o.archived_at, o.start_datetime, o.end_datetime, o.booking_limit_datetime';
const listSql = `select ${listColumns} from collective_offer o where o.provider_id = ? order by o.id`;
const listOfOffererSql =
  `select ${listColumns} from collective_offer o join venue v on v.id = o.venue_id ` +
  'where o.provider_id = ? and v.offerer_id = ? order by o.id';

const offerSql = `select o.*, v.offerer_id, i.uai as institution_uai, np.name as national_program_name,
    a.street as address_street, a.postal_code as address_postal_code, a.city as address_city
  from collective_offer o
  join venue v on v.id = o.venue_id
  left join educational_institution i on i.id = o.institution_id
  left join national_program np on np.id = o.national_program_id
  left join address a on a.id = o.address_id
  where o.id = ?`;

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

/** The location as the contract shows it (rest-facade/collectiveOffers/response.ts). */
function locationAnswer(location: ReturnType<typeof locationOf>) {
  switch (location.type) {
    case 'ADDRESS':
      return location.isVenueAddress
        ? { type: 'ADDRESS', isVenueAddress: true }
        : {
            type: 'ADDRESS',
            isVenueAddress: false,
            addressId: location.addressId ?? 0,
            addressLabel: location.addressLabel,
          };
    case 'TO_BE_DEFINED':
      return { type: 'TO_BE_DEFINED', comment: location.comment };
    default:
      return { type: location.type };
  }
}

export function createRawCollectiveOfferApp(runtime: Runtime): express.Express {
  const app = express();
  const connection = connectionOf(runtime);
  const values = rowValues(runtime.orm.em.getPlatform());
  const images = runtime.services.images;
  app.get(
    '/v2/collective/offers/:offerId',
    asyncHandler(async (req, res, next) => {
      try {
        const caller = await rawCallerOf(connection, req, res);
        if (!caller) return;
        const [offer] = await connection.execute<Row[]>(offerSql, [Number(req.params.offerId)]);
        if (!offer) {
          refuse(res, new NotFoundError('Collective offer not found'));
          return;
        }
        if (
          Number(offer.provider_id) !== caller.providerId ||
          (caller.offererId != null && Number(offer.offerer_id) !== caller.offererId)
        ) {
          refuse(res, new ForbiddenError('You are not allowed to access this collective offer'));
          return;
        }
        const id = Number(offer.id);
        const bookings = (await bookingsOf(connection, values, [id])).get(id) ?? [];
        const now = runtime.clock.now();
        const displayed = displayedStatusOf(offer, bookings, values, now);
        // What locationOf and offerVenueOf read of an offer, from the row and its joined address.
        const place = {
          locationType: offer.location_type,
          atVenueAddress: flag(offer.at_venue_address),
          addressLabel: offer.address_label ?? null,
          locationComment: offer.location_comment ?? null,
          venue: { id: Number(offer.venue_id) },
          address:
            offer.address_id == null
              ? null
              : {
                  id: Number(offer.address_id),
                  street: offer.address_street,
                  postalCode: offer.address_postal_code,
                  city: offer.address_city,
                },
        } as unknown as CollectiveOffer;
        const bookingLimit = values.date(offer.booking_limit_datetime);
        res.json({
          id,
          status: collectiveLegacyStatus(displayed),
          offerStatus: displayed,
          venueId: Number(offer.venue_id),
          startDatetime: values.iso(offer.start_datetime),
          endDatetime: values.iso(offer.end_datetime),
          bookings: bookings.map((booking) => booking.answer),
          audioDisabilityCompliant: flag(offer.audio_disability_compliant),
          mentalDisabilityCompliant: flag(offer.mental_disability_compliant),
          motorDisabilityCompliant: flag(offer.motor_disability_compliant),
          visualDisabilityCompliant: flag(offer.visual_disability_compliant),
          bookingEmails: jsonColumn<string[]>(offer.booking_emails),
          bookingLimitDatetime: bookingLimit.toISOString(),
          contactEmail: offer.contact_email,
          contactPhone: offer.contact_phone,
          dateCreated: values.iso(offer.date_created),
          description: offer.description,
          domains: jsonColumn<number[]>(offer.domains),
          durationMinutes: offer.duration_minutes == null ? null : Number(offer.duration_minutes),
          educationalInstitution: offer.institution_uai ?? null,
          educationalInstitutionId: offer.institution_id == null ? null : Number(offer.institution_id),
          educationalPriceDetail: offer.price_detail ?? null,
          formats: jsonColumn<string[]>(offer.formats),
          hasBookingLimitDatetimesPassed: now.getTime() > bookingLimit.getTime(),
          imageCredit: offer.image_credit ?? null,
          imageUrl: offer.image_key ? images.urlOf(offer.image_key as string) : null,
          interventionArea: jsonColumn<string[]>(offer.intervention_area),
          isActive: flag(offer.is_active),
          isSoldOut: bookings.some((booking) => booking.status !== 'CANCELLED'),
          location: locationAnswer(locationOf(place)),
          name: offer.name,
          nationalProgram:
            offer.national_program_id == null
              ? null
              : { id: Number(offer.national_program_id), name: offer.national_program_name },
          numberOfTickets: Number(offer.number_of_tickets),
          offerVenue: offerVenueOf(place),
          students: jsonColumn<string[]>(offer.students),
          totalPrice: Number(offer.total_price_cents) / 100,
        });
      } catch (error) {
        next(error);
      }
    }),
  );
  return app;
}

import type { EntityManager } from '@mikro-orm/core';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import express from 'express';
import {
  CollectiveBooking,
  type CollectiveBookingStatus,
  type CollectiveCancellationReason,
} from '../../graphql/collective/CollectiveBooking.js';
import { CollectiveOffer, type CollectiveValidation } from '../../graphql/collective/CollectiveOffer.js';
import {
  collectiveDisplayedStatus,
  collectiveLegacyStatus,
  lastBookingOf,
} from '../../graphql/collective/displayedStatus.js';
import { EAC_FORMATS } from '../../graphql/collective/formats.js';
import { cancellationLimitFor } from '../../graphql/collective/bookingRules.js';
import { educationalDomains, studentLevels } from '../../graphql/collective/reference/educationalData.js';
import { EducationalInstitution, NationalProgram } from '../../graphql/collective/reference/entities.js';
import { educationalInstitutions } from '../../graphql/collective/reference/institutionData.js';
import { parseApiKey, secretMatches } from '../../graphql/providers/apiKeys.js';
import { createApp } from '../../server/app.js';
import type { Runtime } from '../../server/runtime.js';
import type { EventListOptions } from './eventList.js';
import { compare, load, table } from './measure.js';
import { listen, verifySameAnswers } from './servers.js';
import type { BenchTarget } from './target.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';

/** Collective offers of the sandbox provider, all listed by one GET. */
export const COLLECTIVE_OFFERS = 300;
/** Every other offer has one booking, PENDING and CONFIRMED in turn. */
export const BOOKED_COLLECTIVE_OFFERS = 150;
const PATH = '/v2/collective/offers/';
const BOOKED_PATH = `${PATH}?offerStatus=BOOKED`;
const DAY_MS = 24 * 3_600_000;

export type CollectiveListOptions = EventListOptions;

export interface CollectiveListFigures {
  facadeRps: number;
  rawRps: number;
  /** facade req/s / raw req/s. */
  ratio: number;
  /** GET ?offerStatus=BOOKED through the facade, one run. */
  booked: { offers: number; requestsPerSecond: number; p50Ms: number; p99Ms: number };
  failures: number;
}

/** PENDING for offers 0, 4, 8, ...; CONFIRMED for 2, 6, 10, ...; none for odd ones. */
function bookingStatusOf(index: number): CollectiveBookingStatus | null {
  if (index % 2 === 1) return null;
  return index % 4 === 0 ? 'PENDING' : 'CONFIRMED';
}

/**
 * 300 approved collective offers of the sandbox provider at its first venue, starting 20 to
 * 109 days from now, with no institution named; every other one pre-booked (PENDING) or
 * booked (CONFIRMED) by a school. Built as entities the ORM does not manage and written with
 * two multi-row inserts (em.insertMany, in batches of the ORM's batch size) in one transaction.
 */
export async function seedCollectiveOffers(
  target: BenchTarget,
  log: (line: string) => void,
): Promise<{ offers: number; bookings: number }> {
  const started = performance.now();
  const em = target.runtime.orm.em.fork();
  const existing = await em.count(CollectiveOffer, { provider: target.owner.providerId });
  if (existing > 0)
    throw new Error(`The bench provider already has ${existing} collective offer(s): the bench needs a fresh database`);
  const now = target.runtime.clock.now();
  const created = new Date(now.getTime() - 12 * DAY_MS);
  const validated = new Date(now.getTime() - 11 * DAY_MS);
  const schools = educationalInstitutions.filter((institution) => institution.isActive);
  if (schools.length === 0) throw new Error('No active educational institution in the reference data');

  let bookings = 0;
  await em.transactional(async (tx: EntityManager) => {
    const offers = Array.from({ length: COLLECTIVE_OFFERS }, (_, index) => {
      const number = index + 1;
      const domain = educationalDomains[index % educationalDomains.length];
      const programId = index % 3 === 0 ? (domain.nationalProgramIds[0] ?? null) : null;
      const start = new Date(now.getTime() + (20 + (index % 90)) * DAY_MS);
      start.setUTCHours(8 + (index % 8), index % 2 === 0 ? 0 : 30, 0, 0);
      const duration = 60 + (index % 4) * 30;
      const location: Pick<
        CollectiveOffer,
        'locationType' | 'atVenueAddress' | 'interventionArea' | 'locationComment'
      > =
        index % 3 === 0
          ? {
              locationType: 'SCHOOL',
              atVenueAddress: false,
              interventionArea: ['75', '92', '93', '94'],
              locationComment: null,
            }
          : index % 3 === 1
            ? { locationType: 'ADDRESS', atVenueAddress: true, interventionArea: [], locationComment: null }
            : {
                locationType: 'TO_BE_DEFINED',
                atVenueAddress: false,
                interventionArea: [],
                locationComment: 'In the school or at our workshop, to agree with the teacher.',
              };
      return tx.create(
        CollectiveOffer,
        {
          provider: target.owner.providerId,
          venue: target.owner.venueId,
          name: `Bench collective offer ${number}: ${EAC_FORMATS[index % EAC_FORMATS.length].toLowerCase()} (${domain.name})`,
          description: `A benchmark offer to school groups, number ${number}: a ${duration}-minute session, prepared with the teacher beforehand.`,
          formats: [
            EAC_FORMATS[index % EAC_FORMATS.length],
            ...(index % 5 === 0 ? [EAC_FORMATS[(index + 3) % EAC_FORMATS.length]] : []),
          ],
          bookingEmails:
            index % 4 === 0
              ? ['scolaires@theatre.example.com', 'billetterie@theatre.example.com']
              : ['scolaires@theatre.example.com'],
          contactEmail: 'mediation@theatre.example.com',
          contactPhone: '+33 1 23 45 67 89',
          domains:
            index % 6 === 0 ? [domain.id, educationalDomains[(index + 5) % educationalDomains.length].id] : [domain.id],
          students: [
            studentLevels[4 + (index % 4)].id,
            ...(index % 2 === 0 ? [studentLevels[4 + ((index + 1) % 4)].id] : []),
          ],
          ...location,
          startDatetime: start,
          endDatetime: new Date(start.getTime() + duration * 60_000),
          bookingLimitDatetime: new Date(start.getTime() - 7 * DAY_MS),
          totalPriceCents: 15_000 + (index % 12) * 2_500,
          numberOfTickets: 25 + (index % 10),
          priceDetail: index % 4 === 1 ? 'Price for one class, accompanying adults free.' : null,
          durationMinutes: duration,
          institution: null,
          nationalProgram: programId === null ? null : tx.getReference(NationalProgram, programId),
          audioDisabilityCompliant: index % 2 === 0,
          mentalDisabilityCompliant: index % 3 === 0,
          motorDisabilityCompliant: true,
          visualDisabilityCompliant: index % 5 === 0,
          isActive: true,
          validation: 'APPROVED',
          validatedAt: validated,
          dateCreated: created,
          dateUpdated: validated,
        },
        { persist: false },
      );
    });
    await tx.insertMany(offers);
    if (offers.some((offer) => typeof offer.id !== 'number'))
      throw new Error('insertMany left collective offers without their ids');

    const rows = offers.flatMap((offer, index) => {
      const status = bookingStatusOf(index);
      if (status === null) return [];
      const bookedAt = new Date(now.getTime() - (1 + (index % 5)) * DAY_MS - (index % 7) * 3_600_000);
      return [
        tx.create(
          CollectiveBooking,
          {
            offer,
            institution: tx.getReference(EducationalInstitution, schools[index % schools.length].id),
            status,
            dateCreated: bookedAt,
            confirmationLimitDate: offer.bookingLimitDatetime,
            cancellationLimitDate: cancellationLimitFor(offer.startDatetime, bookedAt),
            confirmationDate: status === 'CONFIRMED' ? new Date(bookedAt.getTime() + DAY_MS / 2) : null,
          },
          { persist: false },
        ),
      ];
    });
    await tx.insertMany(rows);
    bookings = rows.length;
  });
  if (em.getPlatform() instanceof PostgreSqlPlatform) {
    // What autovacuum would do soon after the load: done now, so that every round runs on the same plan.
    await em.getConnection().execute('analyze collective_offer');
    await em.getConnection().execute('analyze collective_booking');
  }
  log(
    `seeded ${COLLECTIVE_OFFERS} collective offers of provider ${target.owner.providerId} at venue ${target.owner.venueId}, ` +
      `${bookings} of them with a booking, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { offers: COLLECTIVE_OFFERS, bookings };
}

/**
 * The baseline of GET /v2/collective/offers/ (no filter) by hand on bare Express: the key
 * query, the provider's offers (only the columns the answer and the status need), the
 * bookings of those offers; the displayed and deprecated statuses by the same functions as
 * the graph; through the same connection, the same JSON. No GraphQL, no zod, no limiter, no
 * entity hydration.
 */
const keySql =
  'select k.secret_hash, k.revoked_at, k.offerer_id, k.is_internal, p.id as provider_id, p.is_active ' +
  'from api_key k left join provider p on p.id = k.provider_id where k.prefix = ?';
const offerColumns =
  'o.id, o.venue_id, o.validation, o.is_active, o.archived_at, o.start_datetime, o.end_datetime, o.booking_limit_datetime';
const allOffersSql = `select ${offerColumns} from collective_offer o order by o.id`;
const offersSql = `select ${offerColumns} from collective_offer o where o.provider_id = ? order by o.id`;
const offersOfOffererSql =
  `select ${offerColumns} from collective_offer o join venue v on v.id = o.venue_id ` +
  'where o.provider_id = ? and v.offerer_id = ? order by o.id';
const bookingColumns =
  'id, offer_id, status, cancellation_reason, date_created, confirmation_date, date_used, reimbursement_date, cancellation_limit_date';

type Row = Record<string, unknown>;

interface RawBooking {
  id: number;
  status: CollectiveBookingStatus;
  cancellationReason: CollectiveCancellationReason | null;
  dateCreated: string;
  confirmationDate: string | null;
  dateUsed: string | null;
  reimbursementDate: string | null;
  cancellationLimitDate: string | null;
}

export function createRawCollectiveListApp(runtime: Runtime): express.Express {
  const app = express();
  const connection = runtime.orm.em.getConnection();
  const platform = runtime.orm.em.getPlatform();
  // The PostgreSQL driver answers timestamps as text here, libSQL as epoch milliseconds.
  const asDate = (value: unknown): Date => {
    if (value instanceof Date) return value;
    if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) return new Date(Number(value));
    return platform.parseDate(value as string);
  };
  const iso = (value: unknown) => (value == null ? null : asDate(value).toISOString());

  app.get(
    PATH,
    asyncHandler(async (req, res, next) => {
      try {
        const [scheme, token] = (req.get('authorization') ?? '').split(' ');
        const parsed = scheme === 'Bearer' && token ? parseApiKey(token) : null;
        const [key] = parsed ? await connection.execute<Row[]>(keySql, [parsed.prefix]) : [];
        if (!parsed || !key || key.revoked_at != null || !secretMatches(parsed.secret, String(key.secret_hash))) {
          res.status(401).json({ auth: 'API key required' });
          return;
        }
        const internal = Boolean(key.is_internal);
        if (!internal && key.provider_id == null) {
          res.status(401).json({ auth: 'API key required' });
          return;
        }
        if (!internal && !key.is_active) {
          res.status(403).json({ global: ['This provider is inactive'] });
          return;
        }
        // A provider key lists its provider's offers (at its offerer's venues), an internal key every offer.
        const offers: Row[] = internal
          ? await connection.execute<Row[]>(allOffersSql)
          : key.offerer_id == null
            ? await connection.execute<Row[]>(offersSql, [key.provider_id])
            : await connection.execute<Row[]>(offersOfOffererSql, [key.provider_id, key.offerer_id]);

        const bookingsOf = new Map<number, RawBooking[]>();
        if (offers.length > 0) {
          const ids = offers.map((offer) => Number(offer.id));
          const sql = `select ${bookingColumns} from collective_booking where offer_id in (${ids.map(() => '?').join(', ')}) order by id`;
          for (const row of await connection.execute<Row[]>(sql, ids)) {
            const offerId = Number(row.offer_id);
            let list = bookingsOf.get(offerId);
            if (!list) bookingsOf.set(offerId, (list = []));
            list.push({
              id: Number(row.id),
              status: row.status as CollectiveBookingStatus,
              cancellationReason: (row.cancellation_reason as CollectiveCancellationReason | null) ?? null,
              dateCreated: iso(row.date_created)!,
              confirmationDate: iso(row.confirmation_date),
              dateUsed: iso(row.date_used),
              reimbursementDate: iso(row.reimbursement_date),
              cancellationLimitDate: iso(row.cancellation_limit_date),
            });
          }
        }

        const now = runtime.clock.now();
        res.json(
          offers.map((offer) => {
            const id = Number(offer.id);
            const bookings = bookingsOf.get(id) ?? [];
            const startDatetime = asDate(offer.start_datetime);
            const endDatetime = asDate(offer.end_datetime);
            const displayed = collectiveDisplayedStatus(
              {
                archivedAt: offer.archived_at == null ? null : asDate(offer.archived_at),
                validation: offer.validation as CollectiveValidation,
                isActive: Boolean(offer.is_active),
                startDatetime,
                endDatetime,
                bookingLimitDatetime: asDate(offer.booking_limit_datetime),
              },
              lastBookingOf(bookings),
              now,
            );
            return {
              id,
              status: collectiveLegacyStatus(displayed),
              offerStatus: displayed,
              venueId: Number(offer.venue_id),
              startDatetime: startDatetime.toISOString(),
              endDatetime: endDatetime.toISOString(),
              bookings: bookings.map((booking) => ({
                id: booking.id,
                status: booking.status,
                dateCreated: booking.dateCreated,
                confirmationDate: booking.confirmationDate,
                dateUsed: booking.dateUsed,
                reimbursementDate: booking.reimbursementDate,
                cancellationLimitDate: booking.cancellationLimitDate,
              })),
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

interface ListedOffer {
  id: number;
  offerStatus: string;
  bookings: { status: string }[];
}

/** What the seed must show: every offer once, in id order, a booking on every other, statuses as seeded. */
function checkListed(offers: ListedOffer[], path: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const offer of offers) counts.set(offer.offerStatus, (counts.get(offer.offerStatus) ?? 0) + 1);
  const withBooking = offers.filter((offer) => offer.bookings.length > 0).length;
  const problems = [
    offers.length !== COLLECTIVE_OFFERS && `${offers.length} offers, expected ${COLLECTIVE_OFFERS}`,
    withBooking !== BOOKED_COLLECTIVE_OFFERS &&
      `${withBooking} offers with a booking, expected ${BOOKED_COLLECTIVE_OFFERS}`,
    offers.some((offer, at) => at > 0 && offer.id <= offers[at - 1].id) && 'ids not increasing',
    counts.get('PUBLISHED') !== COLLECTIVE_OFFERS - BOOKED_COLLECTIVE_OFFERS &&
      `PUBLISHED ${counts.get('PUBLISHED') ?? 0}`,
    counts.get('PREBOOKED') !== BOOKED_COLLECTIVE_OFFERS / 2 && `PREBOOKED ${counts.get('PREBOOKED') ?? 0}`,
    counts.get('BOOKED') !== BOOKED_COLLECTIVE_OFFERS / 2 && `BOOKED ${counts.get('BOOKED') ?? 0}`,
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`GET ${path}: ${problems.join(', ')}`);
  return counts;
}

/**
 * GET the 300 collective offers of the provider with their bookings and statuses, through
 * the facade and by hand (key, offers, bookings: three queries, same connection); both must
 * answer the same body first. Then the facade's `?offerStatus=BOOKED`, one run.
 */
export async function benchCollectiveList(
  target: BenchTarget,
  options: CollectiveListOptions,
  log: (line: string) => void,
): Promise<CollectiveListFigures> {
  await seedCollectiveOffers(target, log);
  const facade = await listen(createApp(target.runtime));
  const raw = await listen(createRawCollectiveListApp(target.runtime));
  try {
    const headers = { authorization: `Bearer ${target.apiKey}` };
    const contenders = [
      { label: 'facade', url: `${facade.origin}${PATH}` },
      { label: 'raw', url: `${raw.origin}${PATH}` },
    ];
    const body = await verifySameAnswers(contenders, target.apiKey);
    const counts = checkListed(JSON.parse(body) as ListedOffer[], PATH);
    log(
      `GET ${PATH}: both answer 200 with the same ${COLLECTIVE_OFFERS} offers (${(body.length / 1024).toFixed(0)} KiB; ` +
        `${[...counts].map(([status, count]) => `${status} ${count}`).join(', ')})`,
    );

    const { averages } = await compare(contenders, { ...options, headers }, log);
    log(table(averages));
    const facadeRps = averages.get('facade')!.requestsPerSecond;
    const rawRps = averages.get('raw')!.requestsPerSecond;
    const ratio = facadeRps / rawRps;
    log(
      `ratio facade/raw req/s (${COLLECTIVE_OFFERS} collective offers, ${BOOKED_COLLECTIVE_OFFERS} with a booking): ${ratio.toFixed(3)}`,
    );

    const response = await fetch(`${facade.origin}${BOOKED_PATH}`, { headers });
    if (response.status !== 200)
      throw new Error(`GET ${BOOKED_PATH} answered ${response.status}: ${await response.text()}`);
    const booked = (await response.json()) as ListedOffer[];
    const expected = counts.get('BOOKED') ?? 0;
    if (booked.length !== expected || booked.some((offer) => offer.offerStatus !== 'BOOKED')) {
      throw new Error(`GET ${BOOKED_PATH}: ${booked.length} offers, expected ${expected}, all BOOKED`);
    }
    const filtered = await load(`${facade.origin}${BOOKED_PATH}`, { ...options, headers });
    log(
      `GET ${BOOKED_PATH} (facade, ${booked.length} of ${COLLECTIVE_OFFERS} offers, one run of ${options.durationSeconds} s): ` +
        `${filtered.requestsPerSecond.toFixed(0)} req/s, latency p50 ${filtered.p50Ms} ms, p99 ${filtered.p99Ms} ms, ` +
        `non-2xx ${filtered.non2xx}, failed ${filtered.failed}`,
    );

    const failures = [...averages.values(), filtered].reduce(
      (sum, figures) => sum + figures.non2xx + figures.failed,
      0,
    );
    return {
      facadeRps,
      rawRps,
      ratio,
      booked: {
        offers: booked.length,
        requestsPerSecond: filtered.requestsPerSecond,
        p50Ms: filtered.p50Ms,
        p99Ms: filtered.p99Ms,
      },
      failures,
    };
  } finally {
    await Promise.all([facade.close(), raw.close()]);
  }
}

import type { EntityManager } from '@mikro-orm/core';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { CollectiveBooking, type CollectiveBookingStatus } from '../../graphql/collective/CollectiveBooking.js';
import { CollectiveOffer } from '../../graphql/collective/CollectiveOffer.js';
import { EAC_FORMATS } from '../../graphql/collective/formats.js';
import { cancellationLimitFor } from '../../graphql/collective/bookingRules.js';
import { educationalDomains, studentLevels } from '../../graphql/collective/reference/educationalData.js';
import { EducationalInstitution, NationalProgram } from '../../graphql/collective/reference/entities.js';
import { educationalInstitutions } from '../../graphql/collective/reference/institutionData.js';
import { type Bench, type BenchContext, measureReadPair } from './harness.js';
import { failuresOf, load } from './measure.js';
import { createRawCollectiveListApp, createRawCollectiveOfferApp } from './rawCollectiveApps.js';
import { seedOnce } from './seeds.js';
import type { BenchTarget } from './target.js';
import { READ_TARGET } from './targets.js';

/** Collective offers of the sandbox provider, all listed by one GET. */
export const COLLECTIVE_OFFERS = 300;
/** Every other offer has one booking, PENDING and CONFIRMED in turn. */
export const BOOKED_COLLECTIVE_OFFERS = 150;
const PATH = '/v2/collective/offers/';
const BOOKED_PATH = `${PATH}?offerStatus=BOOKED`;
const DAY_MS = 24 * 3_600_000;

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
): Promise<{ offerIds: number[]; bookings: number }> {
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
  let offerIds: number[] = [];
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
    offerIds = offers.map((offer) => offer.id);

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
  return { offerIds, bookings };
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

function benchCollectiveOffers(context: BenchContext) {
  return seedOnce(context.target, 'collective offers', () =>
    seedCollectiveOffers(context.target, (line) => context.log(line)),
  );
}

/**
 * GET the 300 collective offers of the provider with their bookings and statuses, through
 * the facade and by hand (key, offers, bookings: three queries, same connection). Then the
 * facade's `?offerStatus=BOOKED`, one run.
 */
export const collectiveListBench: Bench = {
  key: 'collective',
  async run(context) {
    await benchCollectiveOffers(context);
    let counts = new Map<string, number>();
    await measureReadPair(context, {
      key: this.key,
      title: `${COLLECTIVE_OFFERS} collective offers, ${BOOKED_COLLECTIVE_OFFERS} booked`,
      path: PATH,
      target: READ_TARGET,
      raw: createRawCollectiveListApp(context.target.runtime),
      check(body) {
        counts = checkListed(JSON.parse(body) as ListedOffer[], PATH);
        return `${COLLECTIVE_OFFERS} offers (${[...counts].map(([status, count]) => `${status} ${count}`).join(', ')})`;
      },
    });

    const response = await fetch(`${context.facadeOrigin}${BOOKED_PATH}`, { headers: context.headers });
    if (response.status !== 200)
      throw new Error(`GET ${BOOKED_PATH} answered ${response.status}: ${await response.text()}`);
    const booked = (await response.json()) as ListedOffer[];
    const expected = counts.get('BOOKED') ?? 0;
    if (booked.length !== expected || booked.some((offer) => offer.offerStatus !== 'BOOKED')) {
      throw new Error(`GET ${BOOKED_PATH}: ${booked.length} offers, expected ${expected}, all BOOKED`);
    }
    const filtered = await load(
      `${context.facadeOrigin}${BOOKED_PATH}`,
      { ...context.settings, headers: context.headers },
      context.settleFacade,
    );
    context.results.failures += failuresOf([filtered]);
    const text =
      `${booked.length} of ${COLLECTIVE_OFFERS} offers, one run of ${context.settings.durationSeconds} s: ` +
      `${filtered.requestsPerSecond.toFixed(0)} req/s, p50 ${filtered.p50Ms} ms, p99 ${filtered.p99Ms} ms, ` +
      `non-2xx ${filtered.non2xx}, failed ${filtered.failed}`;
    context.log(`GET ${BOOKED_PATH} (facade): ${text}`);
    context.results.notes.push({
      key: 'collective-booked-filter',
      title: `GET ${BOOKED_PATH} (facade only)`,
      text,
      figures: {
        offers: booked.length,
        requestsPerSecond: filtered.requestsPerSecond,
        p50Ms: filtered.p50Ms,
        p99Ms: filtered.p99Ms,
        non2xx: filtered.non2xx,
        failed: filtered.failed,
        total: filtered.total,
      },
    });
  },
};

/**
 * GET one collective offer with its booking, through the facade and by hand (key, the offer
 * with its venue's offerer, institution, programme and address, its bookings: three queries).
 * An offer at its venue's address, booked and confirmed by a school, with two formats.
 */
export const collectiveOfferBench: Bench = {
  key: 'collectiveOffer',
  async run(context) {
    const { offerIds } = await benchCollectiveOffers(context);
    const id = offerIds[10];
    await measureReadPair(context, {
      key: this.key,
      title: 'one collective offer',
      path: `${PATH}${id}`,
      target: READ_TARGET,
      raw: createRawCollectiveOfferApp(context.target.runtime),
      check(body) {
        const offer = JSON.parse(body) as { id: number; offerStatus: string; bookings: unknown[] };
        if (offer.id !== id || offer.offerStatus !== 'BOOKED' || offer.bookings.length !== 1)
          throw new Error(`offer ${offer.id} ${offer.offerStatus}: expected offer ${id}, BOOKED, with one booking`);
        return `offer ${id}, BOOKED, with its booking`;
      },
    });
  },
};

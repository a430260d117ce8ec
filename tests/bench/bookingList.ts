import type { EntityManager } from '@mikro-orm/core';
import type { AbstractSqlConnection, SqlEntityManager } from '@mikro-orm/knex';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { Beneficiary, INITIAL_CREDIT_CENTS } from '../../graphql/bookings/Beneficiary.js';
import { type BookingStatus } from '../../graphql/bookings/Booking.js';
import { bookingViewsQuery } from '../../graphql/bookings/bookingViews.js';
import { cancellationLimitOf } from '../../graphql/bookings/rules.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { PriceCategory } from '../../graphql/offers/PriceCategory.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { PAGE_SIZE_MAX } from '../../graphql/shared/pagination.js';
import { publishedEventData } from '../support/eventData.js';
import { type Bench, type BenchContext, measureReadPair } from './harness.js';
import { tokenOf } from './countermarks.js';
import { createRawBookingByTokenApp, createRawBookingListApp } from './rawBookingApps.js';
import { seedOnce } from './seeds.js';
import type { BenchTarget } from './target.js';
import { READ_TARGET } from './targets.js';

/** Bookings of the listed offer. */
export const LISTED_OFFER_BOOKINGS = 100_000;
/** The cost ratio deep page / first page the issue asks for. */
export const BOOKING_LIST_RATIO_TARGET = 1.5;
const PAGE = PAGE_SIZE_MAX;
const DATES = 4;
/** After every 7th booking of the listed offer comes one of another offer: its ids are not contiguous. */
const OTHER_OFFER_EVERY = 7;
/** 500 rows of 14 values: 7000 parameters, well under the limits of both engines. */
const ROWS_PER_INSERT = 500;
const DAY_MS = 24 * 3_600_000;

interface Seeded {
  offerId: number;
  /** Ids of the listed offer's bookings, lowest and the one that starts the last page. */
  firstId: number;
  deepFirstIndex: number;
  lastId: number;
  otherBookings: number;
}

/** Statuses mixed as a real offer's: 6 in 10 confirmed, 2 used, 1 cancelled, 1 reimbursed. */
function statusOf(index: number): BookingStatus {
  const slot = index % 10;
  if (slot < 6) return 'CONFIRMED';
  if (slot < 8) return 'USED';
  return slot === 8 ? 'CANCELLED' : 'REIMBURSED';
}

interface EventRefs {
  offerId: number;
  price: number;
  stocks: { id: number; beginning: Date }[];
}

/** An approved, published event of the sandbox provider with one price category and `dates` dates. */
async function createEvent(
  em: EntityManager,
  owner: BenchTarget['owner'],
  now: Date,
  name: string,
  dates: number,
): Promise<EventRefs> {
  const offer = em.create(Offer, publishedEventData(now, owner, { name, idAtProvider: `bench-bookings-${name}` }));
  const priceCategory = em.create(PriceCategory, {
    offer,
    label: 'Standard',
    price: 2_000,
    idAtProvider: 'standard',
    createdAt: now,
  });
  const stocks = Array.from({ length: dates }, (_, index) => {
    const beginning = new Date(now.getTime() + (10 + index) * DAY_MS);
    return em.create(Stock, {
      offer,
      priceCategory,
      beginningDatetime: beginning,
      bookingLimitDatetime: beginning,
      price: priceCategory.price,
      quantity: null,
      bookedQuantity: 0,
      createdAt: now,
      updatedAt: now,
    });
  });
  await em.flush();
  return {
    offerId: offer.id,
    price: priceCategory.price,
    stocks: stocks.map((stock) => ({ id: stock.id, beginning: stock.beginningDatetime! })),
  };
}

/**
 * One event with a price category and 4 dates, one beneficiary, and 100,000 bookings of that
 * event, with one booking of another event after every 7th so that the ids are not contiguous:
 * multi-row INSERTs by hand in one transaction on the runtime's connection, dates as the ORM
 * stores them (timestamps on PostgreSQL, epoch milliseconds on SQLite).
 */
export async function seedBookings(target: BenchTarget, log: (line: string) => void): Promise<Seeded> {
  const started = performance.now();
  const em = target.runtime.orm.em.fork();
  const now = target.runtime.clock.now();
  const listed = await createEvent(em, target.owner, now, 'Bench bookings: listed event', DATES);
  const other = await createEvent(em, target.owner, now, 'Bench bookings: other event', 1);
  const beneficiary = em.create(Beneficiary, {
    provider: target.owner.providerId,
    email: 'jeune.bench@example.com',
    firstName: 'Camille',
    lastName: 'Bench',
    birthDate: '2007-05-14',
    phoneNumber: '+33 6 12 34 56 78',
    postalCode: '75011',
    credit: INITIAL_CREDIT_CENTS,
    createdAt: now,
  });
  await em.flush();

  const connection = em.getConnection() as AbstractSqlConnection;
  const platform = em.getPlatform();
  const moment = (date: Date | null) => (date === null ? null : platform.processDateProperty(date));
  // Tokens are unique across all bookings: skip any a previous benchmark on this database holds.
  const taken = new Set(
    (await connection.execute<{ token: string }[]>('select token from booking')).map((row) => row.token),
  );
  let tokenSequence = 0;
  const freshToken = () => {
    for (;;) {
      const token = tokenOf(tokenSequence);
      tokenSequence += 1;
      if (!taken.has(token)) return token;
    }
  };

  // Booked from 4 days ago, a second apart: every cancellation limit (48 hours after booking,
  // the dates being 10 days ahead or more) is past, as for bookings a venue may validate.
  const firstBookedAt = now.getTime() - 4 * DAY_MS;
  const rowOf = (event: EventRefs, index: number): unknown[] => {
    const stock = event.stocks[index % event.stocks.length];
    const bookedAt = new Date(firstBookedAt + index * 1_000);
    const status = statusOf(index);
    const used = status === 'USED' || status === 'REIMBURSED' ? new Date(bookedAt.getTime() + 3 * DAY_MS) : null;
    return [
      event.offerId,
      stock.id,
      target.owner.providerId,
      beneficiary.id,
      freshToken(),
      index % 3 === 0 ? 2 : 1,
      event.price,
      status,
      moment(bookedAt),
      moment(cancellationLimitOf(stock.beginning, bookedAt)),
      moment(used),
      status === 'CANCELLED' ? moment(new Date(bookedAt.getTime() + DAY_MS)) : null,
      status === 'CANCELLED' ? 'BENEFICIARY' : null,
      status === 'REIMBURSED' ? moment(new Date(used!.getTime() + DAY_MS)) : null,
    ];
  };
  const columns =
    'offer_id, stock_id, provider_id, beneficiary_id, token, quantity, amount, status, creation_date, ' +
    'cancellation_limit_date, date_used, cancellation_date, cancellation_reason, reimbursement_date';
  const placeholders = `(${columns
    .split(',')
    .map(() => '?')
    .join(', ')})`;

  let otherBookings = 0;
  await connection.transactional(async (trx) => {
    let rows: unknown[][] = [];
    const flush = async () => {
      if (rows.length === 0) return;
      const sql = `insert into booking (${columns}) values ${rows.map(() => placeholders).join(', ')}`;
      await connection.execute(sql, rows.flat(), 'run', trx);
      rows = [];
    };
    for (let index = 0; index < LISTED_OFFER_BOOKINGS; index += 1) {
      rows.push(rowOf(listed, index));
      if (index % OTHER_OFFER_EVERY === OTHER_OFFER_EVERY - 1) {
        rows.push(rowOf(other, index));
        otherBookings += 1;
      }
      if (rows.length >= ROWS_PER_INSERT) await flush();
    }
    await flush();
    // The dates count the places their bookings hold, cancelled ones released.
    for (const offerId of [listed.offerId, other.offerId]) {
      await connection.execute(
        'update stock set booked_quantity = (select coalesce(sum(b.quantity), 0) from booking b ' +
          "where b.stock_id = stock.id and b.status <> 'CANCELLED'), quantity = null where offer_id = ?",
        [offerId],
        'run',
        trx,
      );
    }
  });

  const bound = async (sql: string, params: unknown[]) => {
    const [row] = await connection.execute<{ id: number | string }[]>(sql, params);
    if (!row) throw new Error(`no row for ${sql}`);
    return Number(row.id);
  };
  const firstId = await bound('select id from booking where offer_id = ? order by id limit 1', [listed.offerId]);
  const lastId = await bound('select id from booking where offer_id = ? order by id desc limit 1', [listed.offerId]);
  const deepFirstIndex = await bound('select id from booking where offer_id = ? order by id limit 1 offset ?', [
    listed.offerId,
    LISTED_OFFER_BOOKINGS - PAGE,
  ]);
  if (platform instanceof PostgreSqlPlatform) {
    // What autovacuum does within a minute of such a load: done now, so that every round runs on the same plan.
    await connection.execute('analyze booking');
  }
  log(
    `seeded ${LISTED_OFFER_BOOKINGS} bookings of offer ${listed.offerId} (ids ${firstId}..${lastId}) and ${otherBookings} of ` +
      `offer ${other.offerId} interleaved, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { offerId: listed.offerId, firstId, deepFirstIndex, lastId, otherBookings };
}

/**
 * The plan of the deep page's query: the very SQL readBookingViews sends (bookingViewsQuery),
 * shown with its values written in. PostgreSQL:
 * EXPLAIN (ANALYZE, BUFFERS); SQLite: EXPLAIN QUERY PLAN.
 */
export async function explainBookingPage(
  target: BenchTarget,
  filters: { offerId: number; firstIndex: number; limit: number },
): Promise<{ sql: string; plan: string }> {
  const em = target.runtime.orm.em.fork() as SqlEntityManager;
  const { sql, params: bindings } = bookingViewsQuery(em, filters);
  const platform = em.getPlatform();
  const formatted = platform.formatQuery(sql, [...bindings]);
  const connection = em.getConnection();
  if (platform instanceof PostgreSqlPlatform) {
    const rows = await connection.execute<{ 'QUERY PLAN': string }[]>(`explain (analyze, buffers) ${sql}`, [
      ...bindings,
    ]);
    return { sql: formatted, plan: rows.map((row) => row['QUERY PLAN']).join('\n') };
  }
  const rows = await connection.execute<{ id: number; parent: number; detail: string }[]>(`explain query plan ${sql}`, [
    ...bindings,
  ]);
  const depth = new Map<number, number>();
  const lines = rows.map((row) => {
    const level = (depth.get(row.parent) ?? -1) + 1;
    depth.set(row.id, level);
    return `${'  '.repeat(level)}${row.detail}`;
  });
  return { sql: formatted, plan: lines.join('\n') };
}

/** One line on how the plan reads the bookings: through an index in id order, or by sorting them. */
export function planVerdict(plan: string, isPostgres: boolean): string {
  const lines = plan.split('\n').map((line) => line.trim());
  const access = isPostgres
    ? lines.find((line) => / on booking b\b/.test(line))
    : lines.find((line) => /^(SCAN|SEARCH) b\b/.test(line));
  const sorts = isPostgres
    ? lines.some((line) => /^(->\s+)?(Incremental )?Sort\b/.test(line))
    : lines.some((line) => /TEMP B-TREE FOR ORDER BY/.test(line));
  const seq =
    access !== undefined && (isPostgres ? /Seq Scan/.test(access) : /^SCAN b\b/.test(access) && !/USING/.test(access));
  const indexed = access !== undefined && !seq && !sorts;
  const detail =
    access?.replace(/^->\s+/, '').replace(/\s+\(cost=.*?\)(?= \(actual)/, '') ?? 'no access to booking found';
  return `plan of the deep page: bookings read by ${detail}; ${sorts ? 'SORTS the rows' : 'no sort'} -> ${indexed ? 'index in id order, OK' : 'NOT an index walk'}`;
}

interface BookingPage {
  bookings: { id: number; offerId: number; userEmail: string }[];
}

/** What a page must show: `PAGE` bookings of the offer, ids increasing from `first` (to `last`), each with its beneficiary. */
function checkPage(body: string, seeded: Seeded, first: number, last?: number): string {
  const { bookings } = JSON.parse(body) as BookingPage;
  const ids = bookings.map((booking) => booking.id);
  const problems = [
    bookings.length !== PAGE && `${bookings.length} bookings, expected ${PAGE}`,
    bookings.some((booking) => booking.offerId !== seeded.offerId) && 'bookings of another offer',
    bookings.some((booking) => !booking.userEmail) && 'a booking without its beneficiary',
    ids.some((id, at) => at > 0 && id <= ids[at - 1]) && 'ids not increasing',
    ids[0] !== first && `first id ${ids[0]}, expected ${first}`,
    last !== undefined && ids[ids.length - 1] !== last && `last id ${ids[ids.length - 1]}, expected ${last}`,
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(problems.join(', '));
  return `${PAGE} bookings with their beneficiary, ids ${ids[0]}..${ids[ids.length - 1]}`;
}

function benchBookings(context: BenchContext): Promise<Seeded> {
  return seedOnce(context.target, 'bookings', () => seedBookings(context.target, (line) => context.log(line)));
}

/**
 * GET the first page of 50 bookings of an offer with 100,000 bookings through the facade and
 * by hand (key, offer in scope, the page in one query); and, in the same alternation, the last
 * page through the facade (`firstIndex` the id of its 99,951st booking): with the (offer_id, id)
 * index, the deep page should cost what the first does.
 */
export const bookingListBench: Bench = {
  key: 'bookings',
  async run(context) {
    const seeded = await benchBookings(context);
    const firstPath = `/public/bookings/v1/bookings?offerId=${seeded.offerId}&limit=${PAGE}`;
    const deepPath = `/public/bookings/v1/bookings?offerId=${seeded.offerId}&firstIndex=${seeded.deepFirstIndex}&limit=${PAGE}`;

    const { target } = context;
    const { sql, plan } = await explainBookingPage(target, {
      offerId: seeded.offerId,
      firstIndex: seeded.deepFirstIndex,
      limit: PAGE,
    });
    const isPostgres = target.runtime.orm.em.getPlatform() instanceof PostgreSqlPlatform;
    context.log(`deep page query (readBookingViews):\n${sql}`);
    context.log(`${isPostgres ? 'EXPLAIN (ANALYZE, BUFFERS)' : 'EXPLAIN QUERY PLAN'} of the deep page:\n${plan}`);
    const verdict = planVerdict(plan, isPostgres);
    context.log(verdict);

    const deep = await fetch(`${context.facadeOrigin}${deepPath}`, { headers: context.headers });
    const deepBody = await deep.text();
    if (deep.status !== 200) throw new Error(`GET ${deepPath} answered ${deep.status}: ${deepBody}`);
    context.log(
      `GET ${deepPath} (deep page, facade): ${checkPage(deepBody, seeded, seeded.deepFirstIndex, seeded.lastId)}`,
    );

    const { comparison } = await measureReadPair(context, {
      key: this.key,
      title: `${PAGE} bookings with beneficiary (first page)`,
      path: firstPath,
      target: READ_TARGET,
      raw: createRawBookingListApp(target.runtime),
      facadeExtras: [{ label: 'facade deep', path: deepPath }],
      check: (body) => checkPage(body, seeded, seeded.firstId),
    });
    const firstPageRps = comparison.averages.get('facade')!.requestsPerSecond;
    const deepPageRps = comparison.averages.get('facade deep')!.requestsPerSecond;
    const ratio = firstPageRps / deepPageRps;
    context.results.notes.push({
      key: 'bookings-deep-page',
      title: `bookings list on ${LISTED_OFFER_BOOKINGS.toLocaleString('en')} bookings, deep page vs first (facade)`,
      text:
        `first page ${firstPageRps.toFixed(0)} req/s, deep page ${deepPageRps.toFixed(0)} req/s, ` +
        `cost ratio deep/first ${ratio.toFixed(2)}; ${verdict}`,
      figures: { firstPageRps, deepPageRps, ratio },
      verdict: { target: `deep/first <= ${BOOKING_LIST_RATIO_TARGET}`, pass: ratio <= BOOKING_LIST_RATIO_TARGET },
    });
  },
};

/**
 * GET a booking by its countermark, as a venue's scanner at the door: through the facade and by
 * hand (key, then the booking in the key's scope with everything its answer shows, one query).
 * A CONFIRMED booking whose cancellation limit is past, so that both answer 200.
 */
export const bookingByTokenBench: Bench = {
  key: 'token',
  async run(context) {
    const seeded = await benchBookings(context);
    const connection = context.target.runtime.orm.em.getConnection();
    const [booking] = await connection.execute<{ id: number; token: string }[]>(
      "select id, token from booking where offer_id = ? and status = 'CONFIRMED' order by id limit 1 offset ?",
      [seeded.offerId, Math.floor(LISTED_OFFER_BOOKINGS / 3)],
    );
    if (!booking) throw new Error(`no CONFIRMED booking of offer ${seeded.offerId}`);
    await measureReadPair(context, {
      key: this.key,
      title: 'booking by countermark',
      path: `/public/bookings/v1/token/${booking.token}`,
      target: READ_TARGET,
      raw: createRawBookingByTokenApp(context.target.runtime),
      check(body) {
        const answer = JSON.parse(body) as { id: number; status: string };
        if (Number(answer.id) !== Number(booking.id) || answer.status !== 'CONFIRMED')
          throw new Error(`answered booking ${answer.id} (${answer.status}), expected ${booking.id}, CONFIRMED`);
        return `booking ${booking.id}, CONFIRMED`;
      },
    });
  },
};

import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import type { AbstractSqlConnection } from '@mikro-orm/knex';
import { DATES_PER_CALL_MAX } from '../../graphql/offers/limits.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { publishedEventData } from '../support/eventData.js';
import { PriceCategory } from '../../graphql/offers/PriceCategory.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { createApp } from '../../server/app.js';
import { listen } from './servers.js';
import type { BenchTarget } from './target.js';

const RUNS = 3;
const RAW_ROWS_PER_INSERT = 500;
/** The target of the issue: 2500 dates in under a second on PostgreSQL. */
export const DATES_TARGET_MS = 1_000;

interface FreshEvent {
  offerId: number;
  priceCategoryId: number;
  price: number;
}

/** An approved, published event of the sandbox provider with one price category: each run starts empty. */
async function freshEvent(target: BenchTarget, run: string): Promise<FreshEvent> {
  const em = target.runtime.orm.em.fork();
  const now = target.runtime.clock.now();
  const offer = em.create(Offer, publishedEventData(now, target.owner, { name: `Bench dates ${run}` }));
  const priceCategory = em.create(PriceCategory, { offer, label: 'Standard', price: 2500, createdAt: now });
  await em.flush();
  return { offerId: offer.id, priceCategoryId: priceCategory.id, price: priceCategory.price };
}

/** 2500 dates a minute apart from 30 days ahead, as a provider would send them. */
function datesFor(event: FreshEvent, now: Date) {
  const start = now.getTime() + 30 * 24 * 3_600_000;
  return Array.from({ length: DATES_PER_CALL_MAX }, (_, index) => {
    const beginning = new Date(start + index * 60_000);
    return {
      beginningDatetime: beginning.toISOString(),
      bookingLimitDatetime: new Date(beginning.getTime() - 3_600_000).toISOString(),
      priceCategoryId: event.priceCategoryId,
      quantity: 100,
      idAtProvider: `bench-date-${index}`,
    };
  });
}

/** The same rows by hand: one transaction, multi-row INSERT ... RETURNING id, on the runtime's connection. */
async function insertByHand(
  target: BenchTarget,
  event: FreshEvent,
  dates: ReturnType<typeof datesFor>,
): Promise<number> {
  const em = target.runtime.orm.em;
  const connection = em.getConnection() as AbstractSqlConnection;
  const platform = em.getPlatform();
  const isPostgres = platform instanceof PostgreSqlPlatform;
  // Stored as the ORM stores them: timestamps on PostgreSQL, epoch milliseconds and 0/1 on SQLite.
  const moment = (iso: string) => platform.processDateProperty(new Date(iso));
  const now = moment(new Date().toISOString());
  const columns =
    'offer_id, price_category_id, beginning_datetime, booking_limit_datetime, price, quantity, booked_quantity, ' +
    'id_at_provider, is_deleted, rescheduled_at, created_at, updated_at';
  let inserted = 0;
  await connection.transactional(async (trx) => {
    for (let start = 0; start < dates.length; start += RAW_ROWS_PER_INSERT) {
      const chunk = dates.slice(start, start + RAW_ROWS_PER_INSERT);
      const params = chunk.flatMap((date) => [
        event.offerId,
        event.priceCategoryId,
        moment(date.beginningDatetime),
        moment(date.bookingLimitDatetime),
        event.price,
        date.quantity,
        0,
        date.idAtProvider,
        isPostgres ? false : 0,
        null,
        now,
        now,
      ]);
      const sql = `insert into stock (${columns}) values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} returning id`;
      const rows = await connection.execute<{ id: number }[]>(sql, params, 'all', trx);
      inserted += rows.length;
    }
  });
  return inserted;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

export interface EventDatesFigures {
  facadeMs: number;
  rawMs: number;
  ratio: number;
  failures: number;
}

/**
 * One POST of 2500 dates through the facade (HTTP on 127.0.0.1, auth, zod, GraphQL, rules,
 * inserts, answer) against the same rows inserted by hand; median of 3 runs each, every run
 * on a fresh event with one price category, alternating facade and raw.
 */
export async function benchEventDates(target: BenchTarget, log: (line: string) => void): Promise<EventDatesFigures> {
  const facade = await listen(createApp(target.runtime));
  const facadeRuns: number[] = [];
  const rawRuns: number[] = [];
  let failures = 0;
  try {
    for (let run = 1; run <= RUNS; run += 1) {
      const viaFacade = await freshEvent(target, `facade ${run}`);
      const body = JSON.stringify({ dates: datesFor(viaFacade, target.runtime.clock.now()) });
      const started = performance.now();
      const response = await fetch(`${facade.origin}/public/offers/v1/events/${viaFacade.offerId}/dates`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
        body,
      });
      const answer = (await response.json()) as { dates?: unknown[] };
      const facadeMs = performance.now() - started;
      const stored = await target.runtime.orm.em.fork().count(Stock, { offer: viaFacade.offerId });
      if (response.status !== 200 || answer.dates?.length !== DATES_PER_CALL_MAX || stored !== DATES_PER_CALL_MAX) {
        failures += 1;
        log(`facade run ${run}: answered ${response.status} with ${answer.dates?.length ?? 0} dates, ${stored} stored`);
      }
      facadeRuns.push(facadeMs);

      const byHand = await freshEvent(target, `raw ${run}`);
      const dates = datesFor(byHand, target.runtime.clock.now());
      const rawStarted = performance.now();
      const inserted = await insertByHand(target, byHand, dates);
      const rawMs = performance.now() - rawStarted;
      if (inserted !== DATES_PER_CALL_MAX) {
        failures += 1;
        log(`raw run ${run}: ${inserted} rows inserted`);
      }
      rawRuns.push(rawMs);
      log(`run ${run}: facade ${facadeMs.toFixed(0)} ms, raw ${rawMs.toFixed(0)} ms`);
    }
  } finally {
    await facade.close();
  }
  const facadeMs = median(facadeRuns);
  const rawMs = median(rawRuns);
  return { facadeMs, rawMs, ratio: facadeMs / rawMs, failures };
}

export function eventDatesReport(figures: EventDatesFigures): string {
  return [
    '',
    `Benchmark: POST /public/offers/v1/events/{event_id}/dates with ${DATES_PER_CALL_MAX} dates, median of ${RUNS} runs, each on a fresh event`,
    'facade: HTTP on 127.0.0.1 through createApp (auth, rate limiter, zod, GraphQL execute, rules, one transaction, batched inserts, answer)',
    `raw: the same rows by hand on the same connection, one transaction, INSERT ... RETURNING id of ${RAW_ROWS_PER_INSERT} rows each`,
    `facade ${figures.facadeMs.toFixed(0)} ms   raw ${figures.rawMs.toFixed(0)} ms   ratio facade/raw ${figures.ratio.toFixed(2)}`,
    `target: facade < ${DATES_TARGET_MS} ms   ${figures.facadeMs < DATES_TARGET_MS ? 'PASS' : 'BELOW'}`,
  ].join('\n');
}

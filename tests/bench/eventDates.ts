import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import type { AbstractSqlConnection } from '@mikro-orm/knex';
import { DATES_PER_CALL_MAX } from '../../graphql/offers/limits.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { publishedEventData } from '../support/eventData.js';
import { PriceCategory } from '../../graphql/offers/PriceCategory.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { median } from './measure.js';
import type { Bench, BenchContext, TimePairResult } from './harness.js';
import type { BenchTarget } from './target.js';
import { DATES_TIME_RATIO_TARGET } from './targets.js';

const RUNS = 5;
/**
 * Pairs run first and not counted, as the reads' warm-up seconds: the first calls measure V8's
 * compiler. Ten, not the two there were: the facade's path is called once per POST, so V8 tiers
 * it up over several POSTs, not within the first. Twenty timed POSTs after two warm-ups took
 * 62, 39, 42, 52 and 41 ms, then 30 to 42 ms from the sixth on, while the raw inserts held at
 * 22 to 24 ms from the first (docs/benchmarks/2026-11-29-dates-warm-up.md).
 */
const WARM_UP_PAIRS = 10;
const RAW_ROWS_PER_INSERT = 500;

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

/** When a timed side ran, on the `performance.now()` clock. */
type Window = { from: number; to: number };

const lasted = (window: Window) => window.to - window.from;

interface TimedPair {
  facade: Window;
  raw: Window;
}

/** One facade POST and one raw insert, each on a fresh event; failures counted and logged. */
async function onePair(context: BenchContext, run: string): Promise<TimedPair> {
  const { target, log } = context;
  const viaFacade = await freshEvent(target, `facade ${run}`);
  const body = JSON.stringify({ dates: datesFor(viaFacade, target.runtime.clock.now()) });
  const started = performance.now();
  const response = await fetch(`${context.facadeOrigin}/public/offers/v1/events/${viaFacade.offerId}/dates`, {
    method: 'POST',
    headers: { ...context.headers, 'content-type': 'application/json' },
    body,
  });
  const answer = (await response.json()) as { dates?: unknown[] };
  const facade = { from: started, to: performance.now() };
  const stored = await target.runtime.orm.em.fork().count(Stock, { offer: viaFacade.offerId });
  if (response.status !== 200 || answer.dates?.length !== DATES_PER_CALL_MAX || stored !== DATES_PER_CALL_MAX) {
    context.results.failures += 1;
    log(`facade run ${run}: answered ${response.status} with ${answer.dates?.length ?? 0} dates, ${stored} stored`);
  }

  const byHand = await freshEvent(target, `raw ${run}`);
  const dates = datesFor(byHand, target.runtime.clock.now());
  const rawStarted = performance.now();
  const inserted = await insertByHand(target, byHand, dates);
  const raw = { from: rawStarted, to: performance.now() };
  if (inserted !== DATES_PER_CALL_MAX) {
    context.results.failures += 1;
    log(`raw run ${run}: ${inserted} rows inserted`);
  }
  return { facade, raw };
}

/** Milliseconds of the collector's pauses that began inside the windows. */
function pausedMs(pauses: readonly PerformanceEntry[], windows: readonly Window[]): { ms: number; count: number } {
  const inside = pauses.filter((pause) =>
    windows.some((window) => pause.startTime >= window.from && pause.startTime < window.to),
  );
  return { ms: inside.reduce((sum, pause) => sum + pause.duration, 0), count: inside.length };
}

/**
 * One POST of 2500 dates through the facade (HTTP on 127.0.0.1, auth, zod, GraphQL, rules,
 * inserts, answer) against the same rows inserted by hand: after WARM_UP_PAIRS pairs not
 * counted, the median of RUNS runs each, every run on a fresh event with one price category,
 * alternating facade and raw.
 */
export const eventDatesBench: Bench = {
  key: 'dates',
  async run(context) {
    const { log } = context;
    for (let pair = 1; pair <= WARM_UP_PAIRS; pair += 1) {
      const warmUp = await onePair(context, `warm-up ${pair}`);
      log(
        `POST ${DATES_PER_CALL_MAX} dates, warm-up ${pair} (not counted): facade ${lasted(warmUp.facade).toFixed(0)} ms, raw ${lasted(warmUp.raw).toFixed(0)} ms`,
      );
    }
    // The facade's time swings with the garbage collector's pauses (this process also runs the
    // client): the report says how much of each side's time they took.
    const pauses: PerformanceEntry[] = [];
    const observer = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
    observer.observe({ entryTypes: ['gc'] });
    const pairs: TimedPair[] = [];
    try {
      for (let run = 1; run <= RUNS; run += 1) {
        const pair = await onePair(context, String(run));
        pairs.push(pair);
        log(
          `POST ${DATES_PER_CALL_MAX} dates, run ${run}: facade ${lasted(pair.facade).toFixed(0)} ms, raw ${lasted(pair.raw).toFixed(0)} ms`,
        );
      }
    } finally {
      pauses.push(...observer.takeRecords());
      observer.disconnect();
    }
    const runs: TimePairResult['runs'] = pairs.map((pair) => ({
      facadeMs: lasted(pair.facade),
      rawMs: lasted(pair.raw),
    }));
    const facadePauses = pausedMs(
      pauses,
      pairs.map((pair) => pair.facade),
    );
    const rawPauses = pausedMs(
      pauses,
      pairs.map((pair) => pair.raw),
    );
    context.results.notes.push({
      key: this.key,
      title: `POST ${DATES_PER_CALL_MAX} dates: garbage collection`,
      text:
        `pauses that began in the timed runs: facade ${(facadePauses.ms / RUNS).toFixed(1)} ms per POST ` +
        `(${facadePauses.count} pauses in ${RUNS} POSTs), raw ${(rawPauses.ms / RUNS).toFixed(1)} ms per run ` +
        `(${rawPauses.count} pauses)`,
      figures: { facadeGcMsPerRun: facadePauses.ms / RUNS, rawGcMsPerRun: rawPauses.ms / RUNS },
    });
    const facadeMs = median(runs.map((run) => run.facadeMs));
    const rawMs = median(runs.map((run) => run.rawMs));
    const ratio = facadeMs / rawMs;
    context.results.times.push({
      key: this.key,
      title: `POST ${DATES_PER_CALL_MAX} dates (median of ${RUNS})`,
      facadeMs,
      rawMs,
      ratio,
      target: DATES_TIME_RATIO_TARGET,
      pass: ratio <= DATES_TIME_RATIO_TARGET,
      runs,
    });
  },
};

/** What the report says the two sides of the dates do. */
export const eventDatesLegend =
  'POST /public/offers/v1/events/{event_id}/dates: facade = HTTP on 127.0.0.1 through createApp (auth, rate limiter, zod, GraphQL, rules, ' +
  'one transaction, batched inserts, answer); raw = the same rows by hand on the same connection, one transaction, ' +
  `INSERT ... RETURNING id of ${RAW_ROWS_PER_INSERT} rows each; each run on a fresh event, after ${WARM_UP_PAIRS} warm-up pairs not counted`;

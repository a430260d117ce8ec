// `npm run bench -- --scale` (issue 41): the reads and periodic tasks at the programme's size, on
// PostgreSQL. Two databases, each built once with COPY and kept between runs (`--rebuild` builds
// them again): today's size (factor 0.01: 300 providers, 100,000 bookings) and the programme's
// (30,000 providers, 1,000,000 offers, 10,000,000 stocks and bookings, 200,000 collective offers).
// For the largest provider and a typical one, each read is loaded through the facade at both sizes
// and its plans taken at the programme's; then each periodic task runs once there.
// Environment: DATABASE_URL (required), BENCH_SCALE_FACTOR (1), BENCH_DURATION_SECONDS (3),
// BENCH_ROUNDS (3 alternating rounds per read and size, after one of warm-up).
import type pg from 'pg';
import { pino } from 'pino';
import { createApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { createRuntime, type Runtime } from '../../../server/runtime.js';
import { eventDatesBench } from '../eventDates.js';
import { type BenchContext, BenchResults } from '../harness.js';
import { load } from '../measure.js';
import { productImportBench } from '../productImport.js';
import { listen } from '../servers.js';
import { databaseUrlOf, RATE_LIMIT_POINTS, withAdmin } from '../target.js';
import { withClient } from '../../support/pgClient.js';
import { fillScaleDatabase, keyFor, type ScaleProviders } from './scaleData.js';
import { scaleShape, type ScaleShape } from './scaleShape.js';
import { itemsAnswered, readRatio } from './readRatio.js';
import {
  type CapturedStatement,
  captureStatements,
  type ExplainedStatement,
  explainAll,
  planOutline,
  planProblems,
} from './sqlCapture.js';

const TODAY_FACTOR = 0.01;
/** Bumped when the generator changes: a kept database of another version is built again. */
const GENERATOR_VERSION = 2;
const READ_RATIO_TARGET = 1 / 1.3;
const TASK_TARGET_MS = 5_000;
const LARGE_TABLES = new Set(['offer', 'stock', 'booking', 'price_category', 'beneficiary', 'collective_offer']);
const PAGE = 50;

interface BuiltDatabase extends ScaleProviders {
  url: string;
  shape: ScaleShape;
}

function queryOne<Row extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<Row | undefined> {
  return withClient(url, async (client) => (await client.query<Row>(text, values)).rows[0]);
}

/**
 * What the writes of an earlier run added to the largest provider (events of 2500 dates, 500
 * products), removed before anything is measured: the reads of a kept database then see the data
 * the generator made, and the newest events are not those of 2500 dates.
 */
function removeEarlierWrites(url: string, providerId: number): Promise<void> {
  const written = `SELECT id FROM offer WHERE provider_id = $1 AND (name LIKE 'Bench dates %' OR ean LIKE '9782999%')`;
  return withClient(url, async (client) => {
    await client.query('BEGIN');
    await client.query(`DELETE FROM stock WHERE offer_id IN (${written})`, [providerId]);
    await client.query(`DELETE FROM price_category WHERE offer_id IN (${written})`, [providerId]);
    await client.query(`DELETE FROM offer WHERE id IN (${written})`, [providerId]);
    await client.query('COMMIT');
  });
}

/** The database of `factor`, built now unless a complete one of the same generator is kept. */
async function scaleDatabase(adminUrl: string, factor: number, rebuild: boolean, log: (line: string) => void) {
  const shape = scaleShape(factor);
  const name = `bench_scale_${String(factor).replace('.', '_')}`;
  const url = databaseUrlOf(adminUrl, name);
  if (!rebuild) {
    const kept = await queryOne<{ largest: number; typical: number; version: number }>(
      url,
      'SELECT largest, typical, version FROM bench_scale_built',
    ).catch(() => undefined);
    if (kept && kept.version === GENERATOR_VERSION) {
      log(`${name}: kept from an earlier run (--rebuild builds it again)`);
      await removeEarlierWrites(url, kept.largest);
      return { url, shape, largest: kept.largest, typical: kept.typical } satisfies BuiltDatabase;
    }
  }
  const started = performance.now();
  log(`${name}: building (${shape.providers} providers, ${shape.offers} offers, ${shape.bookings} bookings)`);
  await withAdmin(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await withAdmin(adminUrl, `CREATE DATABASE "${name}"`);
  // The schema, as the server makes it: its migrations.
  const runtime = await createRuntime(loadConfig({ LOG_LEVEL: 'silent', WORKER_ENABLED: 'false', DATABASE_URL: url }));
  await runtime.close();
  const { largest, typical } = await fillScaleDatabase(url, shape, log);
  await withClient(url, async (client) => {
    await client.query(
      'CREATE TABLE bench_scale_built (largest integer NOT NULL, typical integer NOT NULL, version integer NOT NULL)',
    );
    await client.query('INSERT INTO bench_scale_built VALUES ($1, $2, $3)', [largest, typical, GENERATOR_VERSION]);
  });
  log(`${name}: built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { url, shape, largest, typical } satisfies BuiltDatabase;
}

export interface Read {
  key: string;
  path: string;
}

/** The reads of today's bench, first and deep pages, for one provider of a built database. */
export async function readsOf(url: string, providerId: number): Promise<Read[]> {
  const event = await queryOne<{ offer_id: number }>(
    url,
    `SELECT b.offer_id FROM booking b JOIN offer o ON o.id = b.offer_id
     WHERE b.provider_id = $1 AND o.is_event GROUP BY b.offer_id ORDER BY count(*) DESC LIMIT 1`,
    [providerId],
  );
  if (!event) throw new Error(`provider ${providerId} has no event with bookings`);
  const deepOf = async (sql: string, values: unknown[]) => (await queryOne<{ id: number }>(url, sql, values))?.id ?? 1;
  const deepEvent = await deepOf(
    `SELECT id FROM offer WHERE provider_id = $1 AND is_event ORDER BY id DESC OFFSET ${PAGE - 1} LIMIT 1`,
    [providerId],
  );
  const deepProduct = await deepOf(
    `SELECT id FROM offer WHERE provider_id = $1 AND NOT is_event ORDER BY id DESC OFFSET ${PAGE - 1} LIMIT 1`,
    [providerId],
  );
  const deepBooking = await deepOf(
    `SELECT id FROM booking WHERE offer_id = $1 ORDER BY id DESC OFFSET ${PAGE - 1} LIMIT 1`,
    [event.offer_id],
  );
  const token = await queryOne<{ token: string }>(
    url,
    // A product's: an event's booking is refused (403) until its event is near.
    `SELECT b.token FROM booking b JOIN offer o ON o.id = b.offer_id
     WHERE b.provider_id = $1 AND b.status = 'CONFIRMED' AND NOT o.is_event ORDER BY b.id DESC LIMIT 1`,
    [providerId],
  );
  const collective = await queryOne<{ id: number }>(
    url,
    'SELECT id FROM collective_offer WHERE provider_id = $1 ORDER BY id DESC LIMIT 1',
    [providerId],
  );
  const reads: Read[] = [
    { key: 'provider', path: '/public/providers/v1/provider' },
    { key: 'venues', path: '/public/offers/v1/offerer_venues' },
    { key: 'events, first page', path: `/public/offers/v1/events?limit=${PAGE}` },
    { key: 'events, deep page', path: `/public/offers/v1/events?firstIndex=${deepEvent}&limit=${PAGE}` },
    { key: 'event', path: `/public/offers/v1/events/${event.offer_id}` },
    { key: 'products, first page', path: `/public/offers/v1/products?limit=${PAGE}` },
    { key: 'products, deep page', path: `/public/offers/v1/products?firstIndex=${deepProduct}&limit=${PAGE}` },
    { key: 'bookings, first page', path: `/public/bookings/v1/bookings?offerId=${event.offer_id}&limit=${PAGE}` },
    {
      key: 'bookings, deep page',
      path: `/public/bookings/v1/bookings?offerId=${event.offer_id}&firstIndex=${deepBooking}&limit=${PAGE}`,
    },
  ];
  if (token) reads.push({ key: 'booking by token', path: `/public/bookings/v1/token/${token.token}` });
  reads.push({ key: 'collective offers', path: '/v2/collective/offers/' });
  if (collective) reads.push({ key: 'collective offer', path: `/v2/collective/offers/${collective.id}` });
  return reads;
}

interface ReadFigure {
  key: string;
  path: string;
  status: number;
  requestsPerSecond: number;
  p50Ms: number;
  /** The entries its answer held, when it is a list. */
  items: number | null;
  statements: CapturedStatement[];
}

async function openTarget(url: string): Promise<{ runtime: Runtime; origin: string; close(): Promise<void> }> {
  // Recording off: the request log is measured by the everyday bench; here the data's size is.
  const config = loadConfig({ LOG_LEVEL: 'silent', WORKER_ENABLED: 'false', DATABASE_URL: url });
  const runtime = await createRuntime(config, {
    rateLimitPoints: RATE_LIMIT_POINTS,
    logger: pino({ level: 'silent' }),
  });
  const server = await listen(createApp(runtime, { recordRequests: false }));
  return {
    runtime,
    origin: server.origin,
    async close() {
      await server.close();
      await runtime.close();
    },
  };
}

interface Side {
  origin: string;
  headers: Record<string, string>;
  reads: Read[];
  close(): Promise<void>;
}

async function openSide(built: BuiltDatabase, providerId: number): Promise<Side> {
  const apiKey = await keyFor(built.url, providerId);
  const reads = await readsOf(built.url, providerId);
  const target = await openTarget(built.url);
  return { origin: target.origin, headers: { authorization: `Bearer ${apiKey}` }, reads, close: () => target.close() };
}

interface Probe {
  status: number;
  items: number | null;
  statements: CapturedStatement[];
}

/** One GET, its statements captured; requests of an earlier load still in flight are let finish first. */
async function probe(side: Side, read: Read): Promise<Probe> {
  await new Promise((resolve) => setTimeout(resolve, 250));
  let status = 0;
  let items: number | null = null;
  const statements = await captureStatements(async () => {
    const response = await fetch(`${side.origin}${read.path}`, { headers: side.headers });
    status = response.status;
    const text = await response.text();
    if (status === 200) items = itemsAnswered(JSON.parse(text));
  });
  return { status, items, statements };
}

/**
 * Each read of one provider at both sizes, in alternating rounds (the machine's speed drifts
 * from one stretch of seconds to the next: alternation puts the drift on both sides).
 */
async function measureReads(
  today: BuiltDatabase,
  scale: BuiltDatabase,
  role: 'largest' | 'typical',
  settings: { durationSeconds: number; rounds: number },
  log: (line: string) => void,
): Promise<{ small: ReadFigure[]; large: ReadFigure[] }> {
  const sides = [await openSide(today, today[role]), await openSide(scale, scale[role])];
  const figures: ReadFigure[][] = [[], []];
  try {
    for (const read of sides[1].reads) {
      const sideReads = sides.map((side) => side.reads.find((entry) => entry.key === read.key));
      // One after the other: a capture sees every statement the process sends.
      const probes: (Probe | null)[] = [];
      for (const [index, side] of sides.entries()) {
        const sideRead = sideReads[index];
        probes.push(sideRead ? await probe(side, sideRead) : null);
      }
      const loads: { requestsPerSecond: number; p50Ms: number }[][] = [[], []];
      const measurable = probes.map((probed) => probed?.status === 200);
      for (const [index, probed] of probes.entries()) {
        if (probed && probed.status !== 200)
          log(`  ${role} ${read.key}: ${sideReads[index]?.path} answered ${probed.status}`);
      }
      for (let round = 0; round <= settings.rounds; round += 1) {
        for (const [index, side] of sides.entries()) {
          const path = sideReads[index]?.path;
          if (!measurable[index] || !path) continue;
          // Round 0 warms both sides up and is not counted.
          const measured = await load(`${side.origin}${path}`, {
            durationSeconds: round === 0 ? 1 : settings.durationSeconds,
            connections: 10,
            headers: side.headers,
          });
          if (round > 0) loads[index].push(measured);
        }
      }
      for (const [index, probed] of probes.entries()) {
        const path = sideReads[index]?.path;
        if (!probed || !path) continue;
        const mean = (pick: (figure: { requestsPerSecond: number; p50Ms: number }) => number) =>
          loads[index].length === 0
            ? 0
            : loads[index].reduce((sum, figure) => sum + pick(figure), 0) / loads[index].length;
        figures[index].push({
          key: read.key,
          path,
          status: probed.status,
          requestsPerSecond: mean((figure) => figure.requestsPerSecond),
          p50Ms: mean((figure) => figure.p50Ms),
          items: probed.items,
          statements: probed.statements,
        });
      }
    }
  } finally {
    for (const side of sides) await side.close();
  }
  return { small: figures[0], large: figures[1] };
}

interface TaskFigure {
  name: string;
  ms: number;
  statements: CapturedStatement[];
}

async function runTasks(built: BuiltDatabase): Promise<TaskFigure[]> {
  const target = await openTarget(built.url);
  const figures: TaskFigure[] = [];
  try {
    for (const name of target.runtime.scheduler.names()) {
      let ms = 0;
      const statements = await captureStatements(async () => {
        const started = performance.now();
        await target.runtime.scheduler.runNow(name);
        ms = performance.now() - started;
      });
      figures.push({ name, ms, statements });
    }
  } finally {
    await target.close();
  }
  return figures;
}

/**
 * The 2500-date write and the 500-EAN import of the everyday bench, run as the largest provider
 * at the programme's size, against their usual targets.
 */
async function measureWrites(built: BuiltDatabase, durationSeconds: number, log: (line: string) => void) {
  const apiKey = await keyFor(built.url, built.largest);
  const target = await openTarget(built.url);
  const results = new BenchResults();
  try {
    const context: BenchContext = {
      target: {
        runtime: target.runtime,
        apiKey,
        owner: { providerId: built.largest, venueId: built.largest },
        engine: 'postgresql',
        close: async () => undefined,
      },
      facadeOrigin: target.origin,
      remoteOrigin: target.origin,
      unrecordedOrigin: target.origin,
      settleFacade: async () => undefined,
      settleRemote: async () => undefined,
      settings: { durationSeconds, connections: 10, warmUpSeconds: 1, rounds: 1 },
      headers: { authorization: `Bearer ${apiKey}` },
      results,
      log,
    };
    await eventDatesBench.run(context);
    await productImportBench.run(context);
  } finally {
    await target.close();
  }
  return results;
}

/** What is wrong with the plans of one read or task, at this size. */
function problemsOf(plans: ExplainedStatement[]): string[] {
  return plans.flatMap((explained) => planProblems(explained.plan, LARGE_TABLES, PAGE * 4));
}

/** Each statement with its time and plan, in the log above the report. */
function logPlans(label: string, plans: ExplainedStatement[], log: (line: string) => void): void {
  for (const explained of plans) {
    log(`\n${label}: ${explained.ms.toFixed(1)} ms\n  ${explained.text.replace(/\s+/g, ' ').slice(0, 400)}`);
    for (const outline of planOutline(explained.plan, 1)) log(outline);
  }
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

export async function runScaleBench(argv: string[]): Promise<number> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    console.error(
      'npm run bench -- --scale measures PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)',
    );
    return 1;
  }
  const factor = Number(process.env.BENCH_SCALE_FACTOR || 1);
  const durationSeconds = Number(process.env.BENCH_DURATION_SECONDS || 3);
  const rounds = Number(process.env.BENCH_ROUNDS || 3);
  const rebuild = argv.includes('--rebuild');
  // As the everyday bench: a target missed changes the exit code only when asked.
  const strict = argv.includes('--strict');
  const log = (line: string) => console.log(line);

  const today = await scaleDatabase(adminUrl, TODAY_FACTOR, rebuild, log);
  const scale = await scaleDatabase(adminUrl, factor, rebuild, log);
  let failed = 0;
  const lines: string[] = [];

  for (const role of ['largest', 'typical'] as const) {
    log(`\n--- reads of the ${role} provider`);
    const { small, large } = await measureReads(today, scale, role, { durationSeconds, rounds }, log);
    lines.push(
      `\nreads of the ${role} provider (${role === 'largest' ? 'rank 1' : 'the median of those with bookings'}): ` +
        `today's size provider ${today[role]}, programme's size provider ${scale[role]}`,
      `${pad('read', 24)} ${pad("today's req/s", 14)} ${pad('p50 ms', 7)} ${pad('at scale req/s', 15)} ${pad('p50 ms', 7)} ratio  target  plan`,
    );
    const plans = await Promise.all(large.map((figure) => explainAll(scale.url, figure.statements)));
    large.forEach((figure, index) => {
      const before = small.find((entry) => entry.key === figure.key);
      const { ratio, perItem } = before ? readRatio(before, figure) : { ratio: 0, perItem: false };
      const problems = problemsOf(plans[index]);
      const pass = figure.status === 200 && ratio >= READ_RATIO_TARGET && problems.length === 0;
      if (!pass) failed += 1;
      lines.push(
        `${pad(figure.key, 24)} ${pad(before ? before.requestsPerSecond.toFixed(0) : '-', 14)} ${pad(before ? before.p50Ms.toFixed(1) : '-', 7)} ` +
          `${pad(figure.requestsPerSecond.toFixed(0), 15)} ${pad(figure.p50Ms.toFixed(1), 7)} ${ratio.toFixed(2).padStart(5)}  ` +
          `${pass ? 'PASS' : 'FAIL'}    ${problems.length === 0 ? 'index only' : problems.join('; ')}` +
          (perItem ? ` (per entry: ${before?.items} answered today, ${figure.items} at scale)` : '') +
          (figure.status === 200 ? '' : ` (answered ${figure.status})`),
      );
      logPlans(`${role} / ${figure.key}`, plans[index], log);
    });
  }

  log('\n--- periodic tasks at the programme size');
  const tasks = await runTasks(scale);
  lines.push(`\nperiodic tasks at the programme's size, nothing due (target < ${TASK_TARGET_MS / 1000} s each)`);
  for (const task of tasks) {
    const plans = await explainAll(scale.url, task.statements);
    const problems = problemsOf(plans);
    const pass = task.ms < TASK_TARGET_MS && problems.length === 0;
    if (!pass) failed += 1;
    lines.push(
      `${pad(task.name, 32)} ${task.ms.toFixed(0).padStart(7)} ms  ${pass ? 'PASS' : 'FAIL'}  ${problems.length === 0 ? 'index only' : problems.join('; ')}`,
    );
    logPlans(task.name, plans, log);
  }

  log('\n--- writes as the largest provider at the programme size');
  const writes = await measureWrites(scale, durationSeconds, log);
  lines.push(`\nwrites as the largest provider at the programme's size, against their everyday targets`);
  for (const time of writes.times) {
    if (!time.pass) failed += 1;
    lines.push(
      `${pad(time.title, 40)} facade ${time.facadeMs.toFixed(0)} ms, by hand ${time.rawMs.toFixed(0)} ms: ${time.ratio.toFixed(2)}x (target <= ${time.target}x)  ${time.pass ? 'PASS' : 'FAIL'}`,
    );
  }
  for (const limit of writes.limits) {
    if (!limit.pass) failed += 1;
    lines.push(
      `${pad(limit.title, 40)} ${limit.ms.toFixed(0)} ms (target < ${limit.targetMs} ms)  ${limit.pass ? 'PASS' : 'FAIL'}; ${limit.detail}`,
    );
  }
  if (writes.failures > 0) {
    failed += 1;
    lines.push(`writes: ${writes.failures} request(s) failed or stored the wrong rows`);
  }

  console.log('\n=== scale report');
  console.log(
    `programme's size: factor ${factor}: ${scale.shape.providers} providers, ${scale.shape.offers} offers, ` +
      `${scale.shape.bookings} bookings, ${scale.shape.collectiveOffers} collective offers; today's: factor ${TODAY_FACTOR}`,
  );
  for (const line of lines) console.log(line);
  console.log(`\ntargets: ${failed === 0 ? 'every one PASS' : `${failed} FAIL`}`);
  return strict && failed > 0 ? 2 : 0;
}

// `npm run bench`: GET /public/providers/v1/provider through the facade against the same work
// written by hand on bare Express, in the same process, through the same driver and database;
// then one POST of 2500 event dates against the same inserts by hand (tests/bench/eventDates.ts),
// a page of 50 events with their price categories against four queries by hand (eventList.ts),
// a page of 50 products with their stocks against two queries by hand (productList.ts), and one
// bulk upsert of 500 EANs from the request to the job's completion (productImport.ts); and the
// bookings list on 100,000 bookings, a deep page against the first (bookingList.ts); and the
// 300 collective offers with their bookings against three queries by hand, then the facade's
// BOOKED filter once (collectiveList.ts).
import 'reflect-metadata';
import { createApp } from '../../server/app.js';
import { benchEventDates, eventDatesReport } from './eventDates.js';
import { benchBookingList } from './bookingList.js';
import { benchCollectiveList } from './collectiveList.js';
import { benchEventList } from './eventList.js';
import { benchProductImport, productImportReport } from './productImport.js';
import { benchProductList } from './productList.js';
import { compare } from './measure.js';
import { createRawProviderApp } from './rawProviderApp.js';
import { report } from './report.js';
import { type Listening, listen, verifySameAnswers } from './servers.js';
import { openBenchTarget } from './target.js';

const PATH = '/public/providers/v1/provider';
const ROUNDS = 2;

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

async function main(): Promise<number> {
  const durationSeconds = positiveInteger('BENCH_DURATION_SECONDS', 8);
  const connections = positiveInteger('BENCH_CONNECTIONS', 10);
  // The facade's JIT ramp is longer than raw Express's: a longer warm-up measures steadier state.
  const warmUpSeconds = positiveInteger('BENCH_WARMUP_SECONDS', 5);
  const target = await openBenchTarget(process.env.DATABASE_URL || undefined);
  const servers: Listening[] = [];
  try {
    const facade = await listen(createApp(target.runtime));
    servers.push(facade);
    const raw = await listen(createRawProviderApp(target.runtime));
    servers.push(raw);
    const contenders = [
      { label: 'facade', url: `${facade.origin}${PATH}` },
      { label: 'raw', url: `${raw.origin}${PATH}` },
    ];
    const body = await verifySameAnswers(contenders, target.apiKey);
    console.log(`GET ${PATH}: both answer 200 with the same body ${body}`);

    const headers = { authorization: `Bearer ${target.apiKey}` };
    const options = { durationSeconds, connections, warmUpSeconds, rounds: ROUNDS, headers };
    const { averages } = await compare(contenders, options, (line) => console.log(line));
    console.log(report({ path: PATH, engine: target.engine, ...options, averages }).text);

    const dates = await benchEventDates(target, (line) => console.log(line));
    console.log(eventDatesReport(dates));

    const events = await benchEventList(
      target,
      { durationSeconds, connections, warmUpSeconds, rounds: ROUNDS },
      (line) => console.log(line),
    );

    const products = await benchProductList(
      target,
      { durationSeconds, connections, warmUpSeconds, rounds: ROUNDS },
      (line) => console.log(line),
    );

    const imports = await benchProductImport(target, (line) => console.log(line));
    console.log(productImportReport(imports));

    const bookings = await benchBookingList(
      target,
      { durationSeconds, connections, warmUpSeconds, rounds: ROUNDS },
      (line) => console.log(line),
    );

    const collective = await benchCollectiveList(
      target,
      { durationSeconds, connections, warmUpSeconds, rounds: ROUNDS },
      (line) => console.log(line),
    );

    const failures =
      [...averages.values()].reduce((sum, figures) => sum + figures.non2xx + figures.failed, 0) +
      dates.failures +
      events.failures +
      products.failures +
      imports.failures +
      bookings.failures +
      collective.failures;
    if (failures > 0) console.error(`FAILED: ${failures} request(s) failed or answered non-2xx`);
    return failures > 0 ? 1 : 0;
  } finally {
    await Promise.all(servers.map((server) => server.close()));
    await target.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('bench failed:', error);
    process.exitCode = 1;
  },
);

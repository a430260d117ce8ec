// `npm run bench`: every read of issue 19 through the facade (createApp, the real path) against
// the same read written by hand on bare Express with SQL on the same connection, in the same
// process: both must answer the same bytes before any load (servers.ts), then alternating
// autocannon rounds with the process's memory measured (measure.ts, memory.ts; npm runs node with
// --expose-gc, so that the heap retained after each round is known). Then the writes:
// POST 2500 dates against the same inserts by hand (eventDates.ts), and 500 EANs imported to
// the job's completion (productImport.ts). One report at the end (report.ts).
//
// Options (after `--` through npm: `npm run bench -- --json out.json`; npm runs the script in the
// project root, so a relative file lands there):
//   --json <file>   also write the report's figures as JSON, to compare runs (compare.ts)
//   --only <keys>   run only these benchmarks, comma-separated (keys below); a seed that several
//                   share runs for whichever comes first, so their figures match a full run's
//   --strict        exit 2 when a target fails or a read's memory grew (default: targets never
//                   change the exit code; failed requests and differing answers always exit 1)
//   --instrumented  tracing at a 10% sample and metrics on, as operators run it (instrumentation.ts)
// Environment: DATABASE_URL (PostgreSQL; SQLite in a temporary file otherwise),
// BENCH_DURATION_SECONDS (3), BENCH_CONNECTIONS (10), BENCH_WARMUP_SECONDS (5), BENCH_ROUNDS (8).
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createApp } from '../../server/app.js';
import { bookingByTokenBench, bookingListBench } from './bookingList.js';
import { collectiveListBench, collectiveOfferBench } from './collectiveList.js';
import { eventDatesBench } from './eventDates.js';
import { eventBench, eventListBench } from './eventList.js';
import { type Bench, type BenchContext, BenchResults } from './harness.js';
import type { LoadSettings } from './measure.js';
import { productImportBench } from './productImport.js';
import { productListBench } from './productList.js';
import { offererVenuesBench, providerBench } from './providers.js';
import { buildReport, command, gitCommit, reportText } from './report.js';
import { listen } from './servers.js';
import { openBenchTarget, openRemoteTopology } from './target.js';
import type { Instrumentation } from './instrumentation.js';

/** Reads first, then the writes, which add events and products the reads must not see. */
const BENCHES: Bench[] = [
  providerBench,
  offererVenuesBench,
  eventListBench,
  eventBench,
  productListBench,
  bookingListBench,
  bookingByTokenBench,
  collectiveListBench,
  collectiveOfferBench,
  eventDatesBench,
  productImportBench,
];

interface Options {
  json: string | null;
  only: string[] | null;
  strict: boolean;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { json: null, only: null, strict: false };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    const value = () => {
      const next = argv[index + 1];
      if (next === undefined || next.startsWith('--')) throw new Error(`${argument} needs a value`);
      index += 1;
      return next;
    };
    if (argument === '--json') options.json = value();
    else if (argument === '--only') options.only = value().split(',').filter(Boolean);
    else if (argument === '--strict') options.strict = true;
    // Read by main.ts, before this module loads.
    else if (argument === '--instrumented') continue;
    else throw new Error(`unknown option ${argument}; options: --json <file>, --only <keys>, --strict, --instrumented`);
  }
  const unknown = options.only?.filter((key) => !BENCHES.some((bench) => bench.key === key)) ?? [];
  if (unknown.length > 0)
    throw new Error(`unknown benchmark ${unknown.join(', ')}; keys: ${BENCHES.map((bench) => bench.key).join(', ')}`);
  return options;
}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

/** The whole run (main.ts starts it, after the instrumentation when asked); resolves to the exit code. */
export async function runBench(instrumentation: Instrumentation | null): Promise<number> {
  const argv = process.argv.slice(2);
  const options = parseOptions(argv);
  const settings: LoadSettings = {
    durationSeconds: positiveInteger('BENCH_DURATION_SECONDS', 3),
    connections: positiveInteger('BENCH_CONNECTIONS', 10),
    // The facade's JIT ramp is longer than raw Express's: a longer warm-up measures steadier state.
    warmUpSeconds: positiveInteger('BENCH_WARMUP_SECONDS', 5),
    // Short rounds, alternated often: a side's throughput swings by up to 40 % from one stretch
    // of seconds to the next on this machine, and alternation puts the swings on both sides.
    rounds: positiveInteger('BENCH_ROUNDS', 8),
  };
  const date = new Date().toISOString();
  const target = await openBenchTarget(process.env.DATABASE_URL || undefined);
  const results = new BenchResults();
  try {
    const facade = await listen(createApp(target.runtime));
    const unrecorded = await listen(createApp(target.runtime, { recordRequests: false }));
    const remote = await openRemoteTopology(target);
    try {
      const context: BenchContext = {
        target,
        facadeOrigin: facade.origin,
        remoteOrigin: remote.origin,
        unrecordedOrigin: unrecorded.origin,
        settleFacade: () => target.runtime.requestLog.flush(),
        settleRemote: remote.settle,
        settings,
        headers: { authorization: `Bearer ${target.apiKey}` },
        results,
        log: (line) => console.log(line),
      };
      for (const bench of BENCHES.filter((entry) => !options.only || options.only.includes(entry.key))) {
        console.log(`\n--- ${bench.key}`);
        try {
          await bench.run(context);
        } catch (error) {
          // A pair that cannot be measured (different answers, a failed seed) fails the run, not the others.
          const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
          console.error(`${bench.key} failed: ${message}`);
          results.errors.push({ key: bench.key, message: error instanceof Error ? error.message : String(error) });
        }
      }
    } finally {
      await facade.close();
      await unrecorded.close();
      await remote.close();
    }
  } finally {
    await target.close();
  }

  const report = buildReport(
    {
      engine: target.engine,
      node: process.version,
      command: command(argv),
      date,
      commit: gitCommit(),
      settings,
      only: options.only,
      instrumentation: instrumentation?.describe() ?? null,
    },
    results,
  );
  console.log(reportText(report));
  if (options.json) {
    // `var/` is not in a fresh clone: a twelve-minute run should not end without its file.
    mkdirSync(dirname(options.json), { recursive: true });
    writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`JSON report written to ${options.json}`);
  }
  if (report.failures > 0 || report.errors.length > 0) return 1;
  return options.strict && (report.failed.length > 0 || report.memory.grew.length > 0) ? 2 : 0;
}

// `npm run fuzz`: schema-aware fuzzing of the public REST API, from the command line (not CI).
// Builds valid requests for every operation of the OpenAPI document, naming resources of a seeded
// sandbox, mutates one thing at a time, and holds every answer to the properties of runner.ts.
//   npm run fuzz -- --seed 7 --requests 100000 --database postgres://postgres@127.0.0.1:5432/test --json
// --database: `sqlite` (the default: in memory) or a PostgreSQL URL (a fresh database is made next
// to the one it names, then dropped); TEST_DATABASE_URL gives the same. Exits 1 on any failure.
import 'reflect-metadata';
import { type FuzzReport, runFuzz } from './runner.js';

interface Arguments {
  seed: number;
  requests: number;
  database: string | undefined;
  json: boolean;
}

function parseArguments(argv: string[]): Arguments {
  const options: Arguments = { seed: Date.now() % 1_000_000, requests: 10_000, database: undefined, json: false };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    const value = () => {
      const next = argv[(index += 1)];
      if (next === undefined) throw new Error(`${argument} needs a value`);
      return next;
    };
    if (argument === '--seed') options.seed = wholeNumber(argument, value());
    else if (argument === '--requests') options.requests = wholeNumber(argument, value());
    else if (argument === '--database') options.database = value();
    else if (argument === '--json') options.json = true;
    else throw new Error(`unknown argument ${argument} (--seed N, --requests N, --database sqlite|URL, --json)`);
  }
  return options;
}

function wholeNumber(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got ${raw}`);
  return value;
}

function printReport(report: FuzzReport): void {
  const lines = [
    `fuzz: seed ${report.seed} on ${report.engine}`,
    `  ${report.requests} fuzzed requests (${report.mutated} with one mutation), ${report.httpRequests} HTTP requests in all`,
    `  ${report.seconds.toFixed(1)} s, ${report.requestsPerSecond.toFixed(0)} requests per second`,
    `  statuses: ${Object.entries(report.statuses)
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ')}`,
    `  failures: ${report.failures.length} distinct${report.repeatedFailures ? ` (and ${report.repeatedFailures} repeats)` : ''}`,
  ];
  for (const failure of report.failures) {
    lines.push(
      `  - ${failure.kind} in ${failure.operationId} at step ${failure.step}${failure.mutation ? ` (${failure.mutation})` : ''}`,
      `    ${failure.detail}`,
      `    ${failure.reproduction}`,
    );
  }
  console.log(lines.join('\n'));
}

const options = parseArguments(process.argv.slice(2));
if (options.database && options.database !== 'sqlite') process.env.TEST_DATABASE_URL = options.database;
if (options.database === 'sqlite') delete process.env.TEST_DATABASE_URL;
// Ctrl-C (or a TERM) ends the run after the request under way, and prints what it found so far.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => (stopping = true));
const report = await runFuzz({
  seed: options.seed,
  requests: options.requests,
  shouldStop: () => stopping,
  onProgress: options.json ? undefined : (done) => process.stderr.write(`\r  ${done} / ${options.requests}`),
});
if (!options.json) process.stderr.write('\n');
if (options.json) console.log(JSON.stringify(report, null, 2));
else printReport(report);
process.exit(report.failures.length > 0 ? 1 : 0);

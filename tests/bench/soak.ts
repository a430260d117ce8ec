// `npm run soak` (not in CI): two processes of the built server on one PostgreSQL and one Redis,
// a mixed workload (reads, writes, bookings and the notifications they cause) spread over both
// for SOAK_SECONDS (60), after a short warm-up. Prints throughput, latency (p50, p99), errors
// (any answer but the one expected, and any failed request: 0 expected) and each process's
// resident memory at boot, after the warm-up, every 10 s and at the end.
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findProjectRoot } from '../../server/portal.js';
import { freshDatabase, type ServerChild, startServer } from './soakProcesses.js';
import { nextRequest, prepareSoakData, type SoakData, type SoakRequest } from './soakWorkload.js';

const SECONDS = positiveInteger('SOAK_SECONDS', 60);
const WARM_UP_SECONDS = positiveInteger('SOAK_WARMUP_SECONDS', 10);
const CONNECTIONS = positiveInteger('SOAK_CONNECTIONS', 16);
const RSS_SAMPLE_MS = 10_000;
/** How long the outbox may take, after the load, to deliver the last notifications. */
const DRAIN_TIMEOUT_MS = 60_000;

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

/** A deterministic random source: two runs send the same mix. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

interface Tally {
  latenciesMs: number[];
  byKind: Map<string, { latenciesMs: number[]; errors: number }>;
  errors: string[];
}

async function send(server: ServerChild, key: string, request: SoakRequest): Promise<string | null> {
  const response = await fetch(`${server.baseUrl}${request.path}`, {
    method: request.method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const text = await response.text();
  if (response.status !== request.expected)
    return `${request.kind} on ${server.label}: ${response.status} ${text.slice(0, 200)}`;
  if (request.graphql && (JSON.parse(text) as { errors?: unknown }).errors)
    return `${request.kind} on ${server.label}: ${text.slice(0, 200)}`;
  return null;
}

/** CONNECTIONS loops, each sending its next request as soon as its last is answered, alternating the processes. */
async function drive(servers: ServerChild[], data: SoakData, seconds: number, first: number, tally: Tally) {
  const random = seeded(first + 1);
  const deadline = Date.now() + seconds * 1000;
  let counter = first;
  const loop = async () => {
    while (Date.now() < deadline) {
      const n = (counter += 1);
      const request = nextRequest(data, n, random);
      const started = performance.now();
      const failure = await send(servers[n % servers.length], data.keys[n % data.keys.length], request).catch(
        (error: unknown) => `${request.kind}: ${String(error)}`,
      );
      const latency = performance.now() - started;
      tally.latenciesMs.push(latency);
      const kind = tally.byKind.get(request.kind) ?? { latenciesMs: [], errors: 0 };
      kind.latenciesMs.push(latency);
      if (failure) {
        kind.errors += 1;
        tally.errors.push(failure);
      }
      tally.byKind.set(request.kind, kind);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  return counter;
}

/** `p50 12.3 ms  p99 45.6 ms` */
function latencies(values: number[]): string {
  const sorted = [...values].sort((left, right) => left - right);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
  return `p50 ${at(0.5).toFixed(1)} ms  p99 ${at(0.99).toFixed(1)} ms`;
}

async function main(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl?.startsWith('postgres') || !redisUrl) {
    console.error(
      'npm run soak needs DATABASE_URL=postgres://... and REDIS_URL=redis://... (a fresh database is made next to it)',
    );
    return 2;
  }
  const projectRoot = findProjectRoot();
  const database = await freshDatabase(databaseUrl);
  const notified = new Set<string>();
  let notifications = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      notifications += 1;
      notified.add(String(request.headers['passculture-message-id']));
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const servers: ServerChild[] = [];
  try {
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      LOG_LEVEL: process.env.SOAK_LOG_LEVEL || 'info',
      IMAGE_DIRECTORY: `${database.directory}/images`,
    };
    // The first migrates and makes the demo sandbox; the second starts on the database as it is.
    servers.push(await startServer('A', projectRoot, env));
    servers.push(await startServer('B', projectRoot, env));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notify`;
    const data = await prepareSoakData(database.url, receiverUrl);
    const rss = servers.map((server) => ({ label: server.label, boot: server.rssMb(), samples: [] as number[] }));
    const sampleRss = () => rss.forEach((entry, index) => entry.samples.push(servers[index].rssMb()));
    console.log(`soak: 2 processes, PostgreSQL and Redis, ${CONNECTIONS} connections, warm-up ${WARM_UP_SECONDS} s`);

    const warmUp: Tally = { latenciesMs: [], byKind: new Map(), errors: [] };
    const afterWarmUp = await drive(servers, data, WARM_UP_SECONDS, 0, warmUp);
    sampleRss();

    const tally: Tally = { latenciesMs: [], byKind: new Map(), errors: [] };
    const started = performance.now();
    // Every 10 s: growth that keeps on is a leak, growth that levels off is the heap settling.
    const sampler = setInterval(sampleRss, RSS_SAMPLE_MS);
    await drive(servers, data, SECONDS, afterWarmUp, tally);
    clearInterval(sampler);
    const elapsedSeconds = (performance.now() - started) / 1000;
    sampleRss();

    const bookings = [warmUp, tally].reduce((sum, run) => sum + (run.byKind.get('book')?.latenciesMs.length ?? 0), 0);
    const drainDeadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (notified.size < bookings && Date.now() < drainDeadline) await new Promise((r) => setTimeout(r, 250));

    console.log(`requests   ${tally.latenciesMs.length} in ${elapsedSeconds.toFixed(1)} s`);
    console.log(`throughput ${(tally.latenciesMs.length / elapsedSeconds).toFixed(0)} req/s`);
    console.log(`latency    ${latencies(tally.latenciesMs)}`);
    console.log(`errors     ${tally.errors.length + warmUp.errors.length} (warm-up included)`);
    for (const [kind, figures] of [...tally.byKind].sort())
      console.log(
        `  ${kind.padEnd(14)} ${String(figures.latenciesMs.length).padStart(7)} requests, ${figures.errors} errors, ${latencies(figures.latenciesMs)}`,
      );
    for (const error of [...warmUp.errors, ...tally.errors].slice(0, 5)) console.log(`  e.g. ${error}`);
    console.log(
      `notified   ${notified.size} of ${bookings} bookings (${notifications} deliveries received, by message id)`,
    );
    for (const entry of rss)
      console.log(
        `RSS ${entry.label}      boot ${entry.boot.toFixed(0)} MB, start ${entry.samples[0].toFixed(0)} MB, ` +
          `end ${entry.samples.at(-1)!.toFixed(0)} MB (every 10 s: ${entry.samples.map((mb) => mb.toFixed(0)).join(' ')})`,
      );
    for (const server of servers)
      if (server.child.exitCode !== null) console.log(`process ${server.label} died:\n${server.stderrTail()}`);
    const failed = tally.errors.length + warmUp.errors.length > 0 || notified.size < bookings;
    return failed ? 1 : 0;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    receiver.close();
    await database.drop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

import { RequestLogBody, RequestLogEntry } from '../../platform/requestLog/index.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Logger, pino } from 'pino';
import { MockAgent } from 'undici';
import { SettableClock } from '../../platform/time/clock.js';
import { createSandbox } from '../../graphql/providers/sandbox.js';
import { createApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { JobRegistry } from '../../platform/jobs/registry.js';
import { JobWorker } from '../../platform/jobs/worker.js';
import { type Core, createRuntime, type Runtime } from '../../server/runtime.js';
import { FORWARDED_EVENT_JOB_PREFIX } from '../../server/work/eventDelivery.js';
import { startSubgraphServices } from '../support/subgraphServices.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/** The moment the sandbox lives at: fixed, so that a seed replays the same dates. */
export const FUZZ_NOW = new Date('2026-11-22T10:00:00Z');

/** What the fuzzer has created so far and may name in later requests (a sequence's resources). */
export interface Pools {
  physicalVenueIds: number[];
  digitalVenueIds: number[];
  sirets: string[];
  siren: string;
  addressIds: number[];
  eventIds: number[];
  productIds: number[];
  priceCategoryIds: Map<number, number[]>;
  stockIds: Map<number, number[]>;
  collectiveOfferIds: number[];
  collectiveBookingIds: number[];
  bookingTokens: string[];
}

export interface Answer {
  status: number;
  text: string;
  body: unknown;
}

export interface SentRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** A multipart upload: its fields as text, the file as bytes. */
  form?: { fields: Record<string, string>; file?: { name: string; bytes: Buffer; type: string } };
}

/**
 * The fuzzer's world: the whole app on a database of its own (SQLite in memory, or a fresh
 * PostgreSQL database when TEST_DATABASE_URL is set), listening on 127.0.0.1, with the sandbox
 * provider, its key, and no way out: outgoing calls meet a network that refuses every connection,
 * the rate limit is out of reach, and images go to a temporary folder.
 */
export interface World {
  runtime: Runtime;
  database: TestDatabase;
  clock: SettableClock;
  apiKey: string;
  pools: Pools;
  baseUrl: string;
  send(request: SentRequest): Promise<Answer>;
  graphql(query: string, variables: Record<string, unknown>): Promise<{ data?: any; errors?: unknown[] }>;
  /** Rows of every table, by table: what a refused request must leave as it was. */
  rowCounts(): Promise<Record<string, number>>;
  /** Runs the jobs due (messages, imports, approvals) until none is left, in every process of the topology. */
  drainJobs(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `in-process`: the whole graph in the API process (the default). `subgraph-services`: the four
 * subgraphs as services on 127.0.0.1 (in this process) behind the API process, their domain events
 * handed over by the outbox and run as soon as each request is answered, so that a sequence sees
 * the same effects at the same step in both.
 */
export type Topology = 'in-process' | 'subgraph-services';

export async function openWorld(topology: Topology = 'in-process'): Promise<World> {
  const database = await createTestDatabase();
  const imageDirectory = await mkdtemp(join(tmpdir(), 'fuzz-images-'));
  const clock = new SettableClock(new Date(FUZZ_NOW));
  const network = new MockAgent();
  network.disableNetConnect();
  const logger = pino({ level: 'silent' });
  const config = loadConfig({ LOG_LEVEL: 'silent', APP_ENV: 'development', IMAGE_DIRECTORY: imageDirectory });
  const services =
    topology === 'subgraph-services'
      ? await startSubgraphServices({ config, orm: database.orm, logger, clock, outbound: { transport: network } })
      : null;
  const runtime = await createRuntime(services?.apiConfig ?? config, {
    orm: database.orm,
    clock,
    logger,
    rateLimitPoints: 1_000_000_000,
    outbound: { transport: network },
  });
  const workers = services ? Object.values(services.cores).map((core) => core.worker) : [runtime.worker];
  const eventWorkers = services ? Object.values(services.cores).map((core) => handedOverEvents(core, logger)) : [];
  /** In process, an event's effects are in its publisher's transaction: across services, run them now. */
  const settleEvents = async () => {
    // Bounded as drainJobs is: a handed-over event retried at once must fail the run, not hang it.
    for (const worker of eventWorkers) {
      for (let round = 0; round < 20 && (await worker.runDueJobs()).claimed > 0; round += 1);
    }
  };
  const app = createApp(runtime);
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sandbox = await createSandbox(database.orm.em.fork(), clock, 'test');

  // The request log records every request, a refused one included: a record of the exchange, not a write of it.
  const REQUEST_LOG: unknown[] = [RequestLogEntry, RequestLogBody];
  const tables = [
    ...new Set(
      Object.values(database.orm.getMetadata().getAll())
        .filter((meta) => !meta.embeddable && !meta.virtual && meta.tableName && !REQUEST_LOG.includes(meta.class))
        .map((meta) => meta.tableName),
    ),
  ].sort();
  const countQuery = `select ${tables.map((table, index) => `(select count(*) from "${table}") as c${index}`).join(', ')}`;

  const pools: Pools = {
    physicalVenueIds: sandbox.venues.filter((venue) => !venue.isVirtual).map((venue) => venue.id),
    digitalVenueIds: sandbox.venues.filter((venue) => venue.isVirtual).map((venue) => venue.id),
    sirets: sandbox.venues.map((venue) => venue.siret).filter((siret): siret is string => siret !== null),
    siren: sandbox.offerer.siren,
    addressIds: sandbox.venues.flatMap((venue) => (venue.address ? [venue.address.id] : [])),
    eventIds: [],
    productIds: [],
    priceCategoryIds: new Map(),
    stockIds: new Map(),
    collectiveOfferIds: [],
    collectiveBookingIds: [],
    bookingTokens: [],
  };

  const authorization = { Authorization: `Bearer ${sandbox.apiKey}` };
  return {
    runtime,
    database,
    clock,
    apiKey: sandbox.apiKey,
    pools,
    baseUrl,
    async send(request) {
      const url = new URL(request.path, baseUrl);
      for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.append(name, value);
      let body: string | FormData | undefined;
      const headers: Record<string, string> = { ...authorization };
      if (request.form) {
        const form = new FormData();
        for (const [name, value] of Object.entries(request.form.fields)) form.append(name, value);
        if (request.form.file)
          form.append(
            'file',
            new Blob([new Uint8Array(request.form.file.bytes)], { type: request.form.file.type }),
            request.form.file.name,
          );
        body = form;
      } else if (request.body !== undefined) {
        body = JSON.stringify(request.body);
        headers['Content-Type'] = 'application/json';
      }
      const response = await fetch(url, { method: request.method.toUpperCase(), headers, body });
      const text = await response.text();
      await settleEvents();
      let parsed: unknown;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = text;
      }
      return { status: response.status, text, body: parsed };
    },
    async graphql(query, variables) {
      const response = await fetch(new URL('/graphql', baseUrl), {
        method: 'POST',
        headers: { ...authorization, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      const answer = (await response.json()) as { data?: any; errors?: unknown[] };
      await settleEvents();
      return answer;
    },
    async rowCounts() {
      const [row] = await database.orm.em.getConnection().execute<Record<string, unknown>[]>(countQuery);
      return Object.fromEntries(tables.map((table, index) => [table, Number(row[`c${index}`])]));
    },
    async drainJobs() {
      for (const worker of workers) {
        for (let round = 0; round < 20 && (await worker.runDueJobs()).claimed > 0; round += 1);
      }
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.close();
      await services?.close();
      await database.destroy();
      await rm(imageDirectory, { recursive: true, force: true });
    },
  };
}

/** A worker for the domain events a service was handed (domainEvent.* jobs) and nothing else. */
function handedOverEvents(core: Core, logger: Logger): JobWorker {
  const registry = new JobRegistry();
  for (const type of core.jobs.types().filter((name) => name.startsWith(FORWARDED_EVENT_JOB_PREFIX))) {
    registry.register(type, core.jobs.get(type)!, { outsideTransaction: core.jobs.runsOutsideTransaction(type) });
  }
  return new JobWorker({ orm: core.orm, registry, clock: core.clock, logger, leaseMs: 60_000 });
}

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '../../graphql/providers/sandbox.js';
import { loadConfig } from '../../server/config.js';
import { openDatabase } from '../../server/db/orm.js';
import { pino } from 'pino';
import { createApp } from '../../server/app.js';
import { createRuntime, type Runtime } from '../../server/runtime.js';
import { startSubgraphServices } from '../support/subgraphServices.js';
import { listen } from './servers.js';

/** Only so that a benchmark measures the limiter without being stopped by it. */
export const RATE_LIMIT_POINTS = 1_000_000_000;

export interface BenchTarget {
  runtime: Runtime;
  apiKey: string;
  /** The sandbox provider and its first venue, owner of what benchmarks create. */
  owner: { providerId: number; venueId: number };
  /** What the output names as the database, e.g. `sqlite (libsql) file /tmp/...`. */
  engine: string;
  close(): Promise<void>;
}

/**
 * The real runtime on a database of the benchmark's own, with a fresh sandbox provider and key:
 * SQLite in a temporary file by default; with `databaseUrl`, a throw-away `bench_<random>`
 * database on that PostgreSQL server, dropped at the end. Every run starts from the same empty
 * database, so two runs measure the same data, and nothing is left in the database named.
 */
export async function openBenchTarget(databaseUrl: string | undefined): Promise<BenchTarget> {
  if (!databaseUrl) {
    const directory = mkdtempSync(join(tmpdir(), 'provider-platform-bench-'));
    const path = join(directory, 'bench.sqlite');
    const removeDirectory = () => rmSync(directory, { recursive: true, force: true });
    try {
      return await boot({ SQLITE_PATH: path }, `sqlite (libsql), temporary file ${path}`, removeDirectory);
    } catch (error) {
      removeDirectory();
      throw error;
    }
  }

  const name = `bench_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(databaseUrl, `CREATE DATABASE "${name}"`);
  const url = databaseUrlOf(databaseUrl, name);
  const dropDatabase = () => withAdmin(databaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  try {
    return await boot(
      { DATABASE_URL: url },
      `postgresql, throw-away database ${redact(url)} (dropped at the end)`,
      dropDatabase,
    );
  } catch (error) {
    await dropDatabase().catch(() => undefined);
    throw error;
  }
}

/** Prometheus's default scrape interval is 1 minute; 15 s is the usual setting, and the costlier. */
const SCRAPE_INTERVAL_MS = 15_000;

async function boot(
  database: { SQLITE_PATH: string } | { DATABASE_URL: string },
  engine: string,
  cleanUp: () => unknown,
): Promise<BenchTarget> {
  // METRICS_PORT=0 npm run bench: the same run with metrics on, scraped as Prometheus would (every 15 s).
  const metrics = process.env.METRICS_PORT ? { METRICS_PORT: process.env.METRICS_PORT } : {};
  const config = loadConfig({ LOG_LEVEL: 'silent', WORKER_ENABLED: 'false', ...database, ...metrics });
  const runtime = await createRuntime(config, { rateLimitPoints: RATE_LIMIT_POINTS });
  const scrapes = config.metrics ? setInterval(() => void runtime.metrics.text(), SCRAPE_INTERVAL_MS) : null;
  scrapes?.unref();
  try {
    const sandbox = await createSandbox(runtime.orm.em.fork(), runtime.clock, 'bench');
    return {
      runtime,
      apiKey: sandbox.apiKey,
      owner: { providerId: sandbox.provider.id, venueId: sandbox.venues[0].id },
      engine,
      async close() {
        if (scrapes) clearInterval(scrapes);
        await runtime.close();
        await cleanUp();
      },
    };
  } catch (error) {
    await runtime.close().catch(() => undefined);
    throw error;
  }
}

/** The URL of database `name` on the server `serverUrl` names. */
export function databaseUrlOf(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement (CREATE or DROP DATABASE) on the database the URL names. */
export async function withAdmin(adminUrl: string, statement: string): Promise<void> {
  const admin = await openDatabase({ kind: 'postgresql', url: adminUrl });
  try {
    await admin.em.getConnection().execute(statement);
  } finally {
    await admin.close(true);
  }
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/**
 * The other topology on the target's database: the four subgraph services on 127.0.0.1 and an
 * API process in front of them (SUBGRAPH_URLS), all in this process, so that a read through a
 * service costs its hop (HTTP, JSON, the signed caller) on the same CPU as the read in process.
 */
export async function openRemoteTopology(
  target: BenchTarget,
): Promise<{ origin: string; settle: () => Promise<void>; close(): Promise<void> }> {
  const logger = pino({ level: 'silent' });
  const { runtime } = target;
  const services = await startSubgraphServices({
    config: runtime.config,
    orm: runtime.orm,
    logger,
    clock: runtime.clock,
  });
  const api = await createRuntime(services.apiConfig, {
    orm: runtime.orm,
    clock: runtime.clock,
    logger,
    rateLimitPoints: RATE_LIMIT_POINTS,
  });
  const server = await listen(createApp(api));
  return {
    origin: server.origin,
    // Its API process records its requests with a writer of its own.
    settle: () => api.requestLog.flush(),
    async close() {
      await server.close();
      await api.close();
      await services.close();
    },
  };
}

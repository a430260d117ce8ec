import type { Express } from 'express';
import { pino } from 'pino';
import { SettableClock } from '../../platform/time/clock.js';
import { createApp, type AppOptions } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../server/runtime.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestApp {
  app: Express;
  runtime: Runtime;
  database: TestDatabase;
  clock: SettableClock;
  close(): Promise<void>;
}

export interface TestAppOptions extends AppOptions {
  env?: Record<string, string>;
  clock?: SettableClock;
  /** Another app's database, to run a second instance on the same data; its owner destroys it. */
  database?: TestDatabase;
  /** The outgoing calls' resolver, the addresses reached despite their range, or a stand-in network. */
  outbound?: RuntimeOptions['outbound'];
  /** The runtime's logger (silent by default): a test that reads the warnings gives its own. */
  logger?: RuntimeOptions['logger'];
  /** A smaller rate-limit budget, for a test that must reach it. */
  rateLimitPoints?: number;
}

/** A whole app on a database of its own, as the process would build it, minus listen(). */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config: Config = loadConfig({
    LOG_LEVEL: 'silent',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...options.env,
  });
  const clock = options.clock ?? new SettableClock(new Date('2026-11-22T10:00:00Z'));
  const runtime = await createRuntime(config, {
    orm: database.orm,
    clock: clock,
    logger: options.logger ?? pino({ level: 'silent' }),
    outbound: options.outbound,
    rateLimitPoints: options.rateLimitPoints,
  });
  const app = createApp(runtime, options);
  return {
    app,
    runtime,
    database,
    clock,
    async close() {
      await runtime.close();
      if (!options.database) await database.destroy();
    },
  };
}

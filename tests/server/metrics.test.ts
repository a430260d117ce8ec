import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueMessage, SEND_MESSAGE_JOB } from '../../graphql/bookings/messages.js';
import { AUTO_APPROVAL_JOB } from '../../graphql/offers/offerReview.js';
import { Job } from '../../platform/jobs/Job.js';
import { enqueue } from '../../platform/jobs/outbox.js';
import { UNHANDLED_JOBS_TASK } from '../../platform/jobs/queueFigures.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { graphqlAs } from '../support/builders.js';
import { isPostgresTestRun } from '../support/database.js';
import { aProvider } from '../support/fixtures.js';
import { Receiver } from '../support/receiver.js';

/**
 * The metrics an API process collects, read from its registry as a scrape reads them (the
 * scrape-time collectors run first), after real requests through the app.
 */
type Labels = Record<string, string>;

async function sample(testApp: TestApp, name: string, labels: Labels = {}): Promise<number | undefined> {
  await testApp.runtime.metrics.text();
  const base = name.replace(/_(bucket|count|sum)$/, '');
  const metric = testApp.runtime.metrics.registry.getSingleMetric(base);
  if (!metric) throw new Error(`No metric ${base}`);
  const { values } = await metric.get();
  const found = values.find(
    (value) =>
      ((value as { metricName?: string }).metricName ?? base) === name &&
      Object.entries(labels).every(([label, wanted]) => String(value.labels[label]) === wanted),
  );
  return found?.value;
}

const engine = isPostgresTestRun() ? 'PostgreSQL' : 'SQLite';

describe(`metrics of an API process (${engine})`, () => {
  let testApp: TestApp;
  let apiKey: string;
  const warnings: Record<string, unknown>[] = [];

  beforeAll(async () => {
    // The warnings land here: the unhandled jobs' line is one of them.
    const logger = pino(
      { level: 'warn', base: undefined },
      { write: (line: string) => void warnings.push(JSON.parse(line) as Record<string, unknown>) },
    );
    testApp = await createTestApp({
      env: {
        METRICS_PORT: '0',
        // bookings is hosted by a service that does not run: its jobs are claimed by no process.
        SUBGRAPH_URLS: 'bookings=http://127.0.0.1:9/graphql',
        INTERNAL_SIGNING_SECRET: 'x'.repeat(32),
      },
      logger,
      rateLimitPoints: 5,
    });
    ({ apiKey } = await aProvider(testApp.database.orm.em.fork(), testApp.clock));
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const get = (path: string, key = apiKey) => request(testApp.app).get(path).set('Authorization', `Bearer ${key}`);

  it('counts REST requests by route template and status class, never by raw path', async () => {
    const before =
      (await sample(testApp, 'platform_http_request_duration_seconds_count', {
        route: '/public/providers/v1/provider',
        method: 'GET',
        status_class: '2xx',
      })) ?? 0;
    expect((await get('/public/providers/v1/provider')).status).toBe(200);
    expect((await get('/public/offers/v1/addresses/987654')).status).toBe(404);
    expect((await get('/public/no-such-thing/zz-raw-path-41')).status).toBe(404);

    expect(
      await sample(testApp, 'platform_http_request_duration_seconds_count', {
        route: '/public/providers/v1/provider',
        method: 'GET',
        status_class: '2xx',
      }),
    ).toBe(before + 1);
    expect(
      await sample(testApp, 'platform_http_request_duration_seconds_count', {
        route: '/public/offers/v1/addresses/{address_id}',
        status_class: '4xx',
      }),
    ).toBe(1);
    expect(
      await sample(testApp, 'platform_http_request_duration_seconds_count', {
        route: 'unmatched',
        status_class: '4xx',
      }),
    ).toBe(1);
    const text = await testApp.runtime.metrics.text();
    expect(text).not.toContain('zz-raw-path-41');
    expect(text).not.toContain('987654');
  });

  it('counts a request the rate limit refuses, under its route and in the refusals', async () => {
    const { apiKey: busyKey } = await aProvider(testApp.database.orm.em.fork(), testApp.clock);
    const refusalsBefore = (await sample(testApp, 'platform_rate_limit_refusals_total', { source: 'rest' })) ?? 0;
    const statuses: number[] = [];
    for (let index = 0; index < 7; index += 1)
      statuses.push((await get('/public/providers/v1/provider', busyKey)).status);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2);

    expect(await sample(testApp, 'platform_rate_limit_refusals_total', { source: 'rest' })).toBe(refusalsBefore + 2);
    expect(
      await sample(testApp, 'platform_http_request_duration_seconds_count', {
        route: '/public/providers/v1/provider',
        status_class: '4xx',
      }),
    ).toBeGreaterThanOrEqual(2);
  });

  it('counts /graphql operations by name, anonymous and unknown ones collapsed', async () => {
    const { apiKey: graphKey } = await aProvider(testApp.database.orm.em.fork(), testApp.clock);
    expect((await graphqlAs(testApp, graphKey, 'query Formats { collectiveOfferFormats }')).status).toBe(200);
    expect((await graphqlAs(testApp, graphKey, '{ collectiveOfferFormats }')).status).toBe(200);
    expect((await graphqlAs(testApp, graphKey, 'query Broken { noSuchField }')).status).toBe(400);

    const count = 'platform_graphql_operation_duration_seconds_count';
    expect(await sample(testApp, count, { operation: 'Formats', outcome: 'ok' })).toBe(1);
    expect(await sample(testApp, count, { operation: '(anonymous)', outcome: 'ok' })).toBe(1);
    expect(await sample(testApp, count, { operation: '(unresolved)', outcome: 'error' })).toBe(1);
    expect(await testApp.runtime.metrics.text()).not.toContain('operation="Broken"');
    expect(await sample(testApp, 'platform_http_request_duration_seconds_count', { route: '/graphql' })).toBe(2);
  });

  it('reads the job outbox at scrape time: waiting, failed, the oldest wait, and what no process handles', async () => {
    const { orm } = testApp.database;
    const em = orm.em.fork();
    const now = testApp.clock.now();
    // Due ten minutes ago: a message the bookings service (not running) would send, and an offers job this process runs.
    enqueue(em, testApp.clock, SEND_MESSAGE_JOB, { messageId: 1 }, { runAt: new Date(now.getTime() - 600_000) });
    enqueue(em, testApp.clock, AUTO_APPROVAL_JOB, { offerIds: [] }, { runAt: new Date(now.getTime() - 60_000) });
    const failed = enqueue(em, testApp.clock, AUTO_APPROVAL_JOB, { offerIds: [] });
    await em.flush();
    await orm.em.fork().nativeUpdate(Job, { id: failed.id }, { status: 'failed' });
    // This process's worker says which types it claims (startBackgroundWork does it every 30 s).
    await testApp.runtime.presence.beat();

    expect(await sample(testApp, 'platform_jobs_waiting', { type: SEND_MESSAGE_JOB })).toBe(1);
    expect(await sample(testApp, 'platform_jobs_oldest_waiting_seconds', { type: SEND_MESSAGE_JOB })).toBe(600);
    expect(await sample(testApp, 'platform_jobs_unhandled', { type: SEND_MESSAGE_JOB })).toBe(1);
    expect(await sample(testApp, 'platform_jobs_waiting', { type: AUTO_APPROVAL_JOB })).toBe(1);
    expect(await sample(testApp, 'platform_jobs_unhandled', { type: AUTO_APPROVAL_JOB })).toBe(0);
    expect(await sample(testApp, 'platform_jobs_failed', { type: AUTO_APPROVAL_JOB })).toBe(1);
    expect(await sample(testApp, 'platform_jobs_running', { type: AUTO_APPROVAL_JOB })).toBe(0);
    expect(await sample(testApp, 'platform_database_up')).toBe(1);

    await testApp.runtime.scheduler.runNow(UNHANDLED_JOBS_TASK);
    const lines = warnings.filter((line) => line.jobType === SEND_MESSAGE_JOB);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        waiting: 1,
        oldestWaitingSeconds: 600,
        subgraph: 'bookings',
        msg: expect.stringContaining('no running process handles'),
      }),
    ]);
    expect(warnings.some((line) => line.jobType === AUTO_APPROVAL_JOB)).toBe(false);
  });

  it('reports the database pool and the process (event loop delay, memory)', async () => {
    expect(await sample(testApp, 'platform_db_pool_max_connections')).toBe(isPostgresTestRun() ? 10 : 1);
    expect(await sample(testApp, 'platform_db_pool_connections', { state: 'free' })).toBeGreaterThanOrEqual(0);
    const text = await testApp.runtime.metrics.text();
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d/m);
  });
});

describe(`metrics of a process that sends messages (${engine})`, () => {
  let testApp: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    testApp = await createTestApp({ env: { METRICS_PORT: '0' } });
    receiver = await Receiver.start();
  });

  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
  });

  it('counts a failed delivery by reason, and a message given up as final', async () => {
    receiver.answer('/notify', { status: 503 });
    const { provider } = await aProvider(testApp.database.orm.em.fork(), testApp.clock);
    const em = testApp.database.orm.em.fork();
    await queueMessage(em, testApp.clock, {
      providerId: provider.id,
      bookingId: null,
      kind: 'BOOKING_NOTIFICATION',
      url: receiver.url('/notify'),
      payload: { action: 'BOOK' },
      // A test event is tried once: its one failure is final.
      isTest: true,
    });
    await em.flush();
    expect(await testApp.runtime.worker.runDueJobs()).toMatchObject({ claimed: 1, failed: 1 });

    expect(
      await sample(testApp, 'platform_message_delivery_failures_total', {
        kind: 'BOOKING_NOTIFICATION',
        reason: 'status_5xx',
        final: 'true',
      }),
    ).toBe(1);
    expect(await sample(testApp, 'platform_jobs_failed', { type: SEND_MESSAGE_JOB })).toBe(1);
  });
});

import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Beneficiary } from '../../graphql/bookings/Beneficiary.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { subgraphNames, type SubgraphName } from '../../graphql/subgraphNames.js';
import { tracedLibraries } from '../../server/config.js';
import { systemClock } from '../../platform/time/clock.js';
import { aBookableDate } from '../support/builders.js';
import { isPostgresTestRun } from '../support/database.js';
import { OtlpReceiver, type ReceivedSpan, SPAN_KIND } from '../support/otlpReceiver.js';
import { Receiver } from '../support/receiver.js';
import { parseJsonLine, type ServerProcess } from '../support/serverProcess.js';
import { useServerRuns } from './serverRuns.js';

/**
 * Traces (issue 37): the real processes export OTLP (http/json) to a collector of the test's own.
 * On PostgreSQL and Redis, the services topology (the four subgraph services behind the API
 * process), whose database calls the pg instrumentation traces; on SQLite, one process (SQLite is
 * one process's database), whose statements our own spans trace.
 */
const redisUrl = process.env.REDIS_URL;
const services = isPostgresTestRun() && redisUrl !== undefined;
const SECRET = 'traces-test-signing-secret-0123456789abc';
const BOOK = `mutation Book($input: SandboxBookingInput!) { sandboxBook(input: $input) { id } }`;

describe(`traces across ${services ? 'the API process and the subgraph services' : 'one process'}`, () => {
  const runs = useServerRuns('traces-');
  const processes = new Map<'api' | SubgraphName, ServerProcess>();
  let collector: OtlpReceiver;
  let provider: Receiver;
  let key: string;
  let demo: { providerId: number; venueId: number };

  const tracingEnv = () => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    // Spans sent within 100 ms rather than 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '100',
    // Every instrumentation, express's included, which only a name in this list loads.
    ...(services
      ? {
          REDIS_URL: redisUrl,
          INTERNAL_SIGNING_SECRET: SECRET,
          OTEL_NODE_ENABLED_INSTRUMENTATIONS: tracedLibraries.join(','),
        }
      : {}),
  });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${processes.get('api')!.baseUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers },
    });
  const isDatabaseSpan = (span: ReceivedSpan) =>
    span.scope === '@opentelemetry/instrumentation-pg' || span.attributes['db.system.name'] === 'sqlite';

  beforeAll(async () => {
    collector = await OtlpReceiver.start();
    provider = await Receiver.start();
    if (services) {
      await Promise.all(
        subgraphNames.map(async (name) => processes.set(name, await runs.startSubgraph(name, tracingEnv()))),
      );
    }
    const urls = subgraphNames.map((name) => `${name}=${processes.get(name)?.baseUrl}/graphql`).join(',');
    const api = await runs.start({ ...tracingEnv(), ...(services ? { SUBGRAPH_URLS: urls } : {}) });
    processes.set('api', api);
    key = /Demo API key: (\S+)/.exec(api.lines.find((line) => line.startsWith('Demo API key: '))!)![1];
    demo = await runs.readDatabase(async (em: EntityManager) => {
      const found = await em.findOneOrFail(
        Provider,
        { id: { $gt: 0 } },
        { orderBy: { id: 'asc' }, populate: ['messagingSecret'] },
      );
      provider.secret = found.messagingSecret;
      // The booking's notification goes to this test's provider system.
      await em.nativeUpdate(Provider, { id: found.id }, { notificationUrl: provider.url('/notify') });
      const [offerer] = await em.find(Offerer, {}, { orderBy: { id: 'asc' } });
      const [venue] = await em.find(Venue, { offerer, isVirtual: false }, { orderBy: { id: 'asc' } });
      return { providerId: found.id, venueId: venue.id };
    });
  }, 240_000);
  afterAll(async () => {
    await collector?.close();
    await provider?.close();
  });

  it('follows one REST request from the API process into the service that ran it and its database calls', async () => {
    const answer = await call('/public/offers/v1/events?limit=5', { headers: { 'X-Request-Id': 'traced-events' } });
    expect(answer.status).toBe(200);

    const request = await collector.waitFor(
      (span) => span.kind === SPAN_KIND.server && span.attributes['http.route'] === '/public/offers/v1/events',
      'for the request on the API process',
    );
    expect(request.service).toBe('provider-platform-api');
    expect(request.name).toBe('GET /public/offers/v1/events');
    expect(request.parentSpanId).toBe('');

    // The document's run: in the service that hosts the offers subgraph, or in the process.
    const document = await collector.waitFor(
      (span) =>
        span.traceId === request.traceId &&
        span.name === 'graphql GetEvents' &&
        span.service === (services ? 'provider-platform-offers' : 'provider-platform-api'),
      'for the document run on the offers subgraph',
    );
    const database = await collector.waitFor(
      (span) => span.traceId === request.traceId && span.service === document.service && isDatabaseSpan(span),
      "for a database call of the document's run",
    );
    expect(collector.ancestors(database).map((span) => span.spanId)).toContain(document.spanId);
    expect(collector.ancestors(document).at(-1)?.spanId).toBe(request.spanId);

    const scopes = new Set(collector.trace(request.traceId).map((span) => span.scope));
    if (services) {
      // Across the hop (a WebSocket, decision 036): the service's server span is a child of the API
      // process's call to it, the traceparent carried in the call's frame.
      const served = collector
        .ancestors(document)
        .find((span) => span.kind === SPAN_KIND.server && span.service === 'provider-platform-offers');
      expect(served, 'the service served the call in the same trace').toMatchObject({ name: 'hop offers' });
      const caller = collector.trace(request.traceId).find((span) => span.spanId === served!.parentSpanId);
      expect(caller).toMatchObject({ service: 'provider-platform-api', kind: SPAN_KIND.client, name: 'hop offers' });
      expect(database.scope).toBe('@opentelemetry/instrumentation-pg');
      expect(database.service).toBe('provider-platform-offers');
      // The rate limit's Redis calls, in the API process.
      for (const scope of ['http', 'express', 'ioredis', 'pg'])
        expect(scopes, scope).toContain(`@opentelemetry/instrumentation-${scope}`);
    } else {
      // Not loaded by default: its spans of a REST request were only those of routers it passed.
      expect(scopes).toContain('@opentelemetry/instrumentation-http');
      expect(scopes).not.toContain('@opentelemetry/instrumentation-express');
    }

    // The log lines of the request, in each process, name its trace.
    const logged = (process: ServerProcess) =>
      process.jsonLines.find((line) => line.requestId === 'traced-events' && line.msg === 'request');
    expect(logged(processes.get('api')!)).toMatchObject({ trace_id: request.traceId, span_id: expect.any(String) });
    if (services) {
      await processes
        .get('offers')!
        .waitForLine((line) => parseJsonLine(line)?.requestId === 'traced-events', 'the service log line', 5_000);
      expect(logged(processes.get('offers')!)).toMatchObject({ trace_id: request.traceId });
    }
  });

  it("finds the delivery of a booking's notification in the trace of the request that booked", async () => {
    const { stockId, beneficiaryId } = await runs.readDatabase(async (em) => {
      const { stock } = await aBookableDate(em, systemClock, demo);
      const beneficiary = em.create(Beneficiary, {
        provider: demo.providerId,
        email: `traced.${stock.id}@example.com`,
        firstName: 'Traced',
        lastName: 'Booking',
        birthDate: '2007-01-01',
        credit: 30_000,
      });
      await em.flush();
      return { stockId: stock.id, beneficiaryId: beneficiary.id };
    });
    // The test is the client of a trace of its own: the booking request joins it.
    const traceId = randomBytes(16).toString('hex');
    const clientSpanId = randomBytes(8).toString('hex');
    const answer = await call('/graphql', {
      method: 'POST',
      headers: { traceparent: `00-${traceId}-${clientSpanId}-01` },
      body: JSON.stringify({ query: BOOK, variables: { input: { stockId, quantity: 1, beneficiaryId } } }),
    });
    const booked = (await answer.json()) as { data?: { sandboxBook: { id: number } }; errors?: unknown };
    expect(booked.errors).toBeUndefined();
    await provider.waitForRequests(1, '/notify');

    const request = await collector.waitFor(
      (span) => span.traceId === traceId && span.parentSpanId === clientSpanId,
      'for the booking request',
    );
    expect(request).toMatchObject({ kind: SPAN_KIND.server, service: 'provider-platform-api' });
    const delivery = await collector.waitFor(
      (span) => span.name === 'job bookings.sendMessage' && span.traceId === request.traceId,
      "for the notification's job in the booking's trace",
    );
    expect(delivery).toMatchObject({
      kind: SPAN_KIND.consumer,
      service: services ? 'provider-platform-bookings' : 'provider-platform-api',
      attributes: expect.objectContaining({ 'job.outcome': 'succeeded' }),
    });
    expect(collector.ancestors(delivery).at(-1)?.spanId).toBe(request.spanId);
    const providerCall = await collector.waitFor(
      (span) => span.name === 'provider call' && span.parentSpanId === delivery.spanId,
      'for the call to the provider under the job',
    );
    expect(providerCall.attributes['http.response.status_code']).toBe(200);
    // The provider's system may join the trace: the message carries it, as the docs say.
    expect(provider.to('/notify')[0].headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  });
});

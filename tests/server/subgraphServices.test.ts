import type { EntityManager } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Beneficiary } from '../../graphql/bookings/Beneficiary.js';
import { Booking } from '../../graphql/bookings/Booking.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { systemClock } from '../../platform/time/clock.js';
import { subgraphNames, type SubgraphName } from '../../graphql/subgraphNames.js';
import { aBookableDate } from '../support/builders.js';
import { isPostgresTestRun } from '../support/database.js';
import { type ServerProcess, sleep } from '../support/serverProcess.js';
import { useServerRuns } from './serverRuns.js';

/**
 * The graph as separate services (issue 21): the four subgraph services (`npm run subgraph --
 * <name>`) and the API process in front of them (SUBGRAPH_URLS), each a real process, on one
 * PostgreSQL and one Redis. Needs both: SQLite is one process's database.
 */
const redisUrl = process.env.REDIS_URL;
const ready = isPostgresTestRun() && redisUrl !== undefined;
if (!ready)
  console.warn('Subgraph-service tests skipped: they need TEST_DATABASE_URL (PostgreSQL) and REDIS_URL (Redis)');

const SECRET = 'subgraph-services-test-secret-0123456789';
const JOB_POLL_WAIT_MS = 20_000;

const BOOK = `mutation Book($input: SandboxBookingInput!) { sandboxBook(input: $input) { id token } }`;
/** Bookings -> offers -> providers: one query, three subgraphs. */
const BOOKING_ACROSS = `query Across($id: Int!) {
  booking(id: $id) { id status offer { id name venue { id publicName } } }
}`;

describe.skipIf(!ready)('the subgraphs as services of their own, behind the API process', () => {
  const runs = useServerRuns('subgraph-services-');
  const services = new Map<SubgraphName, ServerProcess>();
  let api: ServerProcess;
  let key: string;
  let demo: { providerId: number; venueId: number; venueName: string | null };

  const write = <T>(work: (em: EntityManager) => Promise<T>) => runs.readDatabase(work);
  const serviceEnv = (extra: Record<string, string> = {}) => ({
    REDIS_URL: redisUrl!,
    INTERNAL_SIGNING_SECRET: SECRET,
    ...extra,
  });
  const startService = async (name: SubgraphName, port = '0') => {
    const service = await runs.startSubgraph(name, serviceEnv({ PORT: port }));
    services.set(name, service);
    return service;
  };
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${api.baseUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers },
    });
  const graphql = async (query: string, variables: Record<string, unknown>) => {
    const response = await call('/graphql', { method: 'POST', body: JSON.stringify({ query, variables }) });
    return (await response.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
  };

  /** A new event date of the demo theatre, booked once through /graphql (the bookings service). */
  async function aBookedDate(): Promise<{ offerId: number; stockId: number; bookingId: number; token: string }> {
    const { offerId, stockId, beneficiaryId } = await write(async (em) => {
      const { offerId: id, stock } = await aBookableDate(em, systemClock, demo);
      const beneficiary = em.create(Beneficiary, {
        provider: demo.providerId,
        email: `services.${stock.id}@example.com`,
        firstName: 'Split',
        lastName: 'Services',
        birthDate: '2007-01-01',
        credit: 30_000,
      });
      await em.flush();
      return { offerId: id, stockId: stock.id, beneficiaryId: beneficiary.id };
    });
    const booked = await graphql(BOOK, { input: { stockId, quantity: 1, beneficiaryId } });
    expect(booked.errors).toBeUndefined();
    return { offerId, stockId, bookingId: booked.data.sandboxBook.id, token: booked.data.sandboxBook.token };
  }

  beforeAll(async () => {
    // All at once on an empty database: their migrations take turns.
    await Promise.all(subgraphNames.map((name) => startService(name)));
    const urls = subgraphNames.map((name) => `${name}=${services.get(name)!.baseUrl}/graphql`).join(',');
    api = await runs.start(serviceEnv({ SUBGRAPH_URLS: urls }));
    key = /Demo API key: (\S+)/.exec(api.lines.find((line) => line.startsWith('Demo API key: '))!)![1];
    demo = await write(async (em) => {
      const provider = await em.findOneOrFail(Provider, { id: { $gt: 0 } }, { orderBy: { id: 'asc' } });
      const [offerer] = await em.find(Offerer, {}, { orderBy: { id: 'asc' } });
      const [venue] = await em.find(Venue, { offerer, isVirtual: false }, { orderBy: { id: 'asc' } });
      return { providerId: provider.id, venueId: venue.id, venueName: venue.publicName };
    });
  }, 240_000);

  it('starts on one empty database, each service reporting ready, the API process too', async () => {
    for (const service of services.values()) {
      const answer = await fetch(`${service.baseUrl}/health/ready`);
      expect(answer.status).toBe(200);
    }
    const answer = await fetch(`${api.baseUrl}/health/ready`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      status: 'ready',
      checks: {
        database: 'ok',
        subgraphs: { providers: 'ok', offers: 'ok', bookings: 'ok', collective: 'ok' },
        redis: 'ok',
      },
    });
  });

  it('answers REST routes of every subgraph, each run on its service, the request id in its log', async () => {
    const { offerId } = await aBookedDate();
    const reads: [SubgraphName, string][] = [
      ['providers', '/public/providers/v1/provider'],
      ['providers', '/public/offers/v1/offerer_venues'],
      ['offers', `/public/offers/v1/events/${offerId}`],
      ['offers', `/public/offers/v1/events/${offerId}/dates`],
      ['bookings', `/public/bookings/v1/bookings?offerId=${offerId}`],
      ['collective', '/v2/collective/offers/formats'],
      ['collective', '/v2/collective/offers/'],
    ];
    for (const [subgraph, path] of reads) {
      const requestId = `split-${subgraph}-${reads.findIndex(([, p]) => p === path)}`;
      const answer = await call(path, { headers: { 'X-Request-Id': requestId } });
      expect(answer.status, path).toBe(200);
      const service = services.get(subgraph)!;
      await service.waitForLine((line) => line.includes(`"requestId":"${requestId}"`), `${requestId} logged`, 5_000);
    }
    const event = (await (await call(`/public/offers/v1/events/${offerId}`)).json()) as { id: number };
    expect(event.id).toBe(offerId);
  });

  it("adds and reschedules an event's dates on the offers service, their datetimes sent as UTC text", async () => {
    const { offerId, category } = await write(async (em) => aBookableDate(em, systemClock, demo));
    const year = new Date().getUTCFullYear() + 1;
    const added = await call(`/public/offers/v1/events/${offerId}/dates`, {
      method: 'POST',
      body: JSON.stringify({
        dates: [
          {
            beginningDatetime: `${year}-03-01T20:00:00+01:00`,
            bookingLimitDatetime: `${year}-03-01T18:30:00+01:00`,
            priceCategoryId: category.id,
            quantity: 10,
          },
        ],
      }),
    });
    expect(added.status).toBe(200);
    const [date] = ((await added.json()) as { dates: { id: number; beginningDatetime: string }[] }).dates;
    expect(date.beginningDatetime).toBe(`${year}-03-01T19:00:00.000Z`);

    const moved = await call(`/public/offers/v1/events/${offerId}/dates/${date.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ beginningDatetime: `${year}-03-02T21:00:00+02:00` }),
    });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { beginningDatetime: string }).beginningDatetime).toBe(
      `${year}-03-02T19:00:00.000Z`,
    );
    const stored = await write(async (em) => (await em.findOneOrFail(Stock, date.id)).beginningDatetime);
    expect(stored?.toISOString()).toBe(`${year}-03-02T19:00:00.000Z`);
  });

  it('answers a query across three services: a booking with its offer and the offer venue', async () => {
    const { offerId, bookingId } = await aBookedDate();
    const answer = await graphql(BOOKING_ACROSS, { id: bookingId });
    expect(answer).toEqual({
      data: {
        booking: {
          id: bookingId,
          status: 'CONFIRMED',
          offer: { id: offerId, name: expect.any(String), venue: { id: demo.venueId, publicName: demo.venueName } },
        },
      },
      extensions: expect.anything(),
    });
  });

  it("cancels a deleted date's bookings on the bookings service, through the outbox", async () => {
    const { offerId, stockId, bookingId, token } = await aBookedDate();
    const deleted = await call(`/public/offers/v1/events/${offerId}/dates/${stockId}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    let status = '';
    for (const started = Date.now(); Date.now() - started < JOB_POLL_WAIT_MS; await sleep(200)) {
      status = await write(async (em) => (await em.findOneOrFail(Booking, bookingId)).status);
      if (status === 'CANCELLED') break;
    }
    expect(status).toBe('CANCELLED');
    // The countermark of a cancelled booking is gone for good.
    expect((await call(`/public/bookings/v1/token/${token}`)).status).toBe(410);
  }, 60_000);

  it('answers 503 with Retry-After on the routes of a killed service only, and recovers when it returns', async () => {
    const { offerId, bookingId } = await aBookedDate();
    const providers = services.get('providers')!;
    const port = String(providers.port);
    providers.child.kill('SIGKILL');
    await providers.exited;

    const down = await call('/public/providers/v1/provider');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(await down.json()).toEqual({
      global: ['The providers service is unavailable: try again in a few seconds'],
    });
    // The other services' routes are untouched.
    expect((await call(`/public/offers/v1/events/${offerId}`)).status).toBe(200);
    expect((await call('/v2/collective/offers/formats')).status).toBe(200);
    // The graph answers what it can: the booking and its offer, without the venue's name that the killed service holds.
    const partial = await graphql(BOOKING_ACROSS, { id: bookingId });
    expect(partial.data).toEqual({
      booking: {
        id: bookingId,
        status: 'CONFIRMED',
        offer: { id: offerId, name: expect.any(String), venue: { id: demo.venueId, publicName: null } },
      },
    });
    expect(partial.errors?.map((error) => error.extensions?.code)).toEqual(['SERVICE_UNAVAILABLE']);
    // Degraded, not unavailable: the other services' routes still answer, so load balancers keep the process.
    const health = await fetch(`${api.baseUrl}/health/ready`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: 'degraded',
      checks: {
        database: 'ok',
        subgraphs: { providers: 'unreachable', offers: 'ok', bookings: 'ok', collective: 'ok' },
        redis: 'ok',
      },
    });

    await startService('providers', port);
    expect((await call('/public/providers/v1/provider')).status).toBe(200);
    const whole = await graphql(BOOKING_ACROSS, { id: bookingId });
    expect(whole.errors).toBeUndefined();
    expect(whole.data.booking.offer.venue).toEqual({ id: demo.venueId, publicName: demo.venueName });
    expect(((await (await fetch(`${api.baseUrl}/health/ready`)).json()) as { status: string }).status).toBe('ready');
  }, 120_000);

  it('stops on SIGTERM while the API process holds its connection, its routes 503 until it returns', async () => {
    const collective = services.get('collective')!;
    const port = String(collective.port);
    // The API process's WebSocket to the service is open: the service's server must not wait for it.
    expect((await call('/v2/collective/offers/formats')).status).toBe(200);
    expect(await collective.stop('SIGTERM', 10_000)).toEqual({ code: 0, signal: null });
    expect((await call('/v2/collective/offers/formats')).status).toBe(503);
    await startService('collective', port);
    expect((await call('/v2/collective/offers/formats')).status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await runs.killAll();
  });
});

import type { EntityManager } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Beneficiary } from '../../graphql/bookings/Beneficiary.js';
import { Booking } from '../../graphql/bookings/Booking.js';
import { SEND_MESSAGE_JOB } from '../../graphql/bookings/messages.js';
import { ProviderMessage } from '../../graphql/bookings/ProviderMessage.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { ProductImport } from '../../graphql/offers/products/ProductImport.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { issueApiKey, revokeApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { systemClock } from '../../platform/time/clock.js';
import { Job } from '../../platform/jobs/Job.js';
import { MESSAGE_ID_HEADER } from '../../platform/messaging/signedPost.js';
import { RATE_LIMIT_POINTS } from '../../server/rateLimit.js';
import { aBookableDate } from '../support/builders.js';
import { isPostgresTestRun } from '../support/database.js';
import { Receiver } from '../support/receiver.js';
import { fiveHundredEans } from '../support/eanBatch.js';
import { parseJsonLine, type ServerProcess, sleep, withTimeout } from '../support/serverProcess.js';
import { useServerRuns } from './serverRuns.js';

/**
 * Several identical processes on one PostgreSQL and one Redis, as production runs them, and one
 * of them killed (SIGKILL: no shutdown of any kind) in the middle of its work. Needs both
 * servers: SQLite is one process's database, and without Redis each process counts its own
 * rate limit.
 */
const redisUrl = process.env.REDIS_URL;
const ready = isPostgresTestRun() && redisUrl !== undefined;
if (!ready)
  console.warn('Several-process tests skipped: they need TEST_DATABASE_URL (PostgreSQL) and REDIS_URL (Redis)');

/** A dead process's job is claimed again after this long: short, so the test waits seconds, not minutes. */
const LEASE_SECONDS = 5;

const BOOK = `mutation Book($input: SandboxBookingInput!) { sandboxBook(input: $input) { id token } }`;

interface BookAnswer {
  data: { sandboxBook: { id: number; token: string } } | null;
  errors?: { message: string }[];
}

describe.skipIf(!ready)('two processes on one PostgreSQL and one Redis, and one of them killed', () => {
  const runs = useServerRuns('several-processes-');
  const processes: ServerProcess[] = [];
  let receiver: Receiver;
  let demo: { providerId: number; offererId: number; venueIds: number[] };

  const start = () => runs.start({ REDIS_URL: redisUrl!, JOB_LEASE_SECONDS: String(LEASE_SECONDS) });
  const alive = () => processes.filter((server) => !server.exit);
  const write = <T>(work: (em: EntityManager) => Promise<T>) => runs.readDatabase(work);

  /** New keys of the demo provider: each has its own budget under the rate limit. */
  const newKeys = (count: number) =>
    write(async (em) => {
      const provider = em.getReference(Provider, demo.providerId);
      const offerer = em.getReference(Offerer, demo.offererId);
      const keys = Array.from(
        { length: count },
        () => issueApiKey(em, systemClock, { env: 'development', provider, offerer }).key,
      );
      await em.flush();
      return keys;
    });

  /** A date of a new event of the demo's theatre, with `places` places, bookable now. */
  const aDate = (places: number) =>
    write(async (em) => {
      const owner = { providerId: demo.providerId, venueId: demo.venueIds[0] };
      const { stock } = await aBookableDate(em, systemClock, owner, { quantity: places, price: 1000 });
      return stock.id;
    });

  const beneficiaries = (count: number, tag: string) =>
    write(async (em) => {
      const created = Array.from({ length: count }, (_, index) =>
        em.create(Beneficiary, {
          provider: demo.providerId,
          email: `${tag}.${index}@example.com`,
          firstName: 'Many',
          lastName: `Processes ${index}`,
          birthDate: '2007-01-01',
          credit: 30_000,
        }),
      );
      await em.flush();
      return created.map((beneficiary) => beneficiary.id);
    });

  async function book(server: ServerProcess, key: string, stockId: number, beneficiaryId: number) {
    const response = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: BOOK, variables: { input: { stockId, quantity: 1, beneficiaryId } } }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as BookAnswer;
  }

  beforeAll(async () => {
    receiver = await Receiver.start();
    processes.push(await start(), await start());
    demo = await write(async (em) => {
      const provider = await em.findOneOrFail(
        Provider,
        { id: { $gt: 0 } },
        { orderBy: { id: 'asc' }, populate: ['messagingSecret'] },
      );
      receiver.secret = provider.messagingSecret;
      const [offerer] = await em.find(Offerer, {}, { orderBy: { id: 'asc' } });
      const venues = await em.find(Venue, { offerer, isVirtual: false }, { orderBy: { id: 'asc' } });
      // Notifications go to this test's receiver rather than the demo's placeholder.
      await em.nativeUpdate(Provider, { id: provider.id }, { notificationUrl: receiver.url('/notify') });
      return { providerId: provider.id, offererId: offerer.id, venueIds: venues.map((venue) => venue.id) };
    });
  }, 180_000);
  afterAll(() => receiver?.close());

  it('books exactly 10 places of a 10-place date out of 200 bookings at once, spread over both', async () => {
    const stockId = await aDate(10);
    const people = await beneficiaries(200, 'rush');
    // Four keys: 200 requests fit in their budgets, whatever else the test sends.
    const keys = await newKeys(4);

    const answers = await Promise.all(
      people.map((beneficiaryId, index) => book(processes[index % 2], keys[index % 4], stockId, beneficiaryId)),
    );

    const booked = answers.filter((answer) => answer.data?.sandboxBook);
    expect(booked).toHaveLength(10);
    const refusals = new Set(answers.flatMap((answer) => answer.errors ?? []).map((error) => error.message));
    expect(answers.filter((answer) => answer.errors)).toHaveLength(190);
    expect(
      [...refusals].every((message) => /place/i.test(message)),
      [...refusals].join(' | '),
    ).toBe(true);
    await write(async (em) => {
      const stock = await em.findOneOrFail(Stock, stockId);
      expect([stock.quantity, stock.bookedQuantity]).toEqual([10, 10]);
      expect(await em.count(Booking, { stock: stockId, status: 'CONFIRMED' })).toBe(10);
      // Only the ten who booked paid.
      const charged = await em.count(Beneficiary, { id: { $in: people }, credit: 29_000 });
      expect(charged).toBe(10);
    });
  }, 120_000);

  it(`holds the rate limit across both: ${RATE_LIMIT_POINTS} requests per minute per key in total`, async () => {
    const [key] = await newKeys(1);
    const read = (server: ServerProcess) =>
      fetch(`${server.baseUrl}/public/providers/v1/provider`, { headers: { Authorization: `Bearer ${key}` } });

    const statuses = await Promise.all(
      Array.from({ length: RATE_LIMIT_POINTS }, (_, index) => read(processes[index % 2]).then((r) => r.status)),
    );

    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT_POINTS);
    for (const server of processes) {
      const refused = await read(server);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  }, 60_000);

  it('runs a write sent with one Idempotency-Key to both at once exactly once; every retry gets its answer', async () => {
    const [key] = await newKeys(1);
    // (no run of 13 digits: a name may not hold an EAN)
    const name = `Idempotent night ${Date.now().toString(36)}`;
    const body = JSON.stringify({
      name,
      accessibility: {
        audioDisabilityCompliant: true,
        mentalDisabilityCompliant: true,
        motorDisabilityCompliant: true,
        visualDisabilityCompliant: true,
      },
      categoryRelatedFields: { category: 'CONCERT', musicType: 'ROCK', performer: 'The Demos' },
      location: { type: 'physical', venueId: demo.venueIds[0] },
      hasTicket: false,
    });
    const post = (server: ServerProcess) =>
      fetch(`${server.baseUrl}/public/offers/v1/events`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': `"${name}"`,
        },
        body,
      }).then(async (response) => ({
        status: response.status,
        replayed: response.headers.get('idempotent-replayed'),
        body: (await response.json()) as { id?: number },
      }));

    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => post(processes[index % 2])));

    // The one that ran, replays of it, and retries told to wait while it ran: nothing else.
    expect(answers.filter((answer) => answer.status === 200 && answer.replayed === null)).toHaveLength(1);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    const ids = new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.body.id));
    expect(ids.size).toBe(1);
    for (const server of processes) {
      const retry = await post(server);
      expect([retry.status, retry.replayed, retry.body.id]).toEqual([200, 'true', [...ids][0]]);
    }
    expect(await write((em) => em.count(Offer, { name }))).toBe(1);
  }, 60_000);

  it('refuses a revoked key at once on both processes, though each had it in memory', async () => {
    const [key] = await newKeys(1);
    const read = (server: ServerProcess) =>
      fetch(`${server.baseUrl}/public/providers/v1/provider`, { headers: { Authorization: `Bearer ${key}` } }).then(
        (response) => response.status,
      );
    for (const server of processes) expect([await read(server), await read(server)]).toEqual([200, 200]);

    await write((em) => revokeApiKey(em, systemClock, key.split('_').slice(0, 2).join('_')));

    // The processes hear of it by a PostgreSQL notification: a few milliseconds, polled for up to 2 s.
    for (const server of processes) {
      let status = await read(server);
      for (let attempt = 0; status !== 401 && attempt < 40; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = await read(server);
      }
      expect(status).toBe(401);
    }
  }, 60_000);

  it('finishes a 500-EAN import on the other process when the one running it is killed, each offer created once', async () => {
    const { saleable, items } = fiveHundredEans();
    expect(items).toHaveLength(500);
    const venueId = demo.venueIds[1];
    const [key] = await newKeys(1);

    const response = await fetch(`${processes[0].baseUrl}/public/offers/v1/products/ean`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        location: { type: 'physical', venueId },
        products: items.map((ean) => ({ ean, stock: { price: 1500, quantity: 4 } })),
      }),
    });
    expect(response.status, await response.text()).toBe(204);

    // Whichever process claimed the import logs its first committed step: that one is killed.
    const isImportStep = (line: string) => {
      const entry = parseJsonLine(line);
      return entry?.msg === 'job step committed' && entry.jobType === 'offers.productImport';
    };
    const runner = await withTimeout(
      Promise.any(
        processes.map((server) => server.waitForLine(isImportStep, 'an import step', 30_000).then(() => server)),
      ),
      30_000,
      () => 'an import step on either process',
    );
    runner.child.kill('SIGKILL');
    expect((await runner.exited).signal).toBe('SIGKILL');
    const survivor = processes.find((server) => server !== runner)!;
    const cut = await write((em) => em.findOneOrFail(ProductImport, { id: { $gt: 0 } }, { orderBy: { id: 'desc' } }));
    expect(cut.nextIndex, 'killed in the middle').toBeLessThan(500);

    await survivor.waitForLine(
      (line) => parseJsonLine(line)?.msg === 'job done' && parseJsonLine(line)?.jobType === 'offers.productImport',
      'the import to finish on the other process',
      60_000,
    );
    await write(async (em) => {
      const done = await em.findOneOrFail(ProductImport, { id: { $gt: 0 } }, { orderBy: { id: 'desc' } });
      expect(done).toMatchObject({ status: 'DONE', nextIndex: 500, createdCount: saleable.length, updatedCount: 0 });
      const offers = await em.find(Offer, { venue: venueId, isEvent: false });
      expect(offers).toHaveLength(saleable.length);
      expect(new Set(offers.map((offer) => offer.ean))).toEqual(new Set(saleable));
      const stocks = await em.find(Stock, { offer: { venue: venueId }, isDeleted: false });
      expect(stocks.map((stock) => `${stock.price}/${stock.quantity}`)).toEqual(
        Array<string>(saleable.length).fill('1500/4'),
      );
    });
    processes.splice(processes.indexOf(runner), 1);
    processes.push(await start());
  }, 180_000);

  it('delivers every notification when a process delivering them is killed: each at least once, once after dedup by message id', async () => {
    const stockId = await aDate(100);
    const people = await beneficiaries(20, 'notified');
    const keys = await newKeys(1);
    receiver.reset();
    // The receiver holds every delivery until one process is killed: the killed process then surely
    // has one in flight to cut, however busy the machine (a fixed delay let it finish first).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    receiver.answer('/notify', async () => {
      await released;
      return { slow: { afterMs: 50, status: 200, json: {} } };
    });

    const tokens: string[] = [];
    for (const [index, beneficiaryId] of people.entries()) {
      const answer = await book(processes[index % 2], keys[0], stockId, beneficiaryId);
      expect(answer.errors).toBeUndefined();
      tokens.push(answer.data!.sandboxBook.token);
    }
    for (const [index, token] of tokens.slice(0, 5).entries()) {
      const cancelled = await fetch(`${processes[index % 2].baseUrl}/public/bookings/v1/cancel/token/${token}`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${keys[0]}` },
      });
      expect(cancelled.status).toBe(204);
    }

    // Each worker sends one message at a time: two requests in flight at once come from both processes.
    const inFlight = () => receiver.requests.filter((request) => !request.answered && !request.abandoned).length;
    await withTimeout(
      (async () => {
        while (inFlight() < 2) await sleep(20);
      })(),
      30_000,
      () => `both processes delivering at once (received ${receiver.requests.length})`,
    );
    const victim = processes[0];
    victim.child.kill('SIGKILL');
    expect((await victim.exited).signal).toBe('SIGKILL');
    release();

    const messages = await write((em) =>
      em.find(ProviderMessage, { booking: { stock: stockId } }, { orderBy: { id: 'asc' } }),
    );
    expect(messages).toHaveLength(25);
    const allSent = () =>
      write(async (em) => em.count(ProviderMessage, { id: { $in: messages.map((m) => m.id) }, status: 'SENT' }));
    await withTimeout(
      (async () => {
        while ((await allSent()) < messages.length) await sleep(250);
      })(),
      90_000,
      () => `every message SENT (received ${receiver.requests.length})`,
    );

    // A notification names its booking by its beneficiary here: each of them booked once.
    const bookingAction = (body: { user_email: string; action: string }) => `${body.user_email}/${body.action}`;
    const expected = messages.map((message) => bookingAction(JSON.parse(message.body)));
    expect(new Set(expected).size).toBe(25);
    const received = receiver.to('/notify');
    const seen = received.map((request) => bookingAction(request.body));
    // The killed process's delivery was cut, then made again by the other: the receiver saw a message twice.
    expect(received.some((request) => request.abandoned)).toBe(true);
    expect(received.length).toBeGreaterThan(messages.length);
    // At least once each...
    expect(new Set(seen)).toEqual(new Set(expected));
    // ...and exactly once after dropping repeated message ids, each id always the same (booking, action).
    const byMessageId = new Map<string, string>();
    for (const [index, request] of received.entries()) {
      const id = request.headers[MESSAGE_ID_HEADER.toLowerCase()] as string;
      expect(id).toMatch(/^\d+$/);
      if (byMessageId.has(id)) expect(byMessageId.get(id)).toBe(seen[index]);
      byMessageId.set(id, seen[index]);
      expect(request.signatureValid).toBe(true);
    }
    expect([...byMessageId.values()].sort()).toEqual([...expected].sort());
    expect(new Set(byMessageId.keys())).toEqual(new Set(messages.map((message) => String(message.id))));
    await write(async (em) => {
      const jobs = await em.find(Job, { type: SEND_MESSAGE_JOB });
      const ours = jobs.filter((job) => messages.some((message) => message.id === Number(job.payload.messageId)));
      expect(ours.map((job) => job.status)).toEqual(Array<string>(25).fill('done'));
    });
    expect(alive()).toHaveLength(1);
  }, 180_000);
});

import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { ApiKey } from '../../graphql/providers/ApiKey.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { createSandbox } from '../../graphql/providers/sandbox.js';
import {
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_TTL_MS,
  IdempotencyRecord,
  IdempotencyStore,
  requestFingerprint,
} from '../../platform/idempotency/index.js';
import { SettableClock } from '../../platform/time/clock.js';
import { idempotentWrites } from '../../server/http/idempotency.js';
import { IDEMPOTENCY_PURGE_TASK } from '../../server/runtime.js';
import { apiClient } from '../support/api.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { anotherSandboxKey, anEventBody, aProductBody, nextEan, useOfferWorld } from '../support/offerWorld.js';

const HOUR = 3_600_000;
let keyCounter = 0;
/** A key no other test of this file sends. */
const aKey = () => `retry-${process.pid}-${(keyCounter += 1)}`;
const withKey = (key: string) => ({ 'Idempotency-Key': key });

describe('Idempotency-Key on the writes of the REST API', () => {
  const world = useOfferWorld();
  const em = () => world.em();
  const bookshop = () => world.sandbox.venues[1].id;
  const theatre = () => world.sandbox.venues[0].id;
  const postProduct = (body: unknown, headers?: Record<string, string>, key?: string) =>
    world.api.call('PostProductOffer', { body, headers, key });
  const postEvent = (body: unknown, headers?: Record<string, string>, key?: string) =>
    world.api.call('PostEventOffer', { body, headers, key });
  const offersNamed = (name: string) => em().count(Offer, { name });
  /** An instrument rental at the bookshop, with an EAN of its own (two offers of a venue may not share one). */
  const rental = (overrides: Record<string, unknown>) =>
    aProductBody(bookshop(), {
      categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean: nextEan() },
      ...overrides,
    });

  it('replays the first answer of a POST to a retry with the same key, marked, and creates nothing more', async () => {
    const key = aKey();
    const body = rental({ name: 'Retried rental' });
    const first = await postProduct(body, withKey(key));
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const retry = await postProduct(body, withKey(key));
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(retry.body).toEqual(first.body);
    // Its own request id, and still counted by the rate limit.
    expect(retry.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(Number(retry.headers['ratelimit-remaining'])).toBe(Number(first.headers['ratelimit-remaining']) - 1);
    expect(await offersNamed('Retried rental')).toBe(1);
  });

  it('takes the quoted form of the IETF draft as the same key as the bare one', async () => {
    const key = aKey();
    const body = rental({ name: 'Quoted key rental' });
    expect((await postProduct(body, withKey(`"${key}"`))).status).toBe(201);
    const retry = await postProduct(body, withKey(key));
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await offersNamed('Quoted key rental')).toBe(1);
  });

  it('refuses (422, naming the header) the same key on another request, and runs nothing', async () => {
    const key = aKey();
    expect((await postProduct(rental({ name: 'First use' }), withKey(key))).status).toBe(201);

    const reused = await postProduct(rental({ name: 'Second use' }), withKey(key));
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual([
      {
        loc: ['header', 'Idempotency-Key'],
        msg: 'This key was used for another request (method, path or body) within the last 24 hours: use a new key for a new request',
        type: 'idempotency_key_reused',
      },
    ]);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    expect(await offersNamed('Second use')).toBe(0);

    // Another operation with the same key is another request too.
    const event = await world.api.call('PostEventOffer', { body: anEventBody(theatre()), headers: withKey(key) });
    expect(event.status).toBe(422);
  });

  it('keeps keys per API key: the same key under another key of the provider is a request of its own', async () => {
    const key = aKey();
    const body = anEventBody(theatre(), { name: 'Two keys night' });
    expect((await postEvent(body, withKey(key))).status).toBe(200);
    const otherKey = await anotherSandboxKey(world);
    const underOtherKey = await postEvent(body, withKey(key), otherKey);
    expect(underOtherKey.status).toBe(200);
    expect(underOtherKey.headers['idempotent-replayed']).toBeUndefined();
    expect(await offersNamed('Two keys night')).toBe(2);
  });

  it('leaves a write without the header as it was: each POST creates', async () => {
    const body = anEventBody(theatre(), { name: 'No key night' });
    expect((await postEvent(body)).status).toBe(200);
    expect((await postEvent(body)).status).toBe(200);
    expect(await offersNamed('No key night')).toBe(2);
  });

  it('frees the key of a request refused for its input (422): the corrected request runs with it', async () => {
    const key = aKey();
    const invalid = await postProduct(rental({ name: '' }), withKey(key));
    expect(invalid.status).toBe(422);
    expect(invalid.body[0].loc).toEqual(['name']);
    expect(await em().count(IdempotencyRecord, { idempotencyKey: key })).toBe(0);

    const corrected = await postProduct(rental({ name: 'Corrected rental' }), withKey(key));
    expect(corrected.status).toBe(201);
    expect(await offersNamed('Corrected rental')).toBe(1);
  });

  it('replays a business refusal (400, 404) as it was answered: the request ran', async () => {
    const key = aKey();
    const body = aProductBody(999_999, { name: 'Nowhere rental' });
    const first = await postProduct(body, withKey(key));
    expect(first.status).toBe(404);
    const retry = await postProduct(body, withKey(key));
    expect(retry.status).toBe(404);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
  });

  it('answers a retry while the first request still runs with 409 and Retry-After, and lets it run once the lock lapses', async () => {
    const key = aKey();
    const body = rental({ name: 'Slow rental' });
    // Another process has claimed the key for this very request and is running it.
    const apiKeyId = (
      await em().findOneOrFail(ApiKey, { prefix: world.sandbox.apiKey.split('_').slice(0, 2).join('_') })
    ).id;
    const fingerprint = requestFingerprint('POST', '/public/offers/v1/products', body);
    expect(await world.testApp.runtime.idempotency.claim(apiKeyId, key, fingerprint)).toEqual({ kind: 'first' });

    const meanwhile = await postProduct(body, withKey(key));
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body).toEqual({
      global: ['A request with this Idempotency-Key is still running: retry once it has answered'],
    });
    expect(Number(meanwhile.headers['retry-after'])).toBe(IDEMPOTENCY_LOCK_MS / 1000);
    expect(await offersNamed('Slow rental')).toBe(0);

    // That process died: its lock lapses, and the retry runs the request.
    world.testApp.clock.advance(IDEMPOTENCY_LOCK_MS + 1000);
    const afterwards = await postProduct(body, withKey(key));
    expect(afterwards.status).toBe(201);
    expect(await offersNamed('Slow rental')).toBe(1);
    expect((await postProduct(body, withKey(key))).headers['idempotent-replayed']).toBe('true');
  });

  it('keeps an answer 24 hours: after that the key is free, and the hourly purge drops the record', async () => {
    const key = aKey();
    const body = anEventBody(theatre(), { name: 'Day-old night' });
    expect((await postEvent(body, withKey(key))).status).toBe(200);
    world.testApp.clock.advance(IDEMPOTENCY_TTL_MS - 60_000);
    expect((await postEvent(body, withKey(key))).headers['idempotent-replayed']).toBe('true');
    expect(await offersNamed('Day-old night')).toBe(1);

    world.testApp.clock.advance(2 * 60_000);
    await world.testApp.runtime.scheduler.runNow(IDEMPOTENCY_PURGE_TASK);
    expect(await em().count(IdempotencyRecord, { idempotencyKey: key })).toBe(0);
    const dayAfter = await postEvent(body, withKey(key));
    expect(dayAfter.status).toBe(200);
    expect(dayAfter.headers['idempotent-replayed']).toBeUndefined();
    expect(await offersNamed('Day-old night')).toBe(2);
  });

  it('replays a DELETE (204) rather than answering 404 for the date it already deleted', async () => {
    const created = await world.api.call('PostEventOffer', { body: anEventBody(theatre(), { name: 'Deleted once' }) });
    expect(created.status).toBe(200);
    const eventId = created.body.id;
    const category = await world.api.call('PostEventPriceCategories', {
      params: { event_id: eventId },
      body: { priceCategories: [{ label: 'Tarif unique', price: 1000 }] },
    });
    expect(category.status).toBe(200);
    const beginning = new Date(world.testApp.clock.now().getTime() + 72 * HOUR).toISOString();
    const dates = await world.api.call('PostEventStocks', {
      params: { event_id: eventId },
      body: {
        dates: [
          {
            beginningDatetime: beginning,
            bookingLimitDatetime: beginning,
            priceCategoryId: category.body.priceCategories[0].id,
            quantity: 10,
          },
        ],
      },
    });
    expect(dates.status).toBe(200);
    const stockId = dates.body.dates[0].id;
    const key = aKey();
    const remove = () =>
      world.api.call('DeleteEventStock', { params: { event_id: eventId, stock_id: stockId }, headers: withKey(key) });

    const first = await remove();
    expect(first.status).toBe(204);
    const retry = await remove();
    expect(retry.status).toBe(204);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await em().findOneOrFail(Stock, stockId)).isDeleted).toBe(true);
  });

  it.each([
    ['an empty key', '', 'The key must not be empty'],
    ['a key of 256 characters', 'k'.repeat(256), 'The key must be at most 255 characters long'],
    [
      'a key with a space',
      'two words',
      'The key must be printable ASCII characters without spaces, or a quoted string',
    ],
    ['a quoted key left open', '"open', 'A quoted key must be a string of printable ASCII characters'],
  ])('refuses %s (422 at the header) and runs nothing', async (_case, value, msg) => {
    const answer = await postProduct(rental({ name: 'Badly keyed rental' }), withKey(value));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual([{ loc: ['header', 'Idempotency-Key'], msg, type: 'value_error' }]);
    expect(await offersNamed('Badly keyed rental')).toBe(0);
  });

  it('ignores the header on a read', async () => {
    const answer = await world.api.call('GetProducts', { query: {}, headers: withKey(aKey()) });
    expect(answer.status).toBe(200);
    expect(await em().count(IdempotencyRecord, {})).toBeGreaterThan(0);
    expect(answer.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('Idempotency-Key across processes', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({ database: first.database, clock: first.clock });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('replays at one process the answer another process gave', async () => {
    const sandbox = await createSandbox(first.database.orm.em.fork(), first.clock, 'test');
    const key = aKey();
    const body = aProductBody(sandbox.venues[1].id, { name: 'Two processes rental' });
    const atFirst = await apiClient(first.app, sandbox.apiKey).call('PostProductOffer', {
      body,
      headers: withKey(key),
    });
    expect(atFirst.status).toBe(201);
    const atSecond = await apiClient(second.app, sandbox.apiKey).call('PostProductOffer', {
      body,
      headers: withKey(key),
    });
    expect(atSecond.status).toBe(201);
    expect(atSecond.headers['idempotent-replayed']).toBe('true');
    expect(atSecond.body).toEqual(atFirst.body);
    expect(await first.database.orm.em.fork().count(Offer, { name: 'Two processes rental' })).toBe(1);
  });
});

describe('Idempotency-Key and server errors', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('frees the key when the request fails with a server error: a retry runs it again', async () => {
    const store = new IdempotencyStore(database.orm, new SettableClock(new Date('2026-11-22T10:00:00Z')));
    let runs = 0;
    const app = express();
    app.use(express.json());
    app.use((_req, res, next) => {
      res.locals.caller = { kind: 'provider', apiKeyId: 7, apiKeyPrefix: 'test_x', providerId: 1, offererId: null };
      next();
    });
    app.post('/write', idempotentWrites(store, pino({ level: 'silent' })), (_req, res) => {
      runs += 1;
      if (runs === 1) res.status(500).json({ global: ['broken'] });
      else res.status(201).json({ run: runs });
    });
    const send = () => request(app).post('/write').set('Idempotency-Key', 'k-500').send({ a: 1 });

    expect((await send()).status).toBe(500);
    const retry = await send();
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ run: 2 });
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual({ run: 2 });
    expect(runs).toBe(2);
  });
});

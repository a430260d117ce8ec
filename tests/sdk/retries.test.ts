/**
 * The SDK's retries: it sends a call again while the answer asks to wait (429, 503, 409 with
 * Retry-After), waiting what the answer says, with the same Idempotency-Key and body, a bounded
 * number of times; anything else comes back at once. Against the platform's own rate limit first,
 * then against a server scripted to answer what a bad day brings.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, failure, orThrow } from '../../clients/typescript/src/index.js';
import { ensureDemoSandbox } from '../../server/demo.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { listenLocally, type LocalServer } from '../support/miscLocalServer.js';

/** Records the waits the client asks for instead of waiting. */
function recordedSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (milliseconds: number) => void waits.push(milliseconds) };
}

/** Counts the requests the client sends, as sent. */
function countingFetch() {
  const sent: { method: string; idempotencyKey: string | null; body: string }[] = [];
  return {
    sent,
    fetch: async (request: Request) => {
      sent.push({
        method: request.method,
        idempotencyKey: request.headers.get('Idempotency-Key'),
        body: await request.clone().text(),
      });
      return fetch(request);
    },
  };
}

describe('against the platform: its rate limit', () => {
  const RATE_LIMIT_POINTS = 2;
  let testApp: TestApp;
  let server: LocalServer;
  let apiKey: string;

  beforeAll(async () => {
    testApp = await createTestApp({ rateLimitPoints: RATE_LIMIT_POINTS });
    server = await listenLocally(testApp.app);
    apiKey = (await ensureDemoSandbox(testApp.runtime))!.apiKey;
  });

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
  });

  it('waits the Retry-After of a 429 before sending again, and gives up after its last attempt', async () => {
    const { waits, sleep } = recordedSleep();
    const { sent, fetch } = countingFetch();
    const api = createClient({ baseUrl: server.baseUrl, apiKey, sleep, fetch, retry: { maxAttempts: 3 } });
    for (let index = 0; index < RATE_LIMIT_POINTS; index += 1) await orThrow(api.GET('/public/providers/v1/provider'));

    const result = await api.GET('/public/providers/v1/provider');
    expect(result.response.status).toBe(429);
    const refused = failure(result);
    expect(refused).toMatchObject({
      kind: 'refusal',
      status: 429,
      messages: [expect.stringContaining('Too many requests')],
    });
    const retryAfter = refused?.kind === 'refusal' ? refused.retryAfterSeconds : null;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Three attempts over the budget: the two waits each as long as the answer before said.
    expect(sent).toHaveLength(RATE_LIMIT_POINTS + 3);
    expect(waits).toHaveLength(2);
    for (const wait of waits) {
      expect(wait % 1000).toBe(0);
      expect(wait / 1000).toBeGreaterThanOrEqual(retryAfter!);
      expect(wait / 1000).toBeLessThanOrEqual(60);
    }
  });

  it('keeps one Idempotency-Key for the retries of a write', async () => {
    const { waits, sleep } = recordedSleep();
    const { sent, fetch } = countingFetch();
    const api = createClient({ baseUrl: server.baseUrl, apiKey, sleep, fetch, retry: { maxAttempts: 2 } });
    const result = await api.PATCH('/public/providers/v1/provider', {
      body: { notificationUrl: 'https://tickets.example.com/notify' },
    });
    expect(result.response.status).toBe(429);
    expect(waits).toHaveLength(1);
    expect(sent).toHaveLength(2);
    expect(sent[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]).toEqual(sent[0]);
  });
});

/** One scripted answer of the bad-day server. */
interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

describe('against a server that answers 503, 409 and 429 before the answer', () => {
  let server: LocalServer;
  let script: Scripted[] = [];
  const received: { method: string; url: string; idempotencyKey: string | undefined; body: string }[] = [];

  beforeAll(async () => {
    server = await listenLocally((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const idempotencyKey = request.headers['idempotency-key'];
        received.push({
          method: request.method!,
          url: request.url!,
          idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
          body,
        });
        const answer = script.shift() ?? { status: 500, body: { global: ['Nothing scripted'] } };
        response.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
        response.end(answer.status === 204 ? undefined : JSON.stringify(answer.body));
      });
    });
  });

  afterEach(() => {
    received.length = 0;
    script = [];
  });

  afterAll(async () => {
    await server?.close();
  });

  const busy = (status: number, seconds: string): Scripted => ({
    status,
    headers: { 'Retry-After': seconds },
    body: { global: ['Try again later'] },
  });

  it('sends a write again after 503, 409 and 429, same key and same body, waiting each Retry-After', async () => {
    script = [busy(503, '5'), busy(409, '2'), busy(429, '7'), { status: 200, body: { priceCategories: [] } }];
    const { waits, sleep } = recordedSleep();
    const api = createClient({ baseUrl: server.baseUrl, apiKey: 'key', sleep, retry: { maxAttempts: 4 } });
    const data = await orThrow(
      api.POST('/public/offers/v1/events/{event_id}/price_categories', {
        params: { path: { event_id: 7 } },
        body: { priceCategories: [{ label: 'Plein tarif', price: 2000 }] },
      }),
    );
    expect(data).toEqual({ priceCategories: [] });
    expect(waits).toEqual([5000, 2000, 7000]);
    expect(received).toHaveLength(4);
    expect(new Set(received.map((request) => request.idempotencyKey)).size).toBe(1);
    expect(received[0].idempotencyKey).toBeDefined();
    expect(new Set(received.map((request) => request.body))).toEqual(
      new Set([JSON.stringify({ priceCategories: [{ label: 'Plein tarif', price: 2000 }] })]),
    );
  });

  it('gives each call a key of its own, and keeps the one the caller gives', async () => {
    script = [
      { status: 204, body: null },
      { status: 204, body: null },
      { status: 204, body: null },
    ];
    const keys = ['first', 'second'];
    const api = createClient({ baseUrl: server.baseUrl, apiKey: 'key', newIdempotencyKey: () => keys.shift()! });
    const path = { params: { path: { token: 'ABC123' } } };
    await api.PATCH('/public/bookings/v1/use/token/{token}', path);
    await api.PATCH('/public/bookings/v1/use/token/{token}', path);
    await api.PATCH('/public/bookings/v1/use/token/{token}', {
      params: { path: { token: 'ABC123' }, header: { 'Idempotency-Key': 'mine' } },
    });
    expect(received.map((request) => request.idempotencyKey)).toEqual(['first', 'second', 'mine']);
  });

  it('sends no key on a read', async () => {
    script = [{ status: 200, body: { id: 1 } }];
    const api = createClient({ baseUrl: server.baseUrl, apiKey: 'key' });
    await api.GET('/public/providers/v1/provider');
    expect(received).toMatchObject([{ method: 'GET', idempotencyKey: undefined }]);
  });

  it('returns at once what a retry would not change (422), and a wait longer than allowed', async () => {
    const { waits, sleep } = recordedSleep();
    const api = createClient({ baseUrl: server.baseUrl, apiKey: 'key', sleep, retry: { maxDelaySeconds: 30 } });
    script = [{ status: 422, body: [{ loc: ['name'], msg: 'Field required', type: 'missing' }] }];
    const invalid = await api.GET('/public/providers/v1/provider');
    expect(failure(invalid)).toEqual({
      kind: 'validation',
      status: 422,
      errors: [{ loc: ['name'], msg: 'Field required', type: 'missing' }],
    });
    script = [busy(503, '120')];
    const unavailable = await api.GET('/public/providers/v1/provider');
    expect(failure(unavailable)).toEqual({
      kind: 'refusal',
      status: 503,
      messages: ['Try again later'],
      retryAfterSeconds: 120,
    });
    expect(received).toHaveLength(2);
    expect(waits).toEqual([]);
  });

  it('reads a Retry-After given as an HTTP date', async () => {
    script = [busy(503, new Date(Date.now() + 3_000).toUTCString()), { status: 200, body: { id: 1 } }];
    const { waits, sleep } = recordedSleep();
    const api = createClient({ baseUrl: server.baseUrl, apiKey: 'key', sleep });
    await orThrow(api.GET('/public/providers/v1/provider'));
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(2_000);
    expect(waits[0]).toBeLessThanOrEqual(4_000);
  });
});

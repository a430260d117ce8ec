import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { REQUEST_LOG_BODY_MAX_BYTES, REQUEST_LOG_RETENTION_MS } from '../../platform/requestLog/index.js';
import { REQUEST_LOG_PURGE_TASK } from '../../server/runtime.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { graphqlAs } from '../support/builders.js';
import { aProvider, createSandbox } from '../support/fixtures.js';
import { type RecordedRow, recordedRows } from '../support/requestLog.js';

type Row = Record<string, unknown>;

/** Every column of the rows, bodies included, oldest first. */
async function rowsOf(testApp: TestApp, providerId?: number): Promise<RecordedRow[]> {
  await testApp.runtime.requestLog.flush();
  return recordedRows(testApp.database.orm.em.fork(), providerId === undefined ? {} : { providerId });
}

const prefixOf = (key: string) => key.split('_').slice(0, 2).join('_');

let idCounter = 0;
/** A request id no other request of this file sends. */
const aRequestId = () => `rl-${process.pid}-${(idCounter += 1)}`;

describe('The request log of the integrator’s console', () => {
  let testApp: TestApp;
  let first: { providerId: number; key: string };
  let second: { providerId: number; key: string };
  let internalKey: string;
  const get = (key: string, path: string, requestId = aRequestId()) =>
    request(testApp.app).get(path).set('Authorization', `Bearer ${key}`).set('X-Request-Id', requestId);
  const patchProvider = (key: string, body: unknown, requestId = aRequestId()) =>
    request(testApp.app)
      .patch('/public/providers/v1/provider')
      .set('Authorization', `Bearer ${key}`)
      .set('X-Request-Id', requestId)
      .send(body as object);
  const graph = async (key: string, query: string, variables?: Record<string, unknown>) => {
    await testApp.runtime.requestLog.flush();
    return (await graphqlAs(testApp, key, query, variables)).body as { data?: Record<string, any>; errors?: Row[] };
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    const em = testApp.database.orm.em.fork();
    const sandbox = await createSandbox(em, testApp.clock, 'test');
    first = { providerId: sandbox.provider.id, key: sandbox.apiKey };
    const other = await aProvider(em, testApp.clock, { name: 'Second Ticketing' });
    second = { providerId: other.provider.id, key: other.apiKey };
    internalKey = issueApiKey(em, testApp.clock, { env: 'test', internal: true, label: 'console' }).key;
    await em.flush();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('records a read with its fields, the answer as sent, and no header', async () => {
    const requestId = aRequestId();
    const answer = await get(first.key, '/public/providers/v1/provider?probe=1&x=%C3%A9', requestId);
    expect(answer.status).toBe(200);

    const [row] = (await rowsOf(testApp)).filter((entry) => entry.requestId === requestId);
    expect(row).toMatchObject({
      providerId: first.providerId,
      apiKeyPrefix: prefixOf(first.key),
      method: 'GET',
      path: '/public/providers/v1/provider',
      query: 'probe=1&x=%C3%A9',
      operationId: 'GetProvider',
      status: 200,
      createdAt: testApp.clock.now(),
      requestBody: null,
      requestBodyTruncated: false,
      responseBody: answer.text,
      responseBodyTruncated: false,
    });
    expect(row.apiKeyId).toBeGreaterThan(0);
    expect(row.durationMs).toBeGreaterThanOrEqual(0);
    // Neither the key's secret nor any header is kept.
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(first.key);
    expect(stored).not.toContain(first.key.split('_').at(-1));
    expect(stored.toLowerCase()).not.toContain('authorization');
    expect(stored.toLowerCase()).not.toContain('bearer');
  });

  it('records a refused write with the body sent and the error as answered', async () => {
    const requestId = aRequestId();
    const body = { notificationUrl: 'not an address' };
    const answer = await patchProvider(first.key, body, requestId);
    expect(answer.status).toBe(422);

    const [row] = (await rowsOf(testApp)).filter((entry) => entry.requestId === requestId);
    expect(row).toMatchObject({
      method: 'PATCH',
      operationId: 'UpdateProvider',
      status: 422,
      requestBody: JSON.stringify(body),
      responseBody: answer.text,
      responseBodyTruncated: false,
    });
    expect(JSON.parse(row.responseBody as string)).toEqual(answer.body);
  });

  it('keeps 64 KB of a longer body, marked as cut', async () => {
    const requestId = aRequestId();
    // Two-byte characters, so that the limit falls inside one: no half character is kept.
    const body = { notificationUrl: `https://example.com/${'é'.repeat(40_000)}` };
    expect((await patchProvider(first.key, body, requestId)).status).toBe(422);

    const [row] = (await rowsOf(testApp)).filter((entry) => entry.requestId === requestId);
    expect(row.requestBodyTruncated).toBe(true);
    const kept = row.requestBody as string;
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(REQUEST_LOG_BODY_MAX_BYTES);
    expect(Buffer.byteLength(kept)).toBeGreaterThan(REQUEST_LOG_BODY_MAX_BYTES - 4);
    expect(JSON.stringify(body).startsWith(kept)).toBe(true);
  });

  it('records a path that does not exist and a body that is not JSON, as answered', async () => {
    const unknown = aRequestId();
    const notFound = await get(first.key, '/public/providers/v1/nowhere?x=1', unknown);
    expect(notFound.status).toBe(404);
    const malformed = aRequestId();
    const refused = await request(testApp.app)
      .patch('/public/providers/v1/provider')
      .set('Authorization', `Bearer ${first.key}`)
      .set('X-Request-Id', malformed)
      .set('Content-Type', 'application/json')
      .send('{"notificationUrl": ');
    expect(refused.status).toBe(422);

    const rows = await rowsOf(testApp, first.providerId);
    expect(rows.find((row) => row.requestId === unknown)).toMatchObject({
      path: '/public/providers/v1/nowhere',
      query: 'x=1',
      operationId: null,
      status: 404,
      responseBody: notFound.text,
    });
    expect(rows.find((row) => row.requestId === malformed)).toMatchObject({
      method: 'PATCH',
      status: 422,
      requestBody: '{"notificationUrl": ',
      responseBody: refused.text,
    });
  });

  it('records nothing of a request without a valid key', async () => {
    const before = (await rowsOf(testApp)).length;
    expect((await request(testApp.app).get('/public/providers/v1/provider')).status).toBe(401);
    expect((await get('test_000000000000_nope', '/public/providers/v1/provider')).status).toBe(401);
    expect(await rowsOf(testApp)).toHaveLength(before);
  });

  it("shows a provider key its own provider's requests only, newest first", async () => {
    const mine = aRequestId();
    const theirs = aRequestId();
    expect((await get(first.key, '/public/providers/v1/provider', mine)).status).toBe(200);
    expect((await get(second.key, '/public/providers/v1/provider', theirs)).status).toBe(200);

    const query = '{ requests { id requestId providerId } }';
    const firstSees = (await graph(first.key, query)).data?.requests as Row[];
    expect(firstSees.length).toBeGreaterThan(0);
    expect(firstSees.every((entry) => entry.providerId === first.providerId)).toBe(true);
    expect(firstSees[0].requestId).toBe(mine);
    expect(firstSees.map((entry) => entry.id)).toEqual(
      [...firstSees.map((entry) => entry.id)].sort((a, b) => Number(b) - Number(a)),
    );
    const secondSees = (await graph(second.key, query)).data?.requests as Row[];
    expect(secondSees.map((entry) => entry.requestId)).toEqual([theirs]);

    // Another provider's request is not found by its id, and naming that provider is refused.
    const lookup = 'query($id: String!) { request(requestId: $id) { requestId } }';
    expect((await graph(first.key, lookup, { id: theirs })).data?.request).toBeNull();
    expect((await graph(second.key, lookup, { id: theirs })).data?.request).toEqual({ requestId: theirs });
    const named = await graph(first.key, `{ requests(filter: { providerId: ${second.providerId} }) { id } }`);
    expect(named.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });

    // Internal tools read every provider, or the one they name.
    const staffSees = (
      await graph(internalKey, `{ requests(filter: { providerId: ${second.providerId} }) { requestId } }`)
    ).data?.requests as Row[];
    expect(staffSees.map((entry) => entry.requestId)).toEqual([theirs]);
    const staffLookup = await graph(internalKey, lookup, { id: theirs });
    expect(staffLookup.data?.request).toEqual({ requestId: theirs });
  });

  it('finds one request by its id, with its bodies', async () => {
    const requestId = aRequestId();
    const body = { notificationUrl: 'ftp://example.com' };
    const answer = await patchProvider(second.key, body, requestId);
    const found = await graph(
      second.key,
      `query($id: String!) { request(requestId: $id) {
        requestId method path query operationId status durationMs apiKeyPrefix createdAt
        requestBody requestBodyTruncated responseBody responseBodyTruncated } }`,
      { id: requestId },
    );
    expect(found.errors).toBeUndefined();
    expect(found.data?.request).toMatchObject({
      requestId,
      method: 'PATCH',
      path: '/public/providers/v1/provider',
      query: null,
      operationId: 'UpdateProvider',
      status: answer.status,
      apiKeyPrefix: prefixOf(second.key),
      createdAt: testApp.clock.now().toISOString(),
      requestBody: JSON.stringify(body),
      requestBodyTruncated: false,
      responseBody: answer.text,
      responseBodyTruncated: false,
    });
  });

  it('filters by status class, operation, path and request id', async () => {
    const ok = aRequestId();
    const refused = aRequestId();
    expect((await get(second.key, '/public/providers/v1/venues/999999', aRequestId())).status).toBe(404);
    expect((await get(second.key, '/public/providers/v1/provider', ok)).status).toBe(200);
    expect((await patchProvider(second.key, { bookingUrl: 'nope' }, refused)).status).toBe(422);

    const ids = async (filter: string) =>
      ((await graph(second.key, `{ requests(filter: ${filter}) { requestId status operationId path } }`)).data
        ?.requests ?? []) as Row[];
    const clientErrors = await ids('{ statusClass: "4xx" }');
    expect(clientErrors.length).toBeGreaterThanOrEqual(2);
    expect(clientErrors.every((entry) => Number(entry.status) >= 400 && Number(entry.status) < 500)).toBe(true);
    expect((await ids('{ statusClass: "2xx" }')).every((entry) => entry.status === 200)).toBe(true);
    expect((await ids('{ operationId: "UpdateProvider" }')).every((e) => e.operationId === 'UpdateProvider')).toBe(
      true,
    );
    const venues = await ids('{ path: "/public/providers/v1/venues" }');
    expect(venues.map((entry) => entry.path)).toEqual(['/public/providers/v1/venues/999999']);
    expect((await ids(`{ requestId: "${refused}" }`)).map((entry) => entry.status)).toEqual([422]);
    expect(await ids(`{ requestId: "${ok}", statusClass: "4xx" }`)).toEqual([]);

    const bad = await graph(second.key, '{ requests(filter: { statusClass: "2xy" }) { id } }');
    expect(bad.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED' } });
  });

  it('pages newest first with before', async () => {
    for (let index = 0; index < 3; index += 1) await get(second.key, '/public/providers/v1/provider');
    const all = ((await graph(second.key, '{ requests { id } }')).data?.requests as Row[]).map((e) => e.id);
    const firstPage = (
      (await graph(second.key, '{ requests(page: { limit: 2 }) { id } }')).data?.requests as Row[]
    ).map((e) => e.id);
    expect(firstPage).toEqual(all.slice(0, 2));
    const next = (
      (await graph(second.key, `{ requests(page: { limit: 2, before: ${String(firstPage[1])} }) { id } }`)).data
        ?.requests as Row[]
    ).map((e) => e.id);
    expect(next).toEqual(all.slice(2, 4));
  });
});

// On a SQLite file, as a server runs: each instance writes through its own thread and connection.
describe('The request log’s bounds', () => {
  const capOfThree = { REQUEST_LOG_MAX_ROWS_PER_PROVIDER: '3' };
  let database: TestDatabase;
  let testApp: TestApp;
  let second: TestApp | undefined;
  let first: { providerId: number; key: string };
  let other: { providerId: number; key: string };
  const get = (app: TestApp, key: string, requestId: string) =>
    request(app.app)
      .get('/public/providers/v1/provider')
      .set('Authorization', `Bearer ${key}`)
      .set('X-Request-Id', requestId);
  const requestIdsOf = async (providerId: number) => (await rowsOf(testApp, providerId)).map((row) => row.requestId);

  beforeAll(async () => {
    database = await createTestDatabase({ sqlite: 'file' });
    testApp = await createTestApp({ database, env: capOfThree });
    const em = testApp.database.orm.em.fork();
    const sandbox = await createSandbox(em, testApp.clock, 'test');
    first = { providerId: sandbox.provider.id, key: sandbox.apiKey };
    const another = await aProvider(em, testApp.clock, { name: 'Capped Ticketing' });
    other = { providerId: another.provider.id, key: another.apiKey };
  });
  afterAll(async () => {
    await second?.close();
    await testApp?.close();
    await database?.destroy();
  });

  it('drops requests older than 7 days, then the oldest beyond the cap of each provider', async () => {
    await get(testApp, first.key, 'old');
    testApp.clock.advance(REQUEST_LOG_RETENTION_MS - 60_000);
    await get(testApp, other.key, 'other-1');
    testApp.clock.advance(120_000);
    for (const id of ['new-1', 'new-2', 'new-3', 'new-4']) await get(testApp, first.key, id);
    expect(await requestIdsOf(first.providerId)).toEqual(['old', 'new-1', 'new-2', 'new-3', 'new-4']);

    await testApp.runtime.scheduler.runNow(REQUEST_LOG_PURGE_TASK);
    // "old" is past 7 days; "new-1" is the oldest beyond the cap of 3; the other provider is under its cap.
    expect(await requestIdsOf(first.providerId)).toEqual(['new-2', 'new-3', 'new-4']);
    expect(await requestIdsOf(other.providerId)).toEqual(['other-1']);

    // Run again (as another process would, at once): nothing more goes.
    await testApp.runtime.scheduler.runNow(REQUEST_LOG_PURGE_TASK);
    expect(await requestIdsOf(first.providerId)).toEqual(['new-2', 'new-3', 'new-4']);
  });

  it('records the requests of two app instances on one database', async () => {
    second = await createTestApp({ database: testApp.database, clock: testApp.clock, env: capOfThree });
    await get(testApp, other.key, 'from-first-instance');
    // Rows are numbered as written: each instance writes its own batches, so their order is made explicit here.
    await testApp.runtime.requestLog.flush();
    await get(second, other.key, 'from-second-instance');
    await second.runtime.requestLog.flush();
    const ids = await requestIdsOf(other.providerId);
    expect(ids).toContain('from-first-instance');
    expect(ids).toContain('from-second-instance');

    // The cap holds over both instances' rows, whichever instance runs the task.
    for (const id of ['more-1', 'more-2']) await get(second, other.key, id);
    await second.runtime.requestLog.flush();
    await second.runtime.scheduler.runNow(REQUEST_LOG_PURGE_TASK);
    expect(await requestIdsOf(other.providerId)).toEqual(['from-second-instance', 'more-1', 'more-2']);
  });

  it('writes what it still holds when an instance shuts down', async () => {
    const leaving = await createTestApp({ database: testApp.database, clock: testApp.clock, env: capOfThree });
    await get(leaving, other.key, 'answered-before-shutdown');
    await leaving.close();
    expect(await requestIdsOf(other.providerId)).toContain('answered-before-shutdown');
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type CreatedSandbox } from '../../graphql/providers/sandbox.js';
import { SettableClock } from '../../graphql/shared/clock.js';
import { loadConfig } from '../../server/config.js';
import { type Core, createCore } from '../../server/runtime.js';
import { connectSubgraphs } from '../../server/subgraphs/connect.js';
import { serviceSdlOf, SubgraphLink } from '../../server/subgraphs/link.js';
import { createSubgraphApp, type SubgraphApp } from '../../server/subgraphs/serviceApp.js';
import { type HopCaller, SIGNED_CALLER_HEADER, signCaller } from '../../server/subgraphs/signedCaller.js';
import { ServiceUnavailableError } from '../../rest-facade/httpErrors.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const SECRET = 'the-platform-secret-of-this-test-file';
const PROVIDER_QUERY = '{ provider { id name } }';

/**
 * One subgraph served over HTTP, as `npm run subgraph -- providers` serves it: its schema to
 * anyone, its data only to a caller the API process signed.
 */
describe('a subgraph service', () => {
  let database: TestDatabase;
  let core: Core;
  let service: SubgraphApp;
  let sandbox: CreatedSandbox;
  let hop: HopCaller;
  const clock = new SettableClock(new Date('2026-11-22T10:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({ LOG_LEVEL: 'silent', INTERNAL_SIGNING_SECRET: SECRET });
    core = await createCore(config, ['providers'], { orm: database.orm, clock, logger: pino({ level: 'silent' }) });
    service = await createSubgraphApp({
      core,
      name: 'providers',
      secret: SECRET,
      logger: core.logger,
    });
    sandbox = await createSandbox(database.orm.em.fork(), clock, 'test');
    hop = {
      caller: {
        kind: 'provider',
        apiKeyId: 1,
        apiKeyPrefix: 'test_x',
        providerId: sandbox.provider.id,
        offererId: sandbox.offerer.id,
      },
      callerProvider: null,
      requestId: 'trace-me',
    };
  });
  afterAll(async () => {
    await service.stop();
    await core.close();
    await database.destroy();
  });

  const post = (body: object, headers: Record<string, string> = {}) =>
    request(service.app).post('/graphql').set('content-type', 'application/json').set(headers).send(body);

  it('serves its schema without a signature, for composition tools', async () => {
    const answer = await post({ query: '{ _service { sdl } }' });
    expect(answer.status).toBe(200);
    expect(answer.body.data._service.sdl).toBe(serviceSdlOf(core.graph.subgraphs.providers.schema));
  });

  it('refuses every field that reads data to an unsigned request, entities included', async () => {
    for (const query of [
      PROVIDER_QUERY,
      '{ _service { sdl } provider { id } }',
      `{ _entities(representations: [{ __typename: "Provider", id: ${sandbox.provider.id} }]) { __typename } }`,
      'mutation { __typename }',
    ]) {
      const answer = await post({ query });
      expect(answer.status, query).toBe(401);
      expect(answer.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(answer.body.data).toBeUndefined();
    }
  });

  it('answers a signed caller, with the request id it was given', async () => {
    const answer = await post(
      { query: PROVIDER_QUERY },
      { [SIGNED_CALLER_HEADER]: signCaller(SECRET, hop), 'x-request-id': 'trace-me' },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { provider: { id: sandbox.provider.id, name: sandbox.provider.name } } });
    expect(answer.headers['x-request-id']).toBe('trace-me');
  });

  it('refuses a caller signed with another secret, expired, or altered', async () => {
    const header = signCaller(SECRET, hop);
    const [claims, signature] = header.split('.');
    const altered = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { caller: { providerId: number } };
    altered.caller.providerId += 1;
    const refused = {
      'another secret': signCaller('another-secret-of-at-least-32-characters', hop),
      expired: signCaller(SECRET, hop, Date.now() - 120_000),
      altered: `${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${signature}`,
    };
    for (const [what, forged] of Object.entries(refused)) {
      const answer = await post({ query: PROVIDER_QUERY }, { [SIGNED_CALLER_HEADER]: forged });
      expect(answer.status, what).toBe(401);
      expect(answer.body.errors[0].extensions.code, what).toBe('UNAUTHENTICATED');
      expect(answer.body.data, what).toBeUndefined();
    }
  });

  it('reads an unsigned body up to 16 KB only', async () => {
    const answer = await post({ query: `{ _service { sdl } } # ${'x'.repeat(20_000)}` });
    expect(answer.status).toBe(413);
  });

  it('says whether its database answers', async () => {
    expect((await request(service.app).get('/health')).body).toEqual({ status: 'ok', subgraph: 'providers' });
    const ready = await request(service.app).get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ database: 'ok' });
  });

  describe('reached through a link, as the API process reaches it', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = service.app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const linkTo = (expectedSdl: string, target = url) =>
      new SubgraphLink({ name: 'providers', url: target, secret: SECRET, timeoutMs: 2_000, expectedSdl });

    it('runs a document for a signed caller, domain errors kept for the facade to map', async () => {
      const link = linkTo(serviceSdlOf(core.graph.subgraphs.providers.schema));
      expect(await link.execute(PROVIDER_QUERY, {}, hop)).toEqual({
        data: { provider: { id: sandbox.provider.id, name: sandbox.provider.name } },
        errors: undefined,
      });
      const missing = await link.execute('query V($id: Int!) { venue(id: $id) { id } }', { id: 987_654 }, hop);
      expect(missing.errors?.[0].extensions.code).toBe('NOT_FOUND');
      await link.close();
    });

    it('refuses to run anything on a service whose schema differs from its own', async () => {
      const link = linkTo('type Query { other: Int }');
      expect(await link.checkSchema()).toBe('different');
      await expect(link.execute(PROVIDER_QUERY, {}, hop)).rejects.toBeInstanceOf(ServiceUnavailableError);
      await link.close();
    });

    it('gives up on a service that accepts the call but does not answer in time', async () => {
      const silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const address = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/graphql`;
      const link = new SubgraphLink({
        name: 'providers',
        url: address,
        secret: SECRET,
        timeoutMs: 200,
        expectedSdl: '',
      });
      const started = Date.now();
      await expect(link.execute(PROVIDER_QUERY, {}, hop)).rejects.toThrow('The providers service is unavailable');
      expect(Date.now() - started).toBeLessThan(5_000);
      await link.close();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });

    it('stops an API process from starting when a service on SUBGRAPH_URLS serves another schema', async () => {
      const foreign = createServer((_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: { _service: { sdl: 'type Query { other: Int }' } } }));
      });
      await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
      const address = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/graphql`;
      const config = loadConfig({ INTERNAL_SIGNING_SECRET: SECRET, SUBGRAPH_URLS: `offers=${address}` });
      await expect(connectSubgraphs(config, core.graph, core.logger)).rejects.toThrow(
        `SUBGRAPH_URLS: offers (${address}) serve(s) another schema than this process's code`,
      );
      await new Promise<void>((resolve) => foreign.close(() => resolve()));
    });

    it('turns a service that does not answer into ServiceUnavailableError', async () => {
      const closed = linkTo('irrelevant', 'http://127.0.0.1:1/graphql');
      expect(await closed.checkSchema()).toBe('unreachable');
      await expect(closed.execute(PROVIDER_QUERY, {}, hop)).rejects.toThrow('The providers service is unavailable');
      await closed.close();
    });
  });
});

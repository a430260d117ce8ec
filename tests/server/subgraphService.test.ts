import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import request from 'supertest';
import WebSocket, { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Provider } from '../../graphql/providers/Provider.js';
import { createSandbox, type CreatedSandbox } from '../../graphql/providers/sandbox.js';
import { SettableClock } from '../../platform/time/clock.js';
import { loadConfig } from '../../server/config.js';
import { type Core, createCore } from '../../server/runtime.js';
import { CompiledDocuments } from '../../server/subgraphs/compiledDocuments.js';
import { connectSubgraphs } from '../../server/subgraphs/connect.js';
import { serviceSdlOf, SubgraphLink } from '../../server/subgraphs/link.js';
import { answersOf, callRecord, type HopAnswer } from '../../server/subgraphs/hopFrames.js';
import { routeCallBody, routeTableDigest } from '../../server/subgraphs/routeCalls.js';
import { createSubgraphApp, type SubgraphApp } from '../../server/subgraphs/serviceApp.js';
import { digestOf, type HopCaller, SIGNED_CALLER_HEADER, signCaller } from '../../server/subgraphs/signedCaller.js';
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

  const post = (body: object | string, headers: Record<string, string> = {}) =>
    request(service.app)
      .post('/graphql')
      .set('content-type', 'application/json')
      .set(headers)
      .send(typeof body === 'string' ? body : JSON.stringify(body));
  const ownSchema = () => digestOf(serviceSdlOf(core.graph.subgraphs.providers.schema));
  /** The header the API process sends with `body`, for the schema it expects (this service's, unless given). */
  const signedFor = (body: object, options: { schemaDigest?: string; now?: number } = {}) =>
    signCaller(
      SECRET,
      hop,
      { schemaDigest: options.schemaDigest ?? ownSchema(), bodyDigest: digestOf(JSON.stringify(body)) },
      options.now,
    );
  const signedPost = (body: object, headers: Record<string, string> = {}) =>
    post(body, { [SIGNED_CALLER_HEADER]: signedFor(body), ...headers });

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
      // What a public field's name or shape might hide: an alias, a fragment, an inline fragment.
      '{ _service: provider { id } }',
      '{ ...Data } fragment Data on Query { provider { id } }',
      '{ ... on Query { provider { id } } }',
      '{ __schema { types { name } } }',
    ]) {
      const answer = await post({ query });
      expect(answer.status, query).not.toBe(200);
      expect(answer.body.data ?? undefined, query).toBeUndefined();
    }
    // The public operation named, and another one beside it: only the named one runs.
    const twoOperations = 'query Schema { _service { sdl } } query Data { provider { id } }';
    expect((await post({ query: twoOperations, operationName: 'Data' })).status).toBe(401);
    expect((await post({ query: twoOperations, operationName: 'Schema' })).status).toBe(200);
    // A batch, a GET, a persisted query: none of them reaches the data either.
    expect((await post(`[${JSON.stringify({ query: PROVIDER_QUERY })}]`)).body.data).toBeUndefined();
    const viaGet = await request(service.app)
      .get('/graphql')
      .query({ query: PROVIDER_QUERY })
      .set('apollo-require-preflight', 'true');
    expect(viaGet.status).toBe(401);
    const persisted = await post({
      extensions: { persistedQuery: { version: 1, sha256Hash: digestOf(PROVIDER_QUERY) } },
    });
    expect(persisted.body.data ?? undefined).toBeUndefined();
  });

  it('answers a signed caller, with the request id it was given', async () => {
    const answer = await signedPost({ query: PROVIDER_QUERY }, { 'x-request-id': 'trace-me' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { provider: { id: sandbox.provider.id, name: sandbox.provider.name } } });
    expect(answer.headers['x-request-id']).toBe('trace-me');
  });

  it("answers a signed caller's invalid document as Apollo Server does: 400, nothing run", async () => {
    const answer = await signedPost({ query: '{ provider { nope } }' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it("serves the staff's fields too (the provider audience is the gateway's), refused to a provider caller", async () => {
    const answer = await signedPost({ query: '{ provider { id apiKeys { id } } }' });
    expect(answer.status).toBe(200);
    expect(answer.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(answer.body.data).toBeNull();
  });

  it('compiles a document once and runs it compiled after (as the facade does in process)', () => {
    const documents = new CompiledDocuments(core.graph.subgraphs.providers.schema);
    const plan = documents.plan(PROVIDER_QUERY, undefined);
    expect(plan).not.toBeNull();
    expect(documents.plan(PROVIDER_QUERY, undefined)).toBe(plan);
    expect(documents.plan('{ provider { nope } }', undefined)).toBeNull();
    expect(documents.plan('{ provider {', undefined)).toBeNull();
  });

  it('refuses a caller signed with another secret, expired, altered, or signed for another body', async () => {
    const body = { query: PROVIDER_QUERY };
    const header = signedFor(body);
    const [claims, signature] = header.split('.');
    const altered = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { caller: { providerId: number } };
    altered.caller.providerId += 1;
    const target = { schemaDigest: ownSchema(), bodyDigest: digestOf(JSON.stringify(body)) };
    const refused = {
      'another secret': signCaller('another-secret-of-at-least-32-characters', hop, target),
      expired: signedFor(body, { now: Date.now() - 120_000 }),
      altered: `${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${signature}`,
      'another body': signedFor({ query: '{ provider { id } }' }),
    };
    for (const [what, forged] of Object.entries(refused)) {
      const answer = await post(body, { [SIGNED_CALLER_HEADER]: forged });
      expect(answer.status, what).toBe(401);
      expect(answer.body.errors[0].extensions.code, what).toBe('UNAUTHENTICATED');
      expect(answer.body.data, what).toBeUndefined();
    }
  });

  it('refuses, unrun, a call signed for another schema than it serves (another build, another subgraph)', async () => {
    const body = { query: PROVIDER_QUERY };
    const answer = await post(body, {
      [SIGNED_CALLER_HEADER]: signedFor(body, { schemaDigest: digestOf('type Query { a: Int }') }),
    });
    expect(answer.status).toBe(409);
    expect(answer.body.errors[0].extensions.code).toBe('SCHEMA_MISMATCH');
    expect(answer.body.data).toBeUndefined();
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
      service.acceptHops(server);
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const linkTo = (expectedSdl: string, target = url) =>
      new SubgraphLink({ name: 'providers', url: target, secret: SECRET, timeoutMs: 2_000, expectedSdl });

    it('runs a route for a signed caller and answers its JSON as written, domain errors kept for the facade', async () => {
      const link = linkTo(serviceSdlOf(core.graph.subgraphs.providers.schema));
      const provider = await link.runRoute('GetProvider', {}, hop);
      expect(provider).toMatchObject({ status: 200 });
      expect(JSON.parse((provider as { json: string }).json)).toMatchObject({
        id: sandbox.provider.id,
        name: sandbox.provider.name,
      });
      const missing = await link.runRoute('GetVenueBySiret', { siret: '98765432100017' }, hop);
      expect('errors' in missing && missing.errors[0].extensions.code).toBe('NOT_FOUND');
      await link.close();
    });

    it('refuses to run anything on a service whose schema differs from its own: the service refuses it unrun', async () => {
      const link = linkTo('type Query { other: Int }');
      expect(await link.checkSchema()).toBe('different');
      await expect(link.runRoute('GetProvider', {}, hop)).rejects.toBeInstanceOf(ServiceUnavailableError);
      await link.close();
    });

    it("treats a service's refusal of its signature as the platform's fault, not the caller's", async () => {
      const link = new SubgraphLink({
        name: 'providers',
        url,
        secret: 'not-the-secret-the-service-was-given-at-all',
        timeoutMs: 2_000,
        expectedSdl: serviceSdlOf(core.graph.subgraphs.providers.schema),
      });
      const refusal = link.runRoute('GetProvider', {}, hop);
      await expect(refusal).rejects.toThrow("the providers service refused this process's signature");
      await expect(refusal).rejects.not.toBeInstanceOf(ServiceUnavailableError);
      await link.close();
    });

    /** A service that answers its schema, then takes the hop's calls and never answers them; pongs only if `alive`. */
    const silentService = async (alive: boolean) => {
      const server = createServer((_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: { _service: { sdl: 'type Query { a: Int }' } } }));
      });
      const sockets = new WebSocketServer({ server, autoPong: alive });
      const received: string[] = [];
      let connections = 0;
      sockets.on('connection', (connection) => {
        connections += 1;
        connection.on('message', (data: Buffer) => received.push(String(data)));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const link = new SubgraphLink({
        name: 'providers',
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
        secret: SECRET,
        timeoutMs: 200,
        expectedSdl: 'type Query { a: Int }',
      });
      return {
        link,
        received,
        connections: () => connections,
        async close() {
          await link.close();
          sockets.close();
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        },
      };
    };

    it('gives up on a service that accepts the call but does not answer in time, and keeps a connection that pongs', async () => {
      const service = await silentService(true);
      expect(await service.link.checkSchema()).toBe('same');
      const started = Date.now();
      await expect(service.link.runRoute('GetProvider', {}, hop)).rejects.toThrow(
        'The providers service is unavailable',
      );
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(190);
      expect(waited).toBeLessThan(5_000);
      expect(service.received, 'the call reached the service').toHaveLength(1);
      // Slow, not gone: its pong keeps the connection for the next call.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(service.link.runRoute('GetProvider', {}, hop)).rejects.toThrow('timed out');
      expect(service.received).toHaveLength(2);
      expect(service.connections()).toBe(1);
      await service.close();
    });

    it('drops a connection that answers neither a call nor a ping, and calls on a new one', async () => {
      const service = await silentService(false);
      await expect(service.link.runRoute('GetProvider', {}, hop)).rejects.toThrow('timed out');
      // The ping's deadline passes without a pong: the connection is dropped.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(service.link.runRoute('GetProvider', {}, hop)).rejects.toThrow('timed out');
      expect(service.received).toHaveLength(2);
      expect(service.connections()).toBe(2);
      await service.close();
    });

    /** The route table the API process signs its route calls for: this service's own. */
    const ownRoutes = () => routeTableDigest('providers', serviceSdlOf(core.graph.subgraphs.providers.schema));
    const routeCall = (id: number, body: string, options: { schemaDigest?: string; signedBody?: string } = {}) =>
      callRecord({
        id,
        signedCaller: signCaller(SECRET, hop, {
          schemaDigest: options.schemaDigest ?? ownRoutes(),
          bodyDigest: digestOf(options.signedBody ?? body),
        }),
        traceParent: '',
        body,
      });
    /**
     * Sends one frame on a connection of its own; resolves to the answers of the frames back once
     * `count` have come (null if a frame is not answers), or to the close code.
     */
    const exchange = (frame: string, options: { path?: string; count?: number } = {}) =>
      new Promise<{ answers: HopAnswer[] | null } | { closed: number }>((resolve, reject) => {
        const socket = new WebSocket(url.replace(/^http/, 'ws').replace('/graphql', options.path ?? '/graphql'));
        const answers: HopAnswer[] = [];
        socket.on('open', () => socket.send(frame));
        socket.on('message', (data: Buffer) => {
          const more = answersOf(String(data));
          if (more) answers.push(...more);
          if (!more || answers.length >= (options.count ?? 1)) {
            resolve({ answers: more && answers });
            socket.close();
          }
        });
        socket.on('close', (code) => resolve({ closed: code }));
        socket.on('error', reject);
      });

    it('answers each route call of a frame by its id, as each finishes', async () => {
      const provider = routeCallBody({ operationId: 'GetProvider', variables: {} });
      const venues = routeCallBody({ operationId: 'GetOffererVenues', variables: {} });
      const frame = [routeCall(7, provider), routeCall(8, venues), routeCall(9, provider)].join('');
      const result = await exchange(frame, { count: 3 });
      const answers = [...(result as { answers: HopAnswer[] }).answers].sort((a, b) => a.id - b.id);
      expect(answers.map(({ id, outcome, status }) => ({ id, outcome, status }))).toEqual(
        [7, 8, 9].map((id) => ({ id, outcome: 'answer', status: 200 })),
      );
      expect(JSON.parse(answers[0].body)).toMatchObject({ id: sandbox.provider.id, name: sandbox.provider.name });
      expect(JSON.parse(answers[1].body)).toMatchObject([{ offerer: { id: sandbox.offerer.id } }]);
      expect(answers[2].body).toBe(answers[0].body);
    });

    it('refuses, unrun, a route call unsigned, signed for another body or another route table, or of no route of its own', async () => {
      const rename = routeCallBody({
        operationId: 'UpdateProvider',
        variables: { input: { notificationUrl: 'https://evil.example.org/n' } },
      });
      const calls: [string, string, number, string][] = [
        ['unsigned', callRecord({ id: 1, signedCaller: '', traceParent: '', body: rename }), 401, 'UNAUTHENTICATED'],
        [
          'another body',
          routeCall(2, rename, { signedBody: routeCallBody({ operationId: 'GetProvider', variables: {} }) }),
          401,
          'UNAUTHENTICATED',
        ],
        // A GraphQL header's digest (the schema alone) does not name the routes: another build may differ in them.
        ['the schema alone', routeCall(3, rename, { schemaDigest: ownSchema() }), 409, 'SCHEMA_MISMATCH'],
        [
          'a route of another subgraph',
          routeCall(4, routeCallBody({ operationId: 'GetEvents', variables: {} })),
          400,
          'BAD_REQUEST',
        ],
        ['not a route call', routeCall(5, JSON.stringify({ query: PROVIDER_QUERY })), 400, 'BAD_REQUEST'],
      ];
      for (const [what, record, status, code] of calls) {
        const result = await exchange(record);
        const [answer] = (result as { answers: HopAnswer[] }).answers;
        expect({ outcome: answer.outcome, status: answer.status }, what).toEqual({ outcome: 'refused', status });
        expect(JSON.parse(answer.body).errors[0].extensions.code, what).toBe(code);
      }
      const provider = await database.orm.em.fork().findOneOrFail(Provider, sandbox.provider.id);
      expect(provider.notificationUrl).not.toBe('https://evil.example.org/n');
    });

    it('closes a connection whose frame is not made of route calls, and takes no connection on another path', async () => {
      expect(await exchange('{"query":"{ provider { id } }"}')).toEqual({ closed: 1008 });
      const body = routeCallBody({ operationId: 'GetProvider', variables: {} });
      // A body shorter than its record says: the rest of the frame is not a record.
      expect(await exchange(routeCall(1, body).replace(`\t${body.length}\t`, `\t${body.length + 5}\t`))).toEqual({
        closed: 1008,
      });
      await expect(exchange(routeCall(1, body), { path: '/other' })).rejects.toThrow('404');
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
      await expect(closed.runRoute('GetProvider', {}, hop)).rejects.toThrow('The providers service is unavailable');
      await closed.close();
    });
  });
});

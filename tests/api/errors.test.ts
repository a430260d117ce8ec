import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ApiKey } from '../../graphql/providers/ApiKey.js';
import { hashSecret } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { forgetTypes, routesByOperationId } from '../../rest-facade/index.js';
import { defineRoute, type RouteInput } from '../../rest-facade/route.js';
import { compileRoutes, createFacadeRouter } from '../../rest-facade/router.js';
import { graphql } from '../../rest-facade/subgraphs/graphql.js';
import { z } from '../../rest-facade/zod.js';
import { idInPath, integerInput } from '../../rest-facade/schemas/inputs.js';
import { authenticate } from '../../server/http/authenticate.js';
import { errorHandler } from '../../server/http/errorHandler.js';
import { JSON_BODY_LIMIT } from '../../server/http/limits.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { apiClient } from '../support/api.js';
import { openApiDocument } from '../support/contract.js';
import { createSandbox } from '../support/fixtures.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const jsonInvalid = [{ loc: ['body'], msg: 'The body is not valid JSON', type: 'json_invalid' }];
const tooLarge = { global: ['The request body is too large'] };

/** express' "8mb": 8 MiB. */
function bodyLimitBytes(): number {
  const match = /^(\d+)mb$/.exec(JSON_BODY_LIMIT);
  expect(match, `JSON_BODY_LIMIT ${JSON_BODY_LIMIT}`).not.toBeNull();
  return Number(match![1]) * 1024 * 1024;
}

/** A JSON document of at least `bytes` bytes. */
function jsonOfSize(bytes: number): string {
  return JSON.stringify({ name: 'x'.repeat(bytes) });
}

describe('HTTP error answers of the app', () => {
  let testApp: TestApp;
  let apiKey: string;
  let offererId: number;

  beforeAll(async () => {
    testApp = await createTestApp();
    const sandbox = await createSandbox(testApp.database.orm.em.fork(), testApp.clock, 'test');
    apiKey = sandbox.apiKey;
    offererId = sandbox.offerer.id;
  });
  afterAll(() => testApp.close());

  const withKey = (call: request.Test) => call.set('Authorization', `Bearer ${apiKey}`);

  describe('unknown API paths', () => {
    for (const path of [
      '/public/nothing/here',
      '/public/providers/v1/nothing',
      '/v2/nothing',
      '/v2/collective/offers/x/y',
    ]) {
      it(`answers JSON 404 for GET ${path}, with and without a key`, async () => {
        for (const authorized of [true, false]) {
          const call = request(testApp.app).get(`${path}?limit=3`);
          const response = await (authorized ? withKey(call) : call);
          expect(response.status).toBe(404);
          expect(response.headers['content-type']).toMatch(/^application\/json/);
          // The query string is not echoed back.
          expect(response.body).toEqual({ global: [`No operation GET ${path}`] });
        }
      });
    }

    it('answers JSON 404 for a method the path does not have', async () => {
      const response = await withKey(request(testApp.app).delete('/public/providers/v1/provider'));
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ global: ['No operation DELETE /public/providers/v1/provider'] });
    });
  });

  it('answers 401 with the same body to each provider and by-EAN operation called without a key, an empty body or none', async () => {
    for (const [method, path] of [
      ['post', '/public/offers/v1/products/ean'],
      ['get', '/public/offers/v1/products/ean?eans=9782070368228&venueId=1'],
      ['get', '/public/offers/v1/products/ean/check_availability?eans=9782070368228'],
      ['get', '/public/offers/v1/music_types'],
      ['get', '/public/offers/v1/music_types/all'],
      ['get', '/public/offers/v1/music_types/event'],
      ['get', '/public/offers/v1/show_types'],
      ['get', '/public/offers/v1/offerer_venues'],
      ['get', '/public/offers/v1/venues/12345678200010'],
      ['get', '/public/providers/v1/provider'],
      ['patch', '/public/providers/v1/provider'],
      ['patch', '/public/providers/v1/venues/1'],
    ] as const) {
      const call = request(testApp.app)[method](path);
      const response = await (method === 'get' ? call : call.send({}));
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body).toEqual({ auth: 'API key required' });
    }
  });

  describe('request bodies', () => {
    const malformed = '{"name": "unterminated';

    for (const path of ['/public/providers/v1/provider', '/public/nothing/here', '/v2/nothing']) {
      it(`answers 422 json_invalid for a malformed JSON body to ${path}`, async () => {
        const response = await withKey(request(testApp.app).post(path))
          .set('Content-Type', 'application/json')
          .send(malformed);
        expect(response.status).toBe(422);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.body).toEqual(jsonInvalid);
      });
    }

    it('answers 422 json_invalid for a malformed JSON body to /graphql', async () => {
      const response = await withKey(request(testApp.app).post('/graphql'))
        .set('Content-Type', 'application/json')
        .send(malformed);
      expect(response.status).toBe(422);
      expect(response.body).toEqual(jsonInvalid);
    });

    it('reads the body before the key: a malformed body without a key is a 422 too', async () => {
      const response = await request(testApp.app)
        .post('/public/providers/v1/provider')
        .set('Content-Type', 'application/json')
        .send(malformed);
      expect(response.status).toBe(422);
      expect(response.body).toEqual(jsonInvalid);
    });

    for (const path of ['/public/providers/v1/provider', '/v2/nothing', '/graphql']) {
      it(`answers 413 JSON for a body over the limit to ${path}, and accepts one just under it`, async () => {
        const limit = bodyLimitBytes();
        const over = await withKey(request(testApp.app).post(path))
          .set('Content-Type', 'application/json')
          .send(jsonOfSize(limit + 1));
        expect(over.status).toBe(413);
        expect(over.headers['content-type']).toMatch(/^application\/json/);
        expect(over.body).toEqual(tooLarge);

        // Just under the limit the body is read and the request goes on to its route.
        const under = await withKey(request(testApp.app).post(path))
          .set('Content-Type', 'application/json')
          .send(jsonOfSize(limit - 1024));
        expect(under.status).not.toBe(413);
        expect(under.status).toBeLessThan(500);
      });
    }

    it('answers 415 JSON for a body in a charset or encoding it cannot read', async () => {
      const charset = await withKey(request(testApp.app).post('/public/providers/v1/provider'))
        .set('Content-Type', 'application/json; charset=koi8-r')
        .send('{}');
      expect(charset.status).toBe(415);
      expect(charset.body).toEqual({ global: ['Unsupported body encoding'] });

      const encoding = await withKey(request(testApp.app).post('/public/providers/v1/provider'))
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'compress')
        .send('{}');
      expect(encoding.status).toBe(415);
      expect(encoding.body).toEqual({ global: ['Unsupported body encoding'] });
    });

    it('answers 415, as the document declares, to a body of a media type the operation does not take', async () => {
      const api = apiClient(testApp.app, apiKey);
      const before = await api.call('GetProvider');
      const patch = (contentType: string, body: string) => api.call('UpdateProvider', { body, contentType });
      for (const [contentType, body] of [
        ['text/plain', '{"notificationUrl":"https://tickets.example.org/n"}'],
        ['application/x-www-form-urlencoded', 'notificationUrl=https%3A%2F%2Ftickets.example.org%2Fn'],
        ['multipart/form-data; boundary=x', '--x--'],
        ['application/xml', '<provider/>'],
      ]) {
        const response = await patch(contentType, body);
        expect([response.status, response.body], contentType).toEqual([
          415,
          { global: [`This operation takes a body of type application/json, not ${contentType.split(';')[0]}`] },
        ]);
      }
      // Nothing was written; JSON with a charset parameter is JSON.
      expect((await api.call('GetProvider')).body).toEqual(before.body);
      const json = await patch('application/json; charset=utf-8', '{}');
      expect(json.status).toBe(200);

      const upload = await api.call('UploadImage', {
        params: { offer_id: 1 },
        body: { file: 'aGVsbG8=' },
        contentType: 'application/json',
      });
      expect([upload.status, upload.body]).toEqual([
        415,
        { global: ['This operation takes a body of type multipart/form-data, not application/json'] },
      ]);
    });

    it('reads a request without a body as one: 422 naming what is missing, not 415', async () => {
      const response = await apiClient(testApp.app, apiKey).call('UploadImage', { params: { offer_id: 1 } });
      expect(response.status).toBe(422);
      expect(response.body).toEqual([expect.objectContaining({ loc: ['file'], type: 'missing' })]);
    });

    it('declares 415 for every operation that takes a body, and for no other', () => {
      for (const [path, operations] of Object.entries(openApiDocument.paths ?? {}))
        for (const [method, operation] of Object.entries(operations as Record<string, any>)) {
          const takesBody = operation.requestBody !== undefined;
          expect(operation.responses['415'] !== undefined, `${method} ${path}`).toBe(takesBody);
        }
    });
  });

  describe('X-Request-Id', () => {
    it('is on every answer, whatever its status', async () => {
      const calls: Array<[string, () => request.Test, number]> = [
        ['provider', () => withKey(request(testApp.app).get('/public/providers/v1/provider')), 200],
        ['no key', () => request(testApp.app).get('/public/providers/v1/provider'), 401],
        ['unknown API path', () => request(testApp.app).get('/v2/nothing'), 404],
        [
          'malformed body',
          () => request(testApp.app).post('/v2/nothing').set('Content-Type', 'application/json').send('{'),
          422,
        ],
        ['openapi', () => request(testApp.app).get('/openapi.json'), 200],
        ['health', () => request(testApp.app).get('/healthz'), 200],
        [
          'graphql without key',
          () => request(testApp.app).post('/graphql').send({ query: '{ provider { id } }' }),
          401,
        ],
        ['graphql', () => withKey(request(testApp.app).post('/graphql')).send({ query: '{ provider { id } }' }), 200],
      ];
      const seen = new Set<string>();
      for (const [label, call, status] of calls) {
        const response = await call();
        expect(response.status, label).toBe(status);
        expect(response.headers['x-request-id'], label).toMatch(uuid);
        seen.add(response.headers['x-request-id']);
      }
      // A new id for each request.
      expect(seen.size).toBe(calls.length);
    });

    it('echoes a safe id given by the caller', async () => {
      for (const given of ['abc-123', 'trace.2026-11-22_01', 'A'.repeat(64), '7']) {
        const response = await withKey(request(testApp.app).get('/public/providers/v1/provider')).set(
          'X-Request-Id',
          given,
        );
        expect(response.status).toBe(200);
        expect(response.headers['x-request-id']).toBe(given);
      }
      const notFound = await request(testApp.app).get('/public/nothing').set('X-Request-Id', 'caller-id-1');
      expect(notFound.headers['x-request-id']).toBe('caller-id-1');
    });

    it('replaces an unsafe id given by the caller with one of its own', async () => {
      for (const given of [
        'A'.repeat(65),
        'has space',
        '<script>alert(1)</script>',
        'a;b',
        'a/b',
        '"quoted"',
        'x%0d%0ay',
      ]) {
        const response = await withKey(request(testApp.app).get('/public/providers/v1/provider')).set(
          'X-Request-Id',
          given,
        );
        expect(response.status).toBe(200);
        expect(response.headers['x-request-id'], given).toMatch(uuid);
      }
    });
  });

  describe('keys on the collective operations', () => {
    /** The collective booking operations (the school-platform mocks included) and the attributes. */
    const OPERATIONS = [
      'CancelCollectiveBooking',
      'UseCollectiveBooking',
      'AdageMockBookOffer',
      'AdageMockCancelCollectiveBooking',
      'ConfirmCollectiveBooking',
      'ResetCollectiveBooking',
      'ReimburseCollectiveBooking',
      'ListEducationalDomains',
      'ListEducationalInstitutions',
      'GetNationalPrograms',
      'GetOffersFormats',
      'ListStudentsLevels',
    ] as const;
    const send = (operationId: (typeof OPERATIONS)[number], key: string | null) => {
      const { method, path } = routesByOperationId[operationId];
      const call = request(testApp.app)[method](path.replace(/\{[a-z_]+\}/, '1'));
      return key ? call.set('Authorization', `Bearer ${key}`) : call;
    };

    it('answers 401 without a key on every collective booking and attribute operation', async () => {
      for (const operationId of OPERATIONS) {
        const response = await send(operationId, null);
        expect([response.status, response.body], operationId).toEqual([401, { auth: 'API key required' }]);
      }
    });

    // pass Culture's older keys name an offerer and no provider: they no longer open the API.
    it('answers 401 to a key of no provider (not internal) on every collective booking and attribute operation', async () => {
      const fork = testApp.database.orm.em.fork();
      const prefix = `test_${randomBytes(6).toString('hex')}`;
      const secret = randomBytes(32).toString('hex');
      fork.create(ApiKey, {
        prefix,
        secretHash: hashSecret(secret),
        provider: null,
        offerer: fork.getReference(Offerer, offererId),
        isInternal: false,
        createdAt: testApp.clock.now(),
      });
      await fork.flush();
      for (const operationId of OPERATIONS) {
        const response = await send(operationId, `${prefix}_${secret}`);
        expect([response.status, response.body], operationId).toEqual([401, { auth: 'API key required' }]);
        // The sandbox's own key reaches the same operation.
        expect((await send(operationId, apiKey)).status, operationId).not.toBe(401);
      }
    });
  });

  describe('/graphql', () => {
    it('answers 401 JSON without a key, and with a key it does not know', async () => {
      const anonymous = await request(testApp.app).post('/graphql').send({ query: '{ provider { id } }' });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ auth: 'API key required' });

      const unknown = await request(testApp.app)
        .post('/graphql')
        .set('Authorization', `Bearer test_000000000000_${'0'.repeat(64)}`)
        .send({ query: '{ provider { id } }' });
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual({ auth: 'API key required' });
    });
  });
});

describe("the REST facade's 422 answers", () => {
  let testApp: TestApp;
  let apiKey: string;
  let providerId: number;
  let app: express.Express;
  /** The inputs each execution received: a route runs its operation only on valid input. */
  let executions: RouteInput<unknown, unknown, unknown>[];

  const route = defineRoute({
    method: 'post',
    path: '/test/venues/{venue_id}/events',
    tag: 'Test',
    operationId: 'TestCreateEvent',
    summary: 'A route for the tests of the 422 format',
    subgraph: 'providers',
    document: graphql.providers('query GetProvider { provider { id } }'),
    request: {
      params: z.object({ venue_id: idInPath }),
      query: z.object({
        limit: integerInput(z.int().gt(0).max(50).default(50)),
        firstIndex: integerInput(z.int().min(1).default(1)),
      }),
      body: z
        .object({
          name: z.string().min(1).max(90),
          dates: z.array(z.object({ priceCategoryId: z.number().int().gt(0) }).strict()).optional(),
        })
        .strict(),
    },
    variables: (input) => {
      executions.push(input);
      return {};
    },
    response: {
      status: 200,
      description: 'The provider of the key.',
      schema: z.object({ id: z.number().int() }),
      select: (data) => data.provider,
    },
  });

  beforeAll(async () => {
    testApp = await createTestApp();
    const sandbox = await createSandbox(testApp.database.orm.em.fork(), testApp.clock, 'test');
    apiKey = sandbox.apiKey;
    providerId = sandbox.provider.id;
    app = express();
    app.set('query parser', 'simple');
    app.use(express.json());
    app.use(
      createFacadeRouter(compileRoutes(forgetTypes([route]), testApp.runtime.graph), [authenticate(testApp.runtime)]),
    );
    app.use(errorHandler(pino({ level: 'silent' })));
  });
  afterAll(() => testApp.close());
  beforeEach(() => {
    executions = [];
  });

  const post = (path: string, body: unknown) =>
    request(app)
      .post(path)
      .set('Authorization', `Bearer ${apiKey}`)
      .send(body as object);

  /** A 422 whose body is exactly `issues`, and no execution of the operation. */
  async function expectIssues(path: string, body: unknown, issues: unknown[]): Promise<void> {
    const response = await post(path, body);
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual(issues);
    expect(executions).toEqual([]);
  }

  it('runs the operation on valid input, with coerced values and defaults', async () => {
    const response = await post('/test/venues/7/events', { name: 'Concert' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: providerId });
    expect(executions).toEqual([
      { params: { venue_id: 7 }, query: { limit: 50, firstIndex: 1 }, body: { name: 'Concert' } },
    ]);

    const bounds = await post('/test/venues/7/events?limit=50&firstIndex=1', {
      name: 'x'.repeat(90),
      dates: [{ priceCategoryId: 1 }],
    });
    expect(bounds.status).toBe(200);
    expect(executions[1]).toEqual({
      params: { venue_id: 7 },
      query: { limit: 50, firstIndex: 1 },
      body: { name: 'x'.repeat(90), dates: [{ priceCategoryId: 1 }] },
    });
  });

  it('reports a missing field as `missing`, "Field required"', async () => {
    await expectIssues('/test/venues/7/events', {}, [{ loc: ['name'], msg: 'Field required', type: 'missing' }]);
  });

  it('reports a string over its maximum as string_too_long with the limit', async () => {
    await expectIssues('/test/venues/7/events', { name: 'x'.repeat(91) }, [
      { loc: ['name'], msg: expect.stringContaining('90'), type: 'string_too_long', ctx: { limit_value: 90 } },
    ]);
    await expectIssues('/test/venues/7/events', { name: '' }, [
      { loc: ['name'], msg: expect.stringContaining('1'), type: 'string_too_short', ctx: { limit_value: 1 } },
    ]);
  });

  it('reports a wrong type by its expected type', async () => {
    await expectIssues('/test/venues/7/events', { name: 42 }, [
      { loc: ['name'], msg: expect.any(String), type: 'string_type' },
    ]);
  });

  it('reports query bounds at the parameter: limit=0, limit=51, firstIndex=0', async () => {
    await expectIssues('/test/venues/7/events?limit=0', { name: 'Concert' }, [
      { loc: ['limit'], msg: expect.any(String), type: 'greater_than', ctx: { limit_value: 0 } },
    ]);
    await expectIssues('/test/venues/7/events?limit=51', { name: 'Concert' }, [
      { loc: ['limit'], msg: expect.stringContaining('50'), type: 'less_than_equal', ctx: { limit_value: 50 } },
    ]);
    await expectIssues('/test/venues/7/events?firstIndex=0', { name: 'Concert' }, [
      { loc: ['firstIndex'], msg: expect.any(String), type: 'greater_than_equal', ctx: { limit_value: 1 } },
    ]);
  });

  it('reports a non-integer path parameter at its name', async () => {
    await expectIssues('/test/venues/1.5/events', { name: 'Concert' }, [
      { loc: ['venue_id'], msg: expect.any(String), type: 'int_parsing' },
    ]);
    const response = await post('/test/venues/abc/events', { name: 'Concert' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual([
      {
        loc: ['venue_id'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        type: 'int_parsing',
      },
    ]);
    expect(executions).toEqual([]);
  });

  it('reports a path parameter that is no valid escape at its name, not as a server error', async () => {
    await expectIssues('/test/venues/%E0%A4%A/events', { name: 'Concert' }, [
      { loc: ['venue_id'], msg: expect.any(String), type: 'int_parsing' },
    ]);
  });

  it('reports an unknown body key as extra_forbidden at its own loc', async () => {
    await expectIssues('/test/venues/7/events', { name: 'Concert', colour: 'red' }, [
      { loc: ['colour'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
    ]);
    await expectIssues('/test/venues/7/events', { name: 'Concert', dates: [{ priceCategoryId: 1, price: 5 }] }, [
      { loc: ['dates', '0', 'price'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
    ]);
  });

  it('reports a nested issue with the index in its loc', async () => {
    await expectIssues(
      '/test/venues/7/events',
      { name: 'Concert', dates: [{ priceCategoryId: 3 }, { priceCategoryId: 0 }] },
      [
        {
          loc: ['dates', '1', 'priceCategoryId'],
          msg: expect.any(String),
          type: 'greater_than',
          ctx: { limit_value: 0 },
        },
      ],
    );
    await expectIssues('/test/venues/7/events', { name: 'Concert', dates: [{}] }, [
      { loc: ['dates', '0', 'priceCategoryId'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('reports the issues of path, query and body together, path first, then query, then body', async () => {
    const response = await post('/test/venues/1.5/events?limit=51', {
      colour: 'red',
      dates: [{ priceCategoryId: -2 }],
    });
    expect(response.status).toBe(422);
    expect(response.body).toHaveLength(5);
    expect(response.body.slice(0, 2)).toEqual([
      { loc: ['venue_id'], msg: expect.any(String), type: 'int_parsing' },
      { loc: ['limit'], msg: expect.any(String), type: 'less_than_equal', ctx: { limit_value: 50 } },
    ]);
    expect(response.body.slice(2)).toEqual(
      expect.arrayContaining([
        { loc: ['name'], msg: 'Field required', type: 'missing' },
        {
          loc: ['dates', '0', 'priceCategoryId'],
          msg: expect.any(String),
          type: 'greater_than',
          ctx: { limit_value: 0 },
        },
        { loc: ['colour'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
      ]),
    );
    expect(executions).toEqual([]);
  });

  it('checks the key before the input: invalid input without a key is a 401', async () => {
    const response = await request(app).post('/test/venues/abc/events?limit=0').send({});
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ auth: 'API key required' });
    expect(executions).toEqual([]);
  });
});

import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../rest-facade/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectMatchesContract } from '../support/contract.js';
import { createSandbox } from '../support/fixtures.js';

/** Values a careless or hostile client may send anywhere. */
const anyValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('', ' ', '0', '-1', '2147483648', 'NaN', '1e309', '../etc', '%00', 'null', '[]', '{}', 'é'.repeat(300)),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxKeys: 3 }),
);
const pathSegment = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_.~-]{1,20}$/), fc.integer().map(String), fc.constantFrom('0', '-5', '99999999999'));
const RUNS_PER_OPERATION = 25;

describe('generated bad input to every operation', () => {
  let testApp: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    apiKey = (await createSandbox(testApp.database.orm.em.fork(), testApp.clock, 'test')).apiKey;
  });
  afterAll(() => testApp.close());

  for (const route of routes) {
    it(`${route.method.toUpperCase()} ${route.path} never answers 5xx, and answers as documented`, async () => {
      const parameterNames = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const queryNames = Object.keys((route.request?.query as { shape?: object } | undefined)?.shape ?? {});
      const bodyNames = Object.keys((route.request?.body as { shape?: object } | undefined)?.shape ?? {});
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(...parameterNames.map(() => pathSegment)),
          fc.dictionary(fc.constantFrom(...queryNames, 'unexpected'), fc.oneof(fc.string(), fc.integer().map(String)), { maxKeys: 4 }),
          fc.oneof(
            fc.dictionary(fc.constantFrom(...bodyNames, 'unexpected'), anyValue, { maxKeys: 5 }),
            anyValue,
          ),
          async (parameters, query, body) => {
            let path = route.path;
            parameterNames.forEach((name, index) => {
              path = path.replace(`{${name}}`, encodeURIComponent(parameters[index]));
            });
            const call = request(testApp.app)[route.method](path).query(query).set('Authorization', `Bearer ${apiKey}`);
            // Sent as raw JSON text: any JSON value, not only objects, reaches the server.
            const response = route.request?.body
              ? await call.set('Content-Type', 'application/json').send(JSON.stringify(body ?? null))
              : await call;
            expect(response.status, `${route.method} ${path} ${JSON.stringify(query)} ${JSON.stringify(body)}`).toBeLessThan(500);
            expectMatchesContract(response, route.method, route.path);
          },
        ),
        { numRuns: RUNS_PER_OPERATION },
      );
    });
  }
});

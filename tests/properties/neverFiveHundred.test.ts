import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../rest-facade/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectMatchesContract } from '../support/contract.js';
import { createSandbox } from '../support/fixtures.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';

/** Values a careless or hostile client may send anywhere. */
const anyValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '2147483648',
    'NaN',
    '1e309',
    '../etc',
    '%00',
    'null',
    '[]',
    '{}',
    'é'.repeat(300),
  ),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxKeys: 3 }),
);
const pathSegment = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.~-]{1,20}$/),
  fc.integer().map(String),
  fc.constantFrom('0', '-5', '99999999999'),
);
const RUNS_PER_OPERATION = 60;

describe('generated bad input to every operation', () => {
  let testApp: TestApp;
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  /**
   * A key of the sandbox per operation: one key for all would spend its 200 requests a minute on
   * the first operations, and every later one would only ever meet 429.
   */
  const freshKey = async () => {
    const fork = testApp.database.orm.em.fork();
    const { key } = issueApiKey(fork, testApp.clock, {
      env: 'test',
      provider: fork.getReference(Provider, sandbox.provider.id),
      offerer: fork.getReference(Offerer, sandbox.offerer.id),
    });
    await fork.flush();
    return key;
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    sandbox = await createSandbox(testApp.database.orm.em.fork(), testApp.clock, 'test');
  });
  afterAll(() => testApp.close());

  for (const route of routes) {
    it(`${route.method.toUpperCase()} ${route.path} never answers 5xx, and answers as documented`, async () => {
      const apiKey = await freshKey();
      let limited = 0;
      const parameterNames = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const queryNames = Object.keys((route.request?.query as { shape?: object } | undefined)?.shape ?? {});
      const bodyNames = Object.keys((route.request?.body as { shape?: object } | undefined)?.shape ?? {});
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(...parameterNames.map(() => pathSegment)),
          fc.dictionary(fc.constantFrom(...queryNames, 'unexpected'), fc.oneof(fc.string(), fc.integer().map(String)), {
            maxKeys: 4,
          }),
          fc.oneof(fc.dictionary(fc.constantFrom(...bodyNames, 'unexpected'), anyValue, { maxKeys: 5 }), anyValue),
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
            expect(
              response.status,
              `${route.method} ${path} ${JSON.stringify(query)} ${JSON.stringify(body)}`,
            ).toBeLessThan(500);
            if (response.status === 429) limited += 1;
            expectMatchesContract(response, route.method, route.path);
          },
        ),
        { numRuns: RUNS_PER_OPERATION },
      );
      // The inputs reached the operation: none was stopped by the rate limit instead.
      expect(limited).toBe(0);
    });
  }
});

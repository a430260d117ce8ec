import { getIntrospectionQuery } from 'graphql';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import {
  LimitCode,
  MAX_ALIASES,
  MAX_DEPTH,
  MAX_FIELDS,
  MAX_NESTING,
  MAX_OPERATION_COST,
  MAX_TOKENS,
} from '../../server/graphqlCost/policy.js';
import { RATE_LIMIT_POINTS } from '../../server/rateLimit.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { graphqlAs } from '../support/builders.js';
import { createSandbox } from '../support/fixtures.js';

/** The issue's document: 2,000 aliases of the provider and its venues (4.2 s and 283 KB before). */
const TWO_THOUSAND_ALIASES = `{ ${Array.from({ length: 2000 }, (_, index) => `p${index}: provider { id name venues { id siret } }`).join(' ')} }`;

/** 51 events and 51 products with their price categories: 2 root lists and 100 reads of nested lists. */
const PAGES_OF_PRICE_CATEGORIES = `{
  events(page: { limit: 50 }) { id priceCategories { id } }
  products(page: { limit: 50 }) { id priceCategories { id } }
}`;

/** One page of events with their price categories: 1 read for the page, 1 per event for its categories. */
const EVENTS_WITH_PRICE_CATEGORIES = '{ events(page: { limit: 50 }) { id priceCategories { id } } }';

/** Fields nested `levels` deep (at least 3), one fragment per level, so that no brace nests more than twice. */
function nestedThroughFragments(levels: number): string {
  const fragments: string[] = [];
  for (let depth = 2; depth < levels; depth += 1) fragments.push(`fragment F${depth} on T { f { ...F${depth + 1} } }`);
  fragments.push(`fragment F${levels} on T { id }`);
  return `query { f { ...F2 } } ${fragments.join(' ')}`;
}

describe('/graphql: what one operation may cost', () => {
  let testApp: TestApp;
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  let internalKey: string;

  /** A new key of the sandbox provider: a budget of its own. */
  const aProviderKey = async (): Promise<string> => {
    const em = testApp.database.orm.em.fork();
    const issued = issueApiKey(em, testApp.clock, {
      env: 'test',
      provider: em.getReference(Provider, sandbox.provider.id),
      offerer: em.getReference(Offerer, sandbox.offerer.id),
    });
    await em.flush();
    return issued.key;
  };

  /** A new internal key: a budget of its own. */
  const anInternalKey = async (): Promise<string> => {
    const em = testApp.database.orm.em.fork();
    const issued = issueApiKey(em, testApp.clock, { env: 'test', internal: true, label: 'back office' });
    await em.flush();
    return issued.key;
  };

  const expectRefused = (response: request.Response, status: number, code: string) => {
    expect(response.status).toBe(status);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0].extensions.code).toBe(code);
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    const em = testApp.database.orm.em.fork();
    sandbox = await createSandbox(em, testApp.clock, 'test');
    const internal = issueApiKey(em, testApp.clock, { env: 'test', internal: true, label: 'back office' });
    await em.flush();
    internalKey = internal.key;
  });
  afterAll(() => testApp.close());

  describe('the document, before validation', () => {
    it("refuses the issue's 2,000 aliases at the token limit, and charges the request 1", async () => {
      const key = await aProviderKey();
      const response = await graphqlAs(testApp, key, TWO_THOUSAND_ALIASES);
      expectRefused(response, 400, 'TOKEN_LIMIT');
      expect(response.body.errors[0]).toEqual({
        message: `The document has more than ${MAX_TOKENS} tokens, the limit of /graphql: pass values as variables, or split it into several requests.`,
        extensions: { code: 'TOKEN_LIMIT', limit: MAX_TOKENS },
      });
      expect(response.headers['ratelimit-remaining']).toBe(String(RATE_LIMIT_POINTS - 1));
    });

    it('counts tokens, not characters: the limit passes with long strings, fails one token over', async () => {
      // `{` + n × `__typename` + `}`: n + 2 tokens.
      const atLimit = `{ ${'__typename '.repeat(MAX_TOKENS - 2)}}`;
      const overLimit = `{ ${'__typename '.repeat(MAX_TOKENS - 1)}}`;
      expectRefused(await graphqlAs(testApp, await aProviderKey(), overLimit), 400, 'TOKEN_LIMIT');
      // At the limit, the fields are what is refused: the token count let it through.
      expectRefused(await graphqlAs(testApp, await aProviderKey(), atLimit), 400, 'TOO_MANY_FIELDS');
      const longString = `{ venueBySiret(siret: "${'1'.repeat(10_000)}") { id } }`;
      const answer = await graphqlAs(testApp, sandbox.apiKey, longString);
      expect(answer.body.errors[0].extensions.code).not.toBe('TOKEN_LIMIT');
    });

    it(`refuses more than ${MAX_ALIASES} aliases, fragments expanded`, async () => {
      const aliases = (count: number) =>
        `{ ${Array.from({ length: count }, (_, index) => `p${index}: provider { id }`).join(' ')} }`;
      const allowed = await graphqlAs(
        testApp,
        internalKey,
        aliases(MAX_ALIASES).replaceAll('provider', 'provider(id: 1)'),
      );
      expect(allowed.status).toBe(200);
      expect(Object.keys(allowed.body.data)).toHaveLength(MAX_ALIASES);

      const refused = await graphqlAs(testApp, sandbox.apiKey, aliases(MAX_ALIASES + 1));
      expectRefused(refused, 400, 'TOO_MANY_ALIASES');
      expect(refused.body.errors[0].message).toBe(
        `The operation has more than ${MAX_ALIASES} aliases (fragments expanded), the limit of /graphql: split it into several requests.`,
      );
      // 26 aliases in a fragment spread twice are 52.
      const spreadTwice = `query { ...A ...A } fragment A on Query { ${Array.from({ length: 26 }, (_, index) => `p${index}: provider { id }`).join(' ')} }`;
      expectRefused(await graphqlAs(testApp, sandbox.apiKey, spreadTwice), 400, 'TOO_MANY_ALIASES');
    });

    it(`refuses fields nested more than ${MAX_DEPTH} deep, through fragments as well`, async () => {
      const deep = await graphqlAs(testApp, sandbox.apiKey, nestedThroughFragments(MAX_DEPTH + 1));
      expectRefused(deep, 400, 'MAX_DEPTH');
      expect(deep.body.errors[0].extensions.limit).toBe(MAX_DEPTH);
      // At the limit the document reaches validation, which knows no field `f`.
      const atLimit = await graphqlAs(testApp, sandbox.apiKey, nestedThroughFragments(MAX_DEPTH));
      expect(atLimit.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    });

    it('refuses a deep nesting while lexing, before the parser recurses into it', async () => {
      for (const levels of [MAX_NESTING + 1, 2_400]) {
        const document = `{ ${'provider { '.repeat(levels)}id${' }'.repeat(levels)} }`;
        const response = await graphqlAs(testApp, sandbox.apiKey, document);
        expectRefused(response, 400, 'MAX_DEPTH');
        expect(response.body.errors[0].extensions.limit).toBe(MAX_NESTING);
      }
    });

    it(`refuses more than ${MAX_FIELDS} fields, and a fragment that expands past them`, async () => {
      const repeated = `{ ${'provider { id } '.repeat(MAX_FIELDS)} }`;
      expectRefused(await graphqlAs(testApp, sandbox.apiKey, repeated), 400, 'TOO_MANY_FIELDS');
      // Each fragment spreads the next twice: 2^20 selections from a few lines.
      const bomb = `query { ...F0 } ${Array.from({ length: 20 }, (_, index) => `fragment F${index} on Query { ...F${index + 1} ...F${index + 1} }`).join(' ')} fragment F20 on Query { __typename }`;
      expectRefused(await graphqlAs(testApp, sandbox.apiKey, bomb), 400, 'TOO_MANY_FIELDS');
    });

    it('checks a document sent by GET as well', async () => {
      const aliases = `{ ${Array.from({ length: MAX_ALIASES + 1 }, (_, index) => `p${index}: provider { id }`).join(' ')} }`;
      const response = await request(testApp.app)
        .get('/graphql')
        .query({ query: aliases })
        .set('Authorization', `Bearer ${sandbox.apiKey}`);
      expectRefused(response, 400, 'TOO_MANY_ALIASES');
    });

    it('leaves syntax errors to GraphQL, as before', async () => {
      const response = await graphqlAs(testApp, sandbox.apiKey, '{ provider { id }');
      expectRefused(response, 400, 'GRAPHQL_PARSE_FAILED');
    });
  });

  describe('the cost, before execution', () => {
    it.each([
      ['{ provider { id name } }', 1],
      ['{ provider { id name venues { id siret } } }', 2],
      ['{ eventCategories { id } productCategories { id } musicTypes { id label } }', 3],
      [EVENTS_WITH_PRICE_CATEGORIES, 51],
      ['{ events(page: { limit: 10 }) { id priceCategories { id } } }', 11],
      ['{ educationalInstitutions(limit: 20) { id } }', 1],
      ['{ educationalInstitutions(limit: 120) { id } }', 3],
      ['{ offerBookings(offerId: 1) { id } }', 1],
      ['{ __typename }', 1],
    ])('costs %s %i', async (document, cost) => {
      const response = await graphqlAs(testApp, await anInternalKey(), document);
      expect(response.body.extensions.cost.requested).toBe(cost);
      expect(response.headers['x-ratelimit-cost']).toBe(String(cost));
    });

    it.each([
      ['under @skip', '{ events(page: { limit: 10 }) @skip(if: true) { id priceCategories { id } } }', {}, 11],
      [
        'in a fragment spread twice',
        'query { ...F ...F } fragment F on Query { events(page: { limit: 10 }) { id priceCategories { id } } }',
        {},
        22,
      ],
      ['beside a free __typename', '{ __typename events(page: { limit: 10 }) { id priceCategories { id } } }', {}, 11],
      [
        // Execution refuses offerBookings (its offerId is null): counted as one page, its arguments unread.
        'given null where a value is due',
        'query ($id: Int = 1) { offerBookings(offerId: $id, page: { limit: 120 }) { id } events(page: { limit: 10 }) { id priceCategories { id } } }',
        { id: null },
        12,
      ],
    ])('counts every field written, %s', async (_case, document, variables, cost) => {
      const response = await graphqlAs(testApp, await anInternalKey(), document, variables);
      expect(response.body.extensions.cost.requested).toBe(cost);
    });

    it('reads the page size from variables and their defaults', async () => {
      const byVariable = await graphqlAs(
        testApp,
        sandbox.apiKey,
        'query ($page: PageInput) { events(page: $page) { id priceCategories { id } } }',
        { page: { limit: 5 } },
      );
      expect(byVariable.body.extensions.cost.requested).toBe(6);
      const byDefault = await graphqlAs(
        testApp,
        sandbox.apiKey,
        'query ($n: Int! = 30) { events(page: { limit: $n }) { id priceCategories { id } } }',
      );
      expect(byDefault.body.extensions.cost.requested).toBe(31);
    });

    it(`refuses a huge page, and nested pages over ${MAX_OPERATION_COST}, saying what they cost`, async () => {
      const key = await aProviderKey();
      const hugePage = await graphqlAs(testApp, key, '{ educationalInstitutions(limit: 100000) { id name } }');
      expectRefused(hugePage, 400, 'QUERY_TOO_COMPLEX');
      expect(hugePage.body.errors[0].message).toBe(
        `This operation may cost 2000 points, more than the ${MAX_OPERATION_COST} one operation may cost: ask for smaller pages (limit) or fewer nested lists, or split it.`,
      );
      expect(hugePage.body.errors[0].extensions).toEqual({
        code: 'QUERY_TOO_COMPLEX',
        cost: 2000,
        maximum: MAX_OPERATION_COST,
      });
      const byVariable = await graphqlAs(
        testApp,
        key,
        'query ($n: Int!) { educationalInstitutions(limit: $n) { id } }',
        {
          n: 1_000_000,
        },
      );
      expectRefused(byVariable, 400, 'QUERY_TOO_COMPLEX');
      const nested = await graphqlAs(testApp, key, PAGES_OF_PRICE_CATEGORIES);
      expectRefused(nested, 400, 'QUERY_TOO_COMPLEX');
      expect(nested.body.errors[0].extensions.cost).toBe(102);
      // Refused before running, each of the three counted as one request.
      expect(nested.headers['ratelimit-remaining']).toBe(String(RATE_LIMIT_POINTS - 3));
      expect(nested.body.extensions.cost).toMatchObject({ requested: 102, remaining: RATE_LIMIT_POINTS - 3 });
    });
  });

  describe("the key's rate limit", () => {
    it('is charged the cost, says so in extensions and headers, and REST calls still cost 1', async () => {
      const key = await aProviderKey();
      const before = Date.now();
      const first = await graphqlAs(testApp, key, EVENTS_WITH_PRICE_CATEGORIES);
      expect(first.status).toBe(200);
      expect(first.body.errors).toBeUndefined();
      expect(first.body.data).toEqual({ events: [] });
      const { resetAt, ...cost } = first.body.extensions.cost;
      expect(cost).toEqual({ requested: 51, maximum: MAX_OPERATION_COST, limit: RATE_LIMIT_POINTS, remaining: 149 });
      expect(Date.parse(resetAt)).toBeGreaterThan(before);
      expect(Date.parse(resetAt)).toBeLessThanOrEqual(Date.now() + 60_000);
      expect(first.headers['x-ratelimit-cost']).toBe('51');
      expect(first.headers['ratelimit-remaining']).toBe('149');
      // The current draft's field says the same as the earlier draft's headers.
      expect(first.headers.ratelimit).toBe(`"per-key";r=149;t=${first.headers['ratelimit-reset']}`);
      expect(first.headers['ratelimit-limit']).toBe(String(RATE_LIMIT_POINTS));

      const rest = await request(testApp.app)
        .get('/public/providers/v1/provider')
        .set('Authorization', `Bearer ${key}`);
      expect(rest.status).toBe(200);
      expect(rest.headers['ratelimit-remaining']).toBe('148');

      const cheap = await graphqlAs(testApp, key, '{ provider { id } }');
      expect(cheap.body.extensions.cost).toMatchObject({ requested: 1, remaining: 147 });
      expect(cheap.headers['ratelimit-remaining']).toBe('147');
    });

    it('runs out through /graphql: an operation over what is left is a 429, which costs only its request', async () => {
      const key = await aProviderKey();
      const remaining: number[] = [];
      for (let call = 0; call < 3; call += 1) {
        const response = await graphqlAs(testApp, key, EVENTS_WITH_PRICE_CATEGORIES);
        expect(response.status).toBe(200);
        remaining.push(response.body.extensions.cost.remaining);
      }
      expect(remaining).toEqual([149, 98, 47]);

      const refused = await graphqlAs(testApp, key, EVENTS_WITH_PRICE_CATEGORIES);
      expectRefused(refused, 429, 'RATE_LIMITED');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.body.errors[0].message).toBe(
        `Too many requests: this operation costs 51 points and the key has 46 left of its ${RATE_LIMIT_POINTS} per minute. Retry after ${retryAfter} seconds.`,
      );
      expect(refused.headers['ratelimit-remaining']).toBe('46');
      expect(refused.body.extensions.cost).toMatchObject({ requested: 51, remaining: 46 });

      // What is left still buys cheaper operations, REST calls among them.
      const cheap = await graphqlAs(testApp, key, '{ events(page: { limit: 10 }) { id priceCategories { id } } }');
      expect(cheap.status).toBe(200);
      expect(cheap.body.extensions.cost).toMatchObject({ requested: 11, remaining: 35 });
      const rest = await request(testApp.app)
        .get('/public/providers/v1/provider')
        .set('Authorization', `Bearer ${key}`);
      expect(rest.headers['ratelimit-remaining']).toBe('34');
    });

    it('answers a key already over its budget with a GraphQL error before reading the document', async () => {
      const key = await aProviderKey();
      for (let call = 0; call < 3; call += 1) await graphqlAs(testApp, key, EVENTS_WITH_PRICE_CATEGORIES);
      // 47 left: 47 requests of 1 point, then none.
      for (let call = 0; call < 47; call += 1) await graphqlAs(testApp, key, '{ __typename }');
      const refused = await graphqlAs(testApp, key, TWO_THOUSAND_ALIASES);
      expect(refused.status).toBe(429);
      expect(refused.body.errors[0].extensions).toEqual({ code: 'RATE_LIMITED' });
      expect(refused.body.errors[0].message).toMatch(
        new RegExp(`^Too many requests: the limit is ${RATE_LIMIT_POINTS} requests per minute per API key\\.`),
      );
    });
  });

  describe("the internal tools' documents", () => {
    // As tests/api/bookingMessages, tests/support/collectiveWorld and the portal's samples send them.
    it.each([
      [
        'query Deliveries($id: Int!) { bookingMessages(bookingId: $id) { id kind url body status attempts lastStatusCode lastError createdAt sentAt } }',
        { id: 1 },
        1,
      ],
      ['query ($id: Int) { provider(id: $id) { id name venues { id siret legalName publicName } } }', { id: 1 }, 2],
      ['{ collectiveOffers { id name displayedStatus bookings { id status } } }', {}, 51],
      ['{ offererVenues { offerer { id name siren } venues { id siret legalName } } }', {}, 51],
      [
        'mutation ($id: Int!, $decision: String!) { reviewOffer(offerId: $id, decision: $decision, reason: "Checked", collective: true) { offerId collective decision collectiveOffer { id displayedStatus } } }',
        { id: 1, decision: 'APPROVED' },
        1,
      ],
    ])('lets %s through at its cost', async (document, variables, cost) => {
      const response = await graphqlAs(testApp, await anInternalKey(), document, variables);
      expect(response.body.extensions.cost.requested).toBe(cost);
      const codes = (response.body.errors ?? []).map(
        (error: { extensions: { code: string } }) => error.extensions.code,
      );
      expect(codes.filter((code: string) => Object.values(LimitCode).includes(code as never))).toEqual([]);
      expect(response.status).toBeLessThan(500);
    });
  });

  describe('introspection', () => {
    it('is open to any key outside production, within the limits', async () => {
      const response = await graphqlAs(testApp, sandbox.apiKey, getIntrospectionQuery());
      expect(response.status).toBe(200);
      expect(response.body.data.__schema.queryType).toMatchObject({ name: 'Query' });
      expect(response.body.extensions.cost.requested).toBe(1);
    });
  });
});

describe('/graphql in production: introspection', () => {
  let testApp: TestApp;
  let providerKey: string;
  let internalKey: string;

  beforeAll(async () => {
    testApp = await createTestApp({ env: { APP_ENV: 'production', PUBLIC_URL: 'https://api.example.net' } });
    const em = testApp.database.orm.em.fork();
    providerKey = (await createSandbox(em, testApp.clock, 'test')).apiKey;
    internalKey = issueApiKey(em, testApp.clock, { env: 'test', internal: true, label: 'back office' }).key;
    await em.flush();
  });
  afterAll(() => testApp.close());

  it("is refused to a provider's key, __type as __schema", async () => {
    for (const document of [
      getIntrospectionQuery(),
      '{ __type(name: "Offer") { name } }',
      '{ ... on Query { __schema { queryType { name } } } }',
    ]) {
      const response = await graphqlAs(testApp, providerKey, document);
      expect(response.status, document).toBe(403);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors).toEqual([
        {
          message: 'Introspection is open to internal keys only in production.',
          extensions: { code: 'INTROSPECTION_DISABLED' },
        },
      ]);
    }
  });

  it('is open to an internal key', async () => {
    const response = await graphqlAs(testApp, internalKey, getIntrospectionQuery());
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.__schema.types.map((type: { name: string }) => type.name)).toContain('Offer');
  });

  it("leaves a provider's ordinary queries, and __typename, alone", async () => {
    const response = await graphqlAs(testApp, providerKey, '{ __typename provider { __typename name } }');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      __typename: 'Query',
      provider: { __typename: 'Provider', name: 'Demo Ticketing' },
    });
  });
});

describe.skipIf(!process.env.REDIS_URL)('/graphql cost across processes (needs REDIS_URL)', () => {
  let first: TestApp;
  let second: TestApp;
  let key: string;

  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({ database: first.database });
    const em = first.database.orm.em.fork();
    key = (await createSandbox(em, first.clock, 'test')).apiKey;
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('charges one budget in Redis: a cost paid on one process is gone on the other', async () => {
    const paid = await graphqlAs(first, key, EVENTS_WITH_PRICE_CATEGORIES);
    expect(paid.body.extensions.cost).toMatchObject({ requested: 51, remaining: 149 });
    const seen = await graphqlAs(second, key, EVENTS_WITH_PRICE_CATEGORIES);
    expect(seen.body.extensions.cost).toMatchObject({ requested: 51, remaining: 98 });
    const rest = await request(first.app).get('/public/providers/v1/provider').set('Authorization', `Bearer ${key}`);
    expect(rest.headers['ratelimit-remaining']).toBe('97');
  });
});

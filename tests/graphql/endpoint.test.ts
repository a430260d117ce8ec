import { execute, parse } from 'graphql';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { anEvent, aProvider, createSandbox } from '../support/fixtures.js';

describe('/graphql', () => {
  let testApp: TestApp;
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  let internalKey: string;
  let otherProvider: Awaited<ReturnType<typeof aProvider>>;

  const query = (key: string | null, document: string, variables?: Record<string, unknown>) => {
    const call = request(testApp.app).post('/graphql').send({ query: document, variables });
    return key ? call.set('Authorization', `Bearer ${key}`) : call;
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    const em = testApp.database.orm.em.fork();
    sandbox = await createSandbox(em, testApp.clock, 'test');
    otherProvider = await aProvider(em, testApp.clock, { name: 'Other Ticketing' });
    const internal = issueApiKey(em, testApp.clock, { env: 'test', internal: true, label: 'back office' });
    await em.flush();
    internalKey = internal.key;
  });
  afterAll(() => testApp.close());

  it("answers the provider and its venues for the provider's key", async () => {
    const response = await query(sandbox.apiKey, '{ provider { id name venues { id siret } } }');
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.provider).toEqual({
      id: sandbox.provider.id,
      name: 'Demo Ticketing',
      venues: sandbox.venues.map((venue) => ({ id: venue.id, siret: venue.siret })),
    });
    expect(response.body.data.provider.venues).toHaveLength(3);
  });

  it('needs a key', async () => {
    const response = await query(null, '{ provider { id } }');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ auth: 'API key required' });
  });

  it("keeps a provider key inside its provider: another provider's id is not found", async () => {
    const response = await query(sandbox.apiKey, 'query ($id: Int) { provider(id: $id) { id } }', {
      id: otherProvider.provider.id,
    });
    expect(response.body.data).toBeNull();
    expect(response.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('lets an internal key read any provider it names', async () => {
    for (const provider of [sandbox.provider, otherProvider.provider]) {
      const response = await query(internalKey, 'query ($id: Int) { provider(id: $id) { id name } }', {
        id: provider.id,
      });
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data.provider).toEqual({ id: provider.id, name: provider.name });
    }
  });

  it('joins an offer (offers subgraph) to its venue (providers subgraph) through the gateway', async () => {
    const offer = await anEvent(testApp.database.orm.em.fork(), testApp.clock, {
      providerId: sandbox.provider.id,
      venueId: sandbox.venues[0].id,
    });
    const response = await query(
      sandbox.apiKey,
      'query ($id: Int!) { offer(id: $id) { id name venue { id legalName } } }',
      {
        id: offer.id,
      },
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.offer).toEqual({
      id: offer.id,
      name: 'Concert at the demo theatre',
      venue: { id: sandbox.venues[0].id, legalName: 'Demo Theatre' },
    });
    const foreign = await query(otherProvider.apiKey, 'query ($id: Int!) { offer(id: $id) { id } }', { id: offer.id });
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('answers _entities on the providers subgraph within the caller scope', async () => {
    const { schema } = testApp.runtime.graph.subgraphs.providers;
    const document = parse('query ($r: [_Any!]!) { _entities(representations: $r) { ... on Venue { id legalName } } }');
    const contextFor = (apiKeyId: number, providerId: number, offererId: number) => ({
      em: testApp.database.orm.em.fork(),
      caller: { kind: 'provider' as const, apiKeyId, apiKeyPrefix: 'test', providerId, offererId },
      clock: testApp.clock,
      events: testApp.runtime.events,
      appEnv: 'development' as const,
    });
    const own = await execute({
      schema,
      document,
      variableValues: { r: [{ __typename: 'Venue', id: sandbox.venues[1].id }] },
      contextValue: contextFor(1, sandbox.provider.id, sandbox.offerer.id),
    });
    expect(own.errors).toBeUndefined();
    expect(own.data?._entities).toEqual([{ id: sandbox.venues[1].id, legalName: 'Demo Bookshop' }]);
    const foreign = await execute({
      schema,
      document,
      variableValues: { r: [{ __typename: 'Venue', id: sandbox.venues[1].id }] },
      contextValue: contextFor(2, otherProvider.provider.id, otherProvider.offerer.id),
    });
    expect(foreign.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it("never shows another provider's venue", async () => {
    const response = await query(otherProvider.apiKey, 'query ($id: Int!) { venue(id: $id) { id } }', {
      id: sandbox.venues[0].id,
    });
    expect(response.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

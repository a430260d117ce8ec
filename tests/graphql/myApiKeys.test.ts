import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { ApiKey } from '../../graphql/providers/ApiKey.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { graphqlAs } from '../support/builders.js';
import { aProvider, createSandbox } from '../support/fixtures.js';

type Json = Record<string, any>;

const MY_KEYS = '{ myApiKeys { id prefix label createdAt lastUsedAt revokedAt } }';
const ISSUE = 'mutation ($label: String) { issueMyApiKey(label: $label) { key apiKey { id prefix label revokedAt } } }';
const REVOKE_BY_PREFIX = 'mutation ($prefix: String) { revokeMyApiKey(prefix: $prefix) { prefix revokedAt } }';
const REVOKE_BY_ID = 'mutation ($id: Int) { revokeMyApiKey(id: $id) { id revokedAt } }';

const prefixOf = (key: string) => key.split('_').slice(0, 2).join('_');

describe("A provider's own keys in the graph (myApiKeys, issueMyApiKey, revokeMyApiKey)", () => {
  let testApp: TestApp;
  let firstKey: string;
  let secondKey: string;
  const em = () => testApp.database.orm.em.fork();
  const as = async (key: string, query: string, variables?: Json) => {
    const response = await graphqlAs(testApp, key, query, variables);
    expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
    return response.body.data as Json;
  };
  const errorOf = async (key: string, query: string, variables?: Json) =>
    ((await graphqlAs(testApp, key, query, variables)).body.errors as Json[])[0];

  beforeAll(async () => {
    testApp = await createTestApp();
    firstKey = (await createSandbox(em(), testApp.clock, 'test')).apiKey;
    secondKey = (await aProvider(em(), testApp.clock, { name: 'Second Ticketing' })).apiKey;
  });
  afterAll(() => testApp?.close());

  it("lists the caller's provider's keys only, with their prefix, label and dates, never a secret", async () => {
    const first = (await as(firstKey, MY_KEYS)).myApiKeys as Json[];
    const second = (await as(secondKey, MY_KEYS)).myApiKeys as Json[];
    expect(first.map((key) => key.prefix)).toEqual([prefixOf(firstKey)]);
    expect(second.map((key) => key.prefix)).toEqual([prefixOf(secondKey)]);
    expect(first[0]).toMatchObject({ revokedAt: null, createdAt: expect.any(String), lastUsedAt: expect.any(String) });
    expect(JSON.stringify(first)).not.toContain(firstKey.split('_')[2]);
  });

  it('issues a key shown once, which authenticates, and which the provider alone then lists', async () => {
    const { issueMyApiKey: issued } = await as(firstKey, ISSUE, { label: 'CI' });
    expect(issued.key).toMatch(/^[a-z]+_[0-9a-f]{12}_[0-9a-f]{64}$/);
    expect(issued.apiKey).toMatchObject({ prefix: prefixOf(issued.key), label: 'CI', revokedAt: null });
    expect((await as(issued.key, '{ provider { name } }')).provider.name).toBe(
      (await as(firstKey, '{ provider { name } }')).provider.name,
    );
    const listed = (await as(firstKey, MY_KEYS)).myApiKeys as Json[];
    expect(listed.map((key) => key.prefix)).toEqual([prefixOf(firstKey), issued.apiKey.prefix]);
    expect(JSON.stringify(listed)).not.toContain(issued.key);
    const others = (await as(secondKey, MY_KEYS)).myApiKeys as Json[];
    expect(others.map((key) => key.prefix)).not.toContain(issued.apiKey.prefix);
    // The new key belongs to the same provider and is limited to the same offerer as the key that asked.
    const stored = await em().findOneOrFail(ApiKey, { prefix: issued.apiKey.prefix });
    const asking = await em().findOneOrFail(ApiKey, { prefix: prefixOf(firstKey) });
    expect([stored.provider?.id, stored.offerer?.id]).toEqual([asking.provider?.id, asking.offerer?.id]);
  });

  it('refuses a label that is blank or too long', async () => {
    expect((await errorOf(firstKey, ISSUE, { label: '  ' })).extensions.code).toBe('VALIDATION_FAILED');
    expect((await errorOf(firstKey, ISSUE, { label: 'x'.repeat(141) })).extensions.code).toBe('VALIDATION_FAILED');
  });

  it('revokes by prefix or by id: the key gets 401 from then on', async () => {
    const byPrefix = (await as(firstKey, ISSUE, { label: 'by prefix' })).issueMyApiKey;
    const byId = (await as(firstKey, ISSUE, { label: 'by id' })).issueMyApiKey;
    const revoked = (await as(firstKey, REVOKE_BY_PREFIX, { prefix: byPrefix.apiKey.prefix })).revokeMyApiKey;
    expect(revoked).toMatchObject({ prefix: byPrefix.apiKey.prefix, revokedAt: expect.any(String) });
    expect((await as(firstKey, REVOKE_BY_ID, { id: byId.apiKey.id })).revokeMyApiKey.revokedAt).toEqual(
      expect.any(String),
    );
    for (const key of [byPrefix.key, byId.key]) {
      expect((await graphqlAs(testApp, key, '{ provider { id } }')).status).toBe(401);
      expect(
        (await request(testApp.app).get('/public/providers/v1/provider').set('Authorization', `Bearer ${key}`)).status,
      ).toBe(401);
    }
    const listed = (await as(firstKey, MY_KEYS)).myApiKeys as Json[];
    expect(listed.find((key) => key.prefix === byPrefix.apiKey.prefix)?.revokedAt).toEqual(expect.any(String));
    expect((await errorOf(firstKey, REVOKE_BY_ID, { id: byId.apiKey.id })).extensions.code).toBe('BAD_REQUEST');
  });

  it('finds no key of another provider to revoke, and leaves it working', async () => {
    const other = (await as(secondKey, MY_KEYS)).myApiKeys[0] as Json;
    expect((await errorOf(firstKey, REVOKE_BY_PREFIX, { prefix: other.prefix })).extensions.code).toBe('NOT_FOUND');
    expect((await errorOf(firstKey, REVOKE_BY_ID, { id: other.id })).extensions.code).toBe('NOT_FOUND');
    expect((await as(secondKey, MY_KEYS)).myApiKeys[0].revokedAt).toBeNull();
    expect((await graphqlAs(testApp, secondKey, '{ provider { id } }')).status).toBe(200);
  });

  it('asks for the prefix or the id, one of them', async () => {
    const neither = await errorOf(firstKey, 'mutation { revokeMyApiKey { id } }');
    expect(neither.extensions.code).toBe('BAD_REQUEST');
  });

  it("limits a key of one offerer to that offerer's keys; a provider-wide key sees and revokes them all", async () => {
    const fork = em();
    const asking = await fork.findOneOrFail(ApiKey, { prefix: prefixOf(firstKey) });
    const otherOfferer = fork.create(Offerer, {
      name: 'Other offerer',
      siren: '765432109',
      allowedOnAdage: false,
      createdDatetime: testApp.clock.now(),
    });
    const wide = issueApiKey(fork, testApp.clock, { env: 'test', provider: asking.provider });
    const narrow = issueApiKey(fork, testApp.clock, { env: 'test', provider: asking.provider, offerer: otherOfferer });
    await fork.flush();
    const seenByWide = ((await as(wide.key, MY_KEYS)).myApiKeys as Json[]).map((key) => key.prefix);
    expect(seenByWide).toEqual(expect.arrayContaining([prefixOf(firstKey), wide.apiKey.prefix, narrow.apiKey.prefix]));
    const seenByNarrow = ((await as(narrow.key, MY_KEYS)).myApiKeys as Json[]).map((key) => key.prefix);
    expect(seenByNarrow).toEqual([narrow.apiKey.prefix]);
    expect((await errorOf(narrow.key, REVOKE_BY_PREFIX, { prefix: wide.apiKey.prefix })).extensions.code).toBe(
      'NOT_FOUND',
    );
    const minted = (await as(wide.key, ISSUE, { label: 'wide' })).issueMyApiKey;
    expect((await em().findOneOrFail(ApiKey, { prefix: minted.apiKey.prefix })).offerer).toBeNull();
    await as(wide.key, REVOKE_BY_PREFIX, { prefix: narrow.apiKey.prefix });
    expect((await graphqlAs(testApp, narrow.key, MY_KEYS)).status).toBe(401);
  });

  it('is for provider keys: an internal key gets 403 (it has the back office operations)', async () => {
    const fork = em();
    const internalKey = issueApiKey(fork, testApp.clock, { env: 'test', internal: true }).key;
    await fork.flush();
    for (const query of [MY_KEYS, 'mutation { issueMyApiKey { key } }', 'mutation { revokeMyApiKey(id: 1) { id } }']) {
      expect((await errorOf(internalKey, query)).extensions.code).toBe('FORBIDDEN');
    }
  });
});

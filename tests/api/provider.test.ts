import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKey } from '../../graphql/providers/ApiKey.js';
import { revokeApiKey } from '../../graphql/providers/apiKeys.js';
import { aProvider, createSandbox } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectMatchesContract } from '../support/contract.js';

describe('GET /public/providers/v1/provider', () => {
  let testApp: TestApp;
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;

  beforeAll(async () => {
    testApp = await createTestApp();
    sandbox = await createSandbox(testApp.database.orm.em.fork(), testApp.clock, 'test');
  });
  afterAll(() => testApp.close());

  it("answers the key's provider", async () => {
    const response = await request(testApp.app)
      .get('/public/providers/v1/provider')
      .set('Authorization', `Bearer ${sandbox.apiKey}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: sandbox.provider.id,
      name: 'Demo Ticketing',
      bookingUrl: 'https://ticketing.example.com/booking',
      cancelUrl: 'https://ticketing.example.com/cancel',
      notificationUrl: 'https://ticketing.example.com/notify',
      logoUrl: null,
    });
    expectMatchesContract(response, 'get', '/public/providers/v1/provider');
  });

  it('answers 401 with a JSON body without a key', async () => {
    const response = await request(testApp.app).get('/public/providers/v1/provider');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ auth: 'API key required' });
    expectMatchesContract(response, 'get', '/public/providers/v1/provider');
  });

  it('answers 401 for a wrong secret, an unknown key and a malformed header', async () => {
    const wrongSecret = sandbox.apiKey.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    for (const header of [
      `Bearer ${wrongSecret}`,
      `Bearer test_000000000000_${'a'.repeat(64)}`,
      'Bearer nope',
      sandbox.apiKey,
    ]) {
      const response = await request(testApp.app).get('/public/providers/v1/provider').set('Authorization', header);
      expect(response.status, header).toBe(401);
      expect(response.body).toEqual({ auth: 'API key required' });
    }
  });

  it('stores only a prefix and a hash of the key', async () => {
    const stored = await testApp.database.orm.em.fork().find(ApiKey, {});
    const [prefixEnv, prefixHex, secret] = sandbox.apiKey.split('_');
    const row = stored.find((key) => key.prefix === `${prefixEnv}_${prefixHex}`);
    expect(row).toBeDefined();
    expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.secretHash).not.toContain(secret);
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('refuses a revoked key with 401', async () => {
    const other = await aProvider(testApp.database.orm.em.fork(), testApp.clock);
    const prefix = other.apiKey.split('_').slice(0, 2).join('_');
    await revokeApiKey(testApp.database.orm.em.fork(), testApp.clock, prefix);
    const response = await request(testApp.app)
      .get('/public/providers/v1/provider')
      .set('Authorization', `Bearer ${other.apiKey}`);
    expect(response.status).toBe(401);
  });

  it('answers 403 to the key of an inactive provider', async () => {
    const inactive = await aProvider(testApp.database.orm.em.fork(), testApp.clock, { isActive: false });
    const response = await request(testApp.app)
      .get('/public/providers/v1/provider')
      .set('Authorization', `Bearer ${inactive.apiKey}`);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ global: ['This provider is inactive'] });
    expectMatchesContract(response, 'get', '/public/providers/v1/provider');
  });

  it('answers JSON 404 for an unknown API path', async () => {
    const response = await request(testApp.app)
      .get('/public/nothing/here')
      .set('Authorization', `Bearer ${sandbox.apiKey}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ global: ['No operation GET /public/nothing/here'] });
  });
});

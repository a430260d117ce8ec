import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ApiKey } from '../../graphql/providers/ApiKey.js';
import { revokeApiKey } from '../../graphql/providers/apiKeys.js';
import { aProvider } from '../support/fixtures.js';
import { useOfferWorld } from '../support/offerWorld.js';

describe('GET /public/providers/v1/provider', () => {
  const world = useOfferWorld();
  const getProvider = (key?: string | null) => world.api.call('GetProvider', { key });

  it("answers the key's provider", async () => {
    const response = await getProvider();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: world.sandbox.provider.id,
      name: 'Demo Ticketing',
      bookingUrl: 'https://ticketing.example.com/booking',
      cancelUrl: 'https://ticketing.example.com/cancel',
      notificationUrl: 'https://ticketing.example.com/notify',
      logoUrl: null,
    });
  });

  it('answers 401 with a JSON body without a key', async () => {
    const response = await getProvider(null);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ auth: 'API key required' });
  });

  it('answers 401 for a wrong secret, an unknown key and a malformed header', async () => {
    const wrongSecret = world.sandbox.apiKey.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    for (const header of [
      `Bearer ${wrongSecret}`,
      `Bearer test_000000000000_${'a'.repeat(64)}`,
      'Bearer nope',
      world.sandbox.apiKey,
    ]) {
      // Headers of any form, which the typed client (always a bearer) does not send.
      const response = await request(world.testApp.app)
        .get('/public/providers/v1/provider')
        .set('Authorization', header);
      expect(response.status, header).toBe(401);
      expect(response.body).toEqual({ auth: 'API key required' });
    }
  });

  it('stores only a prefix and a hash of the key', async () => {
    const stored = await world.em().find(ApiKey, {});
    const [prefixEnv, prefixHex, secret] = world.sandbox.apiKey.split('_');
    const row = stored.find((key) => key.prefix === `${prefixEnv}_${prefixHex}`);
    expect(row).toBeDefined();
    expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.secretHash).not.toContain(secret);
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('refuses a revoked key with 401', async () => {
    const other = await aProvider(world.em(), world.testApp.clock);
    const prefix = other.apiKey.split('_').slice(0, 2).join('_');
    await revokeApiKey(world.em(), world.testApp.clock, prefix);
    const response = await getProvider(other.apiKey);
    expect(response.status).toBe(401);
  });

  it('answers 403 to the key of an inactive provider', async () => {
    const inactive = await aProvider(world.em(), world.testApp.clock, { isActive: false });
    const response = await getProvider(inactive.apiKey);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ global: ['This provider is inactive'] });
    // Every operation answers so, before reading its input: an edition of a product too.
    const edition = await world.api.call('EditProduct', {
      body: { offerId: 1, name: 'Renamed' },
      key: inactive.apiKey,
    });
    expect([edition.status, edition.body]).toEqual([403, { global: ['This provider is inactive'] }]);
  });

  it('answers JSON 404 for an unknown API path', async () => {
    const response = await request(world.testApp.app)
      .get('/public/nothing/here')
      .set('Authorization', `Bearer ${world.sandbox.apiKey}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ global: ['No operation GET /public/nothing/here'] });
  });
});

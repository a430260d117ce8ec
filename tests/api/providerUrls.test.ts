import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Provider } from '../../graphql/providers/Provider.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectMatchesContract } from '../support/contract.js';
import { aProvider, createSandbox } from '../support/fixtures.js';

describe('PATCH /public/providers/v1/provider and /public/providers/v1/venues/{venue_id}', () => {
  let testApp: TestApp;
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  let other: Awaited<ReturnType<typeof aProvider>>;

  const patchProvider = async (body: unknown, key = sandbox.apiKey) => {
    const response = await request(testApp.app)
      .patch('/public/providers/v1/provider')
      .set('Authorization', `Bearer ${key}`)
      .send(body as object);
    expectMatchesContract(response, 'patch', '/public/providers/v1/provider');
    return response;
  };
  const patchVenue = async (venueId: number | string, body: unknown, key = sandbox.apiKey) => {
    const response = await request(testApp.app)
      .patch(`/public/providers/v1/venues/${venueId}`)
      .set('Authorization', `Bearer ${key}`)
      .send(body as object);
    expectMatchesContract(response, 'patch', '/public/providers/v1/venues/{venue_id}');
    return response;
  };
  const storedProvider = () => testApp.database.orm.em.fork().findOneOrFail(Provider, sandbox.provider.id);
  const storedLink = (venueId: number) =>
    testApp.database.orm.em.fork().findOneOrFail(VenueProvider, { venue: venueId, provider: sandbox.provider.id });

  beforeAll(async () => {
    testApp = await createTestApp();
    sandbox = await createSandbox(testApp.database.orm.em.fork(), testApp.clock, 'test');
    other = await aProvider(testApp.database.orm.em.fork(), testApp.clock);
  });
  afterAll(() => testApp.close());

  it('changes only the URLs sent, and null clears one', async () => {
    const response = await patchProvider({ notificationUrl: 'https://tickets.example.org/notify', cancelUrl: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: sandbox.provider.id,
      name: 'Demo Ticketing',
      bookingUrl: 'https://ticketing.example.com/booking',
      cancelUrl: null,
      notificationUrl: 'https://tickets.example.org/notify',
      logoUrl: null,
    });
    const stored = await storedProvider();
    expect([stored.bookingUrl, stored.cancelUrl, stored.notificationUrl]).toEqual([
      'https://ticketing.example.com/booking',
      null,
      'https://tickets.example.org/notify',
    ]);
    const read = await request(testApp.app)
      .get('/public/providers/v1/provider')
      .set('Authorization', `Bearer ${sandbox.apiKey}`);
    expect(read.body.notificationUrl).toBe('https://tickets.example.org/notify');
  });

  it('accepts an empty change and ignores unknown fields (ProviderUpdate is not strict)', async () => {
    const response = await patchProvider({ name: 'Renamed?', logoUrl: 'https://x.example/logo.png' });
    expect(response.status).toBe(200);
    expect(response.body.name).toBe('Demo Ticketing');
    expect(response.body.logoUrl).toBeNull();
  });

  it('refuses a bad URL with 422 naming the field, and writes nothing', async () => {
    const before = await storedProvider();
    for (const [body, loc, type] of [
      [{ bookingUrl: 'not a url' }, 'bookingUrl', 'url_parsing'],
      [{ cancelUrl: 'ftp://files.example.com/cancel' }, 'cancelUrl', 'url_parsing'],
      [{ notificationUrl: '' }, 'notificationUrl', 'url_parsing'],
      [{ notificationUrl: `https://example.com/${'a'.repeat(2100)}` }, 'notificationUrl', 'string_too_long'],
      [{ bookingUrl: 42 }, 'bookingUrl', 'string_type'],
    ] as const) {
      const response = await patchProvider(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body).toEqual([expect.objectContaining({ loc: [loc], type })]);
    }
    const after = await storedProvider();
    expect([after.bookingUrl, after.cancelUrl, after.notificationUrl]).toEqual([
      before.bookingUrl,
      before.cancelUrl,
      before.notificationUrl,
    ]);
  });

  it("sets a venue's own URLs (204), shown on the venue and stored on its link", async () => {
    const venue = sandbox.venues[0];
    const response = await patchVenue(venue.id, {
      bookingUrl: 'https://theatre.example.com/book',
      notificationUrl: 'https://theatre.example.com/notify',
    });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    const link = await storedLink(venue.id);
    expect([link.bookingUrl, link.cancelUrl, link.notificationUrl]).toEqual([
      'https://theatre.example.com/book',
      null,
      'https://theatre.example.com/notify',
    ]);
    const listed = await request(testApp.app)
      .get('/public/offers/v1/offerer_venues')
      .set('Authorization', `Bearer ${sandbox.apiKey}`);
    const shown = listed.body[0].venues.find((candidate: { id: number }) => candidate.id === venue.id);
    expect(shown).toMatchObject({ bookingUrl: 'https://theatre.example.com/book', cancelUrl: null });
    expect(
      listed.body[0].venues.find((candidate: { id: number }) => candidate.id === sandbox.venues[1].id).bookingUrl,
    ).toBeNull();

    const cleared = await patchVenue(venue.id, { bookingUrl: null });
    expect(cleared.status).toBe(204);
    expect((await storedLink(venue.id)).bookingUrl).toBeNull();
    expect((await storedLink(venue.id)).notificationUrl).toBe('https://theatre.example.com/notify');
  });

  it('answers 404 for a venue not attached to the key, never 403, and changes nothing', async () => {
    const foreign = await patchVenue(sandbox.venues[0].id, { bookingUrl: 'https://evil.example.com' }, other.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ global: ['Venue not found'] });
    expect((await storedLink(sandbox.venues[0].id)).bookingUrl).toBeNull();
    const unknown = await patchVenue(999999, { bookingUrl: 'https://x.example.com' });
    expect(unknown.status).toBe(404);
  });

  it('validates the venue id and the body together', async () => {
    const response = await patchVenue('abc', { bookingUrl: 'nope' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual([
      expect.objectContaining({ loc: ['venue_id'], type: 'int_parsing' }),
      expect.objectContaining({ loc: ['bookingUrl'], type: 'url_parsing' }),
    ]);
  });

  it('needs a key', async () => {
    const response = await request(testApp.app).patch('/public/providers/v1/provider').send({});
    expect(response.status).toBe(401);
  });
});

import { describe, expect, it } from 'vitest';
import type { Offer } from '../../graphql/offers/Offer.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { expectStatus } from '../support/api.js';
import { anEvent } from '../support/fixtures.js';
import { useOfferWorld } from '../support/offerWorld.js';

describe('PATCH /public/providers/v1/provider and /public/providers/v1/venues/{venue_id}', () => {
  const world = useOfferWorld();

  const patchProvider = (body: unknown, key?: string | null) => world.api.call('UpdateProvider', { body, key });
  const patchVenue = (venueId: number | string, body: unknown, key?: string) =>
    world.api.call('UpdateVenueExternalUrls', { params: { venue_id: venueId }, body, key });
  const storedProvider = () => world.em().findOneOrFail(Provider, world.sandbox.provider.id);
  const storedLink = (venueId: number) =>
    world.em().findOneOrFail(VenueProvider, { venue: venueId, provider: world.sandbox.provider.id });

  it('changes only the URLs sent, and null clears one', async () => {
    const response = await patchProvider({
      notificationUrl: 'https://tickets.example.org/notify',
      cancelUrl: 'https://tickets.example.org/cancel',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: world.sandbox.provider.id,
      name: 'Demo Ticketing',
      bookingUrl: 'https://ticketing.example.com/booking',
      cancelUrl: 'https://tickets.example.org/cancel',
      notificationUrl: 'https://tickets.example.org/notify',
      logoUrl: null,
    });
    const stored = await storedProvider();
    expect([stored.bookingUrl, stored.cancelUrl, stored.notificationUrl]).toEqual([
      'https://ticketing.example.com/booking',
      'https://tickets.example.org/cancel',
      'https://tickets.example.org/notify',
    ]);
    const read = await world.api.call('GetProvider');
    expect(read.body.notificationUrl).toBe('https://tickets.example.org/notify');
    const cleared = await patchProvider({ notificationUrl: null });
    expect(cleared.body.notificationUrl).toBeNull();
    expect((await storedProvider()).notificationUrl).toBeNull();
  });

  it('keeps bookingUrl and cancelUrl together: one set without the other is 400 naming the missing one', async () => {
    const before = await storedProvider();
    for (const [body, field] of [
      [{ cancelUrl: null }, 'cancelUrl'],
      [{ bookingUrl: null, notificationUrl: 'https://tickets.example.org/notify' }, 'bookingUrl'],
    ] as const) {
      const response = await patchProvider(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toEqual({
        [field]: ['Set bookingUrl and cancelUrl together, or unset both: a ticketing system is reached through both'],
      });
    }
    const after = await storedProvider();
    expect([after.bookingUrl, after.cancelUrl, after.notificationUrl]).toEqual([
      before.bookingUrl,
      before.cancelUrl,
      before.notificationUrl,
    ]);

    const venue = world.sandbox.venues[1];
    for (const [body, field] of [
      [{ bookingUrl: 'https://bookshop.example.com/book' }, 'cancelUrl'],
      [{ cancelUrl: 'https://bookshop.example.com/cancel' }, 'bookingUrl'],
    ] as const) {
      const alone = await patchVenue(venue.id, body);
      expect(alone.status).toBe(400);
      expect(alone.body).toEqual({
        [field]: ['Set bookingUrl and cancelUrl together, or unset both: a ticketing system is reached through both'],
      });
    }
    expect((await storedLink(venue.id)).bookingUrl).toBeNull();
    expect((await storedLink(venue.id)).cancelUrl).toBeNull();
  });

  it('refuses to unset both while events with tickets have dates ahead (400 listing them), then allows it', async () => {
    const [theatre, bookshop] = world.sandbox.venues;
    const owner = { providerId: world.sandbox.provider.id, venueId: theatre.id };
    const fork = world.em();
    const withTickets = await anEvent(fork, world.testApp.clock, owner, { hasTicket: true });
    const withoutTickets = await anEvent(fork, world.testApp.clock, owner);
    const pastOnly = await anEvent(fork, world.testApp.clock, owner, { hasTicket: true });
    const now = world.testApp.clock.now().getTime();
    const aDate = (offer: Offer, hours: number, isDeleted = false) =>
      fork.create(Stock, {
        offer,
        beginningDatetime: new Date(now + hours * 3_600_000),
        bookingLimitDatetime: new Date(now + (hours - 1) * 3_600_000),
        price: 1000,
        quantity: 10,
        isDeleted,
        createdAt: new Date(now),
        updatedAt: new Date(now),
      });
    const ahead = aDate(withTickets, 48);
    aDate(withoutTickets, 48);
    aDate(pastOnly, -48);
    aDate(pastOnly, 72, true);
    await fork.flush();

    const unset = { bookingUrl: null, cancelUrl: null };
    const message = `These events sell tickets through your ticketing system and have dates ahead: ${withTickets.id}. Keep bookingUrl and cancelUrl until their dates are past or deleted`;
    const refused = await patchProvider(unset);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ bookingUrl: [message], cancelUrl: [message] });
    expect((await storedProvider()).bookingUrl).toBe('https://ticketing.example.com/booking');

    // A venue with URLs of its own does not need the provider's.
    const theatrePair = {
      bookingUrl: 'https://theatre.example.com/book',
      cancelUrl: 'https://theatre.example.com/cancel',
    };
    expect((await patchVenue(theatre.id, theatrePair)).status).toBe(204);
    // Its own pair may go while the provider's takes over...
    expect((await patchVenue(theatre.id, unset)).status).toBe(204);
    expect((await patchVenue(theatre.id, theatrePair)).status).toBe(204);
    // ...and the provider's may go once every such venue has its own.
    const providerUnset = await patchProvider(unset);
    expect(providerUnset.status).toBe(200);
    expect([providerUnset.body.bookingUrl, providerUnset.body.cancelUrl]).toEqual([null, null]);
    // Now the venue's pair is the only one left: refused, then allowed once the date is deleted.
    const venueRefused = await patchVenue(theatre.id, unset);
    expect(venueRefused.status).toBe(400);
    expect(venueRefused.body).toEqual({ bookingUrl: [message], cancelUrl: [message] });
    expect((await storedLink(theatre.id)).cancelUrl).toBe('https://theatre.example.com/cancel');
    expect((await patchVenue(bookshop.id, { notificationUrl: 'https://bookshop.example.com/n' })).status).toBe(204);

    await world.em().nativeUpdate(Stock, ahead.id, { isDeleted: true });
    expect((await patchVenue(theatre.id, unset)).status).toBe(204);
    expect([(await storedLink(theatre.id)).bookingUrl, (await storedLink(theatre.id)).cancelUrl]).toEqual([null, null]);
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
    const venue = world.sandbox.venues[0];
    const response = await patchVenue(venue.id, {
      bookingUrl: 'https://theatre.example.com/book',
      cancelUrl: 'https://theatre.example.com/cancel',
      notificationUrl: 'https://theatre.example.com/notify',
    });
    expect(response.status).toBe(204);
    // No body: the contract check of the call holds a 204 to an empty one.
    expect(response.body).toEqual({});
    const link = await storedLink(venue.id);
    expect([link.bookingUrl, link.cancelUrl, link.notificationUrl]).toEqual([
      'https://theatre.example.com/book',
      'https://theatre.example.com/cancel',
      'https://theatre.example.com/notify',
    ]);
    const listed = await world.api.call('GetOffererVenues');
    expectStatus(listed, 200);
    const shown = (venueId: number) => listed.body[0].venues.find((candidate) => candidate.id === venueId);
    expect(shown(venue.id)).toMatchObject({
      bookingUrl: 'https://theatre.example.com/book',
      cancelUrl: 'https://theatre.example.com/cancel',
    });
    expect(shown(world.sandbox.venues[1].id)?.bookingUrl).toBeNull();

    const cleared = await patchVenue(venue.id, { bookingUrl: null, cancelUrl: null });
    expect(cleared.status).toBe(204);
    expect((await storedLink(venue.id)).bookingUrl).toBeNull();
    expect((await storedLink(venue.id)).notificationUrl).toBe('https://theatre.example.com/notify');
  });

  it('answers 404 for a venue not attached to the key, never 403, and changes nothing', async () => {
    const foreign = await patchVenue(
      world.sandbox.venues[0].id,
      { bookingUrl: 'https://evil.example.com' },
      world.other.apiKey,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ global: ['Venue not found'] });
    expect((await storedLink(world.sandbox.venues[0].id)).bookingUrl).toBeNull();
    const unknown = await patchVenue(999999, { bookingUrl: 'https://x.example.com' });
    expect(unknown.status).toBe(404);

    // A venue whose link to the provider is inactive is not attached any more.
    const bookshop = world.sandbox.venues[1];
    await world
      .em()
      .nativeUpdate(VenueProvider, { venue: bookshop.id, provider: world.sandbox.provider.id }, { isActive: false });
    try {
      const inactive = await patchVenue(bookshop.id, { notificationUrl: 'https://bookshop.example.com/notify' });
      expect(inactive.status).toBe(404);
      expect(inactive.body).toEqual({ global: ['Venue not found'] });
    } finally {
      await world
        .em()
        .nativeUpdate(VenueProvider, { venue: bookshop.id, provider: world.sandbox.provider.id }, { isActive: true });
    }
    expect((await storedLink(bookshop.id)).notificationUrl).not.toBe('https://bookshop.example.com/notify');
  });

  it('validates the venue id and the body together', async () => {
    const response = await patchVenue('abc', { bookingUrl: 'nope' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual([
      expect.objectContaining({ loc: ['venue_id'], type: 'int_parsing' }),
      expect.objectContaining({ loc: ['bookingUrl'], type: 'url_parsing' }),
    ]);
  });

  it("changes the provider's bookingUrl or cancelUrl alone while the other stays set, and unsets both together (200)", async () => {
    const pair = { bookingUrl: 'https://tickets.example.org/book', cancelUrl: 'https://tickets.example.org/cancel' };
    expect((await patchProvider(pair)).status).toBe(200);
    const notify = (await storedProvider()).notificationUrl;

    const booking = await patchProvider({ bookingUrl: 'https://tickets.example.org/book2' });
    expect(booking.status).toBe(200);
    expect(booking.body).toMatchObject({
      bookingUrl: 'https://tickets.example.org/book2',
      cancelUrl: pair.cancelUrl,
      notificationUrl: notify,
    });
    const cancel = await patchProvider({ cancelUrl: 'https://tickets.example.org/cancel2' });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({
      bookingUrl: 'https://tickets.example.org/book2',
      cancelUrl: 'https://tickets.example.org/cancel2',
      notificationUrl: notify,
    });
    const stored = await storedProvider();
    expect([stored.bookingUrl, stored.cancelUrl, stored.notificationUrl]).toEqual([
      'https://tickets.example.org/book2',
      'https://tickets.example.org/cancel2',
      notify,
    ]);

    const unset = await patchProvider({ bookingUrl: null, cancelUrl: null });
    expect(unset.status).toBe(200);
    expect(unset.body).toMatchObject({ bookingUrl: null, cancelUrl: null, notificationUrl: notify });
    const after = await storedProvider();
    expect([after.bookingUrl, after.cancelUrl, after.notificationUrl]).toEqual([null, null, notify]);
  });

  it("changes one of a venue's URLs alone (204), refuses to unset one of its pair alone (400), and clears all three with nulls", async () => {
    const venue = world.sandbox.venues[1];
    const all = {
      bookingUrl: 'https://bookshop.example.com/book',
      cancelUrl: 'https://bookshop.example.com/cancel',
      notificationUrl: 'https://bookshop.example.com/notify',
    };
    expect((await patchVenue(venue.id, all)).status).toBe(204);
    const urls = async () => {
      const link = await storedLink(venue.id);
      return [link.bookingUrl, link.cancelUrl, link.notificationUrl];
    };

    for (const [change, expected] of [
      [
        { notificationUrl: 'https://bookshop.example.com/notify2' },
        [all.bookingUrl, all.cancelUrl, 'https://bookshop.example.com/notify2'],
      ],
      [
        { bookingUrl: 'https://bookshop.example.com/book2' },
        ['https://bookshop.example.com/book2', all.cancelUrl, 'https://bookshop.example.com/notify2'],
      ],
      [
        { cancelUrl: 'https://bookshop.example.com/cancel2' },
        [
          'https://bookshop.example.com/book2',
          'https://bookshop.example.com/cancel2',
          'https://bookshop.example.com/notify2',
        ],
      ],
    ] as const) {
      const response = await patchVenue(venue.id, change);
      expect(response.status, JSON.stringify(change)).toBe(204);
      expect(await urls()).toEqual(expected);
    }

    for (const [change, missing] of [
      [{ cancelUrl: null }, 'cancelUrl'],
      [{ bookingUrl: null }, 'bookingUrl'],
    ] as const) {
      const response = await patchVenue(venue.id, change);
      expect(response.status, JSON.stringify(change)).toBe(400);
      expect(response.body).toEqual({
        [missing]: ['Set bookingUrl and cancelUrl together, or unset both: a ticketing system is reached through both'],
      });
      expect((await urls()).slice(0, 2)).toEqual([
        'https://bookshop.example.com/book2',
        'https://bookshop.example.com/cancel2',
      ]);
    }

    expect((await patchVenue(venue.id, { bookingUrl: null, cancelUrl: null, notificationUrl: null })).status).toBe(204);
    expect(await urls()).toEqual([null, null, null]);
    const listed = await world.api.call('GetOffererVenues');
    expectStatus(listed, 200);
    expect(listed.body[0].venues.find((candidate) => candidate.id === venue.id)).toMatchObject({
      bookingUrl: null,
      cancelUrl: null,
      notificationUrl: null,
    });
  });

  it('needs a key', async () => {
    const response = await patchProvider({}, null);
    expect(response.status).toBe(401);
  });
});

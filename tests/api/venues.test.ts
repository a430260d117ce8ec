import { describe, expect, it } from 'vitest';
import { Venue } from '../../graphql/providers/Venue.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { useOfferWorld } from '../support/offerWorld.js';

describe('Venues: GET /public/offers/v1/offerer_venues and /public/offers/v1/venues/{siret}', () => {
  const world = useOfferWorld();

  const offererVenues = (query: Record<string, string> = {}, key?: string | null) =>
    world.api.call('GetOffererVenues', { query, key });
  const venueBySiret = (siret: string, key?: string) => world.api.call('GetVenueBySiret', { params: { siret }, key });

  it("lists the key's offerer with its three venues, physical and digital", async () => {
    const response = await offererVenues();
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
    const [{ offerer, venues }] = response.body;
    expect(offerer).toEqual({
      id: world.sandbox.offerer.id,
      createdDatetime: '2026-11-22T10:00:00.000Z',
      name: 'Demo Cultural Association',
      siren: '123456782',
      allowedOnAdage: true,
    });
    expect(venues.map((venue: { id: number }) => venue.id)).toEqual(world.sandbox.venues.map((venue) => venue.id));
    expect(venues[0]).toEqual({
      id: world.sandbox.venues[0].id,
      createdDatetime: '2026-11-22T10:00:00.000Z',
      location: { type: 'physical', address: '12 Rue de Rivoli', city: 'Paris', postalCode: '75004' },
      legalName: 'Demo Theatre',
      publicName: 'Théâtre de la Démo',
      activityDomain: 'PERFORMING_ARTS',
      siret: '12345678200010',
      siretComment: null,
      accessibility: {
        audioDisabilityCompliant: true,
        mentalDisabilityCompliant: true,
        motorDisabilityCompliant: true,
        visualDisabilityCompliant: false,
      },
      bookingUrl: null,
      cancelUrl: null,
      notificationUrl: null,
    });
    expect(venues[2]).toMatchObject({
      location: { type: 'digital' },
      activityDomain: 'DIGITAL',
      siret: null,
      accessibility: {
        audioDisabilityCompliant: null,
        mentalDisabilityCompliant: null,
        motorDisabilityCompliant: null,
        visualDisabilityCompliant: null,
      },
    });
  });

  it('filters by SIREN, and accepts a New Caledonian RIDET form', async () => {
    expect((await offererVenues({ siren: '123456782' })).body).toHaveLength(1);
    const none = await offererVenues({ siren: '987654321' });
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    expect((await offererVenues({ siren: 'NC1234567' })).status).toBe(200);
  });

  it('refuses a malformed SIREN with 422 at loc ["siren"]', async () => {
    for (const siren of ['12345678', '1234567890', 'NC123456', 'ABCDEFGHI', 'nc1234567']) {
      const response = await offererVenues({ siren });
      expect(response.status, siren).toBe(422);
      expect(response.body).toEqual([expect.objectContaining({ loc: ['siren'], type: 'string_pattern_mismatch' })]);
    }
  });

  it("shows another provider nothing of this provider's venues", async () => {
    const response = await offererVenues({}, world.other.apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('finds a venue by SIRET', async () => {
    const response = await venueBySiret('12345678200028');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: world.sandbox.venues[1].id,
      legalName: 'Demo Bookshop',
      activityDomain: 'BOOKSTORE',
      location: { type: 'physical', address: '4 Place Bellecour', city: 'Lyon', postalCode: '69002' },
    });
  });

  it("answers 404, never 403, for another provider's SIRET or an unknown one", async () => {
    const foreign = await venueBySiret('12345678200028', world.other.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ global: ['Venue not found'] });
    expect((await venueBySiret('99999999999999')).status).toBe(404);
  });

  it('refuses a malformed SIRET or RIDET with 422 at loc ["siret"]', async () => {
    for (const siret of [
      '1234567820001',
      '123456782000100',
      'ABCDEFGHIJKLMN',
      'NC1234567001',
      'nc1234567001xx',
      '12345678 00010',
    ]) {
      const response = await venueBySiret(siret);
      expect(response.status, siret).toBe(422);
      expect(response.body).toEqual([
        {
          loc: ['siret'],
          msg: 'A SIRET is 14 digits; a RIDET is NC followed by 10 digits and XX',
          type: 'string_pattern_mismatch',
          ctx: expect.anything(),
        },
      ]);
    }
    expect((await venueBySiret('12345678200010')).status).toBe(200);
  });

  it('finds a New Caledonian venue by its RIDET (NC, digits, XX)', async () => {
    const em = world.em();
    const venue = em.create(Venue, {
      offerer: world.other.offerer.id,
      legalName: 'Nouméa Hall',
      activityDomain: 'CONCERT_HALL',
      siret: 'NC1234567001XX',
      isVirtual: false,
      createdDatetime: world.testApp.clock.now(),
    });
    em.create(VenueProvider, {
      venue,
      provider: world.other.provider.id,
      isActive: true,
      createdAt: world.testApp.clock.now(),
    });
    await em.flush();
    const response = await venueBySiret('NC1234567001XX', world.other.apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: venue.id, siret: 'NC1234567001XX', legalName: 'Nouméa Hall' });
    expect((await venueBySiret('NC1234567001XX')).status).toBe(404);
  });

  it('leaves out a venue whose link to the provider is inactive: not listed, 404 by SIRET', async () => {
    const bookshop = world.sandbox.venues[1];
    const em = world.em();
    await em.nativeUpdate(
      VenueProvider,
      { venue: bookshop.id, provider: world.sandbox.provider.id },
      { isActive: false },
    );
    try {
      const listed = await offererVenues();
      expect(listed.status).toBe(200);
      expect(listed.body[0].venues.map((venue: { id: number }) => venue.id)).toEqual(
        world.sandbox.venues.filter((venue) => venue.id !== bookshop.id).map((venue) => venue.id),
      );
      const bySiret = await venueBySiret('12345678200028');
      expect(bySiret.status).toBe(404);
      expect(bySiret.body).toEqual({ global: ['Venue not found'] });

      // With every link inactive, the list is empty.
      await em.nativeUpdate(VenueProvider, { provider: world.sandbox.provider.id }, { isActive: false });
      const none = await offererVenues();
      expect(none.status).toBe(200);
      expect(none.body).toEqual([]);
    } finally {
      await em.nativeUpdate(VenueProvider, { provider: world.sandbox.provider.id }, { isActive: true });
    }
    expect((await venueBySiret('12345678200028')).status).toBe(200);
  });

  it('needs a key', async () => {
    const response = await offererVenues({}, null);
    expect(response.status).toBe(401);
  });
});

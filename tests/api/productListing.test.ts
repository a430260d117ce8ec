import { describe, expect, it } from 'vitest';
import { Offer } from '../../graphql/offers/Offer.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { apiClient } from '../support/api.js';
import { aPng } from '../support/images.js';
import { anEvent } from '../support/fixtures.js';
import { anotherProviderAt, expectVenueOutOfReach, useProductWorld } from '../support/offerWorld.js';

describe('Product Offers: reading and listing', () => {
  const world = useProductWorld();
  const { aProductBody, aDownloadBody, post, patch, getOne, list, created, anAddress } = world;
  const { theatre, bookshop, online, em } = world;

  it("reads one product; another provider's, an event and an unknown id are 404", async () => {
    const product = await created();
    const read = await getOne(product.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(product);

    const notFound = { global: ['Product offer not found'] };
    const byOther = await getOne(product.id, world.other.apiKey);
    expect([byOther.status, byOther.body]).toEqual([404, notFound]);
    const event = await anEvent(em(), world.testApp.clock, {
      providerId: world.sandbox.provider.id,
      venueId: theatre(),
    });
    const anEventRead = await getOne(event.id);
    expect([anEventRead.status, anEventRead.body]).toEqual([404, notFound]);
    const unknown = await getOne(999999);
    expect([unknown.status, unknown.body]).toEqual([404, notFound]);
    const notAnId = await getOne('abc');
    expect(notAnId.status).toBe(422);
    expect(notAnId.body[0].loc).toEqual(['product_id']);
  });

  it('answers 404 for a venue the key does not reach, rather than an empty page', async () => {
    await expectVenueOutOfReach(list, theatre(), world.other.apiKey);
  });

  it('lists only the products of the key, a page at a time (50 by default), in id order', async () => {
    // Enough products for more than one default page, straight into the database.
    const fork = em();
    for (let index = 0; index < 55; index += 1) {
      fork.create(Offer, {
        name: `Bulk pass ${index}`,
        venue: theatre(),
        provider: world.sandbox.provider.id,
        category: 'CARTE_JEUNES',
        isEvent: false,
        audioDisabilityCompliant: false,
        mentalDisabilityCompliant: false,
        motorDisabilityCompliant: false,
        visualDisabilityCompliant: false,
        categoryRelatedFields: {},
        enableDoubleBookings: false,
        hasTicket: false,
        locationType: 'physical',
        idAtProvider: `bulk-${index}`,
        createdAt: world.testApp.clock.now(),
        updatedAt: world.testApp.clock.now(),
      });
    }
    await fork.flush();
    const event = await anEvent(em(), world.testApp.clock, {
      providerId: world.sandbox.provider.id,
      venueId: theatre(),
    });
    await created({ idAtProvider: 'listed-1' });
    // A product of another provider, at a venue of the same offerer.
    const second = await anotherProviderAt(world, bookshop());
    const othersProduct = await post(aProductBody(), second.key);
    expect(othersProduct.status).toBe(201);

    const expected = (
      await em().find(Offer, { provider: world.sandbox.provider.id, isEvent: false }, { orderBy: { id: 'asc' } })
    ).map((offer) => offer.id);
    expect(expected.length).toBeGreaterThan(55);
    const idsOf = (response: { body: { products: { id: number }[] } }) =>
      response.body.products.map((product) => product.id);

    const firstPage = await list();
    expect(firstPage.status).toBe(200);
    expect(idsOf(firstPage)).toEqual(expected.slice(0, 50));
    const secondPage = await list({ firstIndex: expected[49] + 1 });
    expect(idsOf(secondPage)).toEqual(expected.slice(50, 100));
    expect(idsOf(await list({ limit: 2 }))).toEqual(expected.slice(0, 2));
    expect(idsOf(await list({ limit: 3, firstIndex: expected[1] + 1 }))).toEqual(expected.slice(2, 5));
    expect(idsOf(await list({ firstIndex: expected[4], limit: 1 }))).toEqual([expected[4]]);
    expect(idsOf(await list({ firstIndex: 2147483647 }))).toEqual([]);
    expect(idsOf(await list({ limit: 50, firstIndex: 1 }))).not.toContain(othersProduct.body.id);
    const everything = [...idsOf(firstPage), ...idsOf(secondPage)];
    expect(everything).not.toContain(othersProduct.body.id);
    expect(everything).not.toContain(event.id);
    expect(idsOf(await list({ firstIndex: event.id, limit: 1 }))).not.toContain(event.id);
    expect(idsOf(await list({}, second.key))).toEqual([othersProduct.body.id]);
    expect(idsOf(await list({}, world.other.apiKey))).toEqual([]);
  });

  it('filters by venue, address and idsAtProvider', async () => {
    const addressId = await anAddress();
    const atAddress = await created({
      idAtProvider: 'filter-address',
      location: { type: 'address', venueId: theatre(), addressId },
    });
    const atTheatre = await created({
      idAtProvider: 'filter-theatre',
      location: { type: 'physical', venueId: theatre() },
    });
    const atBookshop = await created({ idAtProvider: 'filter-bookshop' });
    const download = await post(aDownloadBody({ idAtProvider: 'filter-online' }));

    const all = async (query: { venueId: number }) => {
      const ids: number[] = [];
      let firstIndex = 1;
      for (;;) {
        const page = await list({ limit: 50, firstIndex, ...query });
        expect(page.status, JSON.stringify(query)).toBe(200);
        ids.push(...page.body.products.map((product: { id: number }) => product.id));
        if (page.body.products.length < 50) return { ids, products: page.body.products };
        firstIndex = ids[ids.length - 1] + 1;
      }
    };
    const byTheatre = await all({ venueId: theatre() });
    expect(byTheatre.ids).toEqual(expect.arrayContaining([atAddress.id, atTheatre.id]));
    expect(byTheatre.ids).not.toContain(atBookshop.id);
    expect(byTheatre.ids).not.toContain(download.body.id);
    const expectedAtTheatre = (
      await em().find(
        Offer,
        { provider: world.sandbox.provider.id, isEvent: false, venue: theatre() },
        { orderBy: { id: 'asc' } },
      )
    ).map((offer) => offer.id);
    expect(byTheatre.ids).toEqual(expectedAtTheatre);
    expect((await all({ venueId: online() })).ids).toContain(download.body.id);

    const byAddress = await list({ addressId });
    expect(byAddress.body.products.map((product: { id: number }) => product.id)).toEqual([atAddress.id]);
    expect(byAddress.body.products[0].location).toEqual({
      type: 'address',
      venueId: theatre(),
      addressId,
      addressLabel: null,
    });

    const byIds = await list({ idsAtProvider: 'filter-online,filter-theatre,nope' });
    expect(byIds.body.products.map((product: { id: number }) => product.id)).toEqual([atTheatre.id, download.body.id]);
    const combined = await list({ idsAtProvider: 'filter-theatre,filter-bookshop', venueId: bookshop() });
    expect(combined.body.products.map((product: { id: number }) => product.id)).toEqual([atBookshop.id]);
  });

  it('refuses bad pagination and filters (422)', async () => {
    for (const [query, loc, type] of [
      [{ limit: 'test' }, 'limit', null],
      [{ addressId: 'test' }, 'addressId', null],
      [{ limit: 0 }, 'limit', 'greater_than'],
      [{ limit: 51 }, 'limit', 'less_than_equal'],
      [{ firstIndex: 0 }, 'firstIndex', 'greater_than_equal'],
      [{ venueId: 0 }, 'venueId', 'greater_than'],
      [{ venueId: 'abc' }, 'venueId', null],
      [{ idsAtProvider: Array.from({ length: 101 }, (_, index) => `id${index}`).join(',') }, 'idsAtProvider', null],
    ] as const) {
      const response = await list(query);
      expect(response.status, JSON.stringify(query)).toBe(422);
      expect(response.body, JSON.stringify(query)).toEqual([expect.objectContaining({ loc: [loc] })]);
      if (type) expect(response.body[0].type, JSON.stringify(query)).toBe(type);
    }
    expect((await list({ limit: 50 })).status).toBe(200);
  });
  it('answers 422, never 500, to ids beyond a 32-bit integer, in the body or the query', async () => {
    const product = await created();
    const beyond = 2_147_483_648;
    const cases: [() => Promise<{ status: number; body: any }>, string[]][] = [
      [() => patch({ offerId: beyond, name: 'Too far' }), ['offerId']],
      [() => patch({ offerId: product.id, location: { type: 'physical', venueId: beyond } }), ['location', 'venueId']],
      [() => post(aProductBody({ location: { type: 'physical', venueId: beyond } })), ['location', 'venueId']],
      [
        () => post(aProductBody({ location: { type: 'address', venueId: theatre(), addressId: beyond } })),
        ['location', 'addressId'],
      ],
      [() => list({ venueId: beyond }), ['venueId']],
      [() => list({ addressId: beyond }), ['addressId']],
    ];
    const answers = [];
    for (const [call] of cases) {
      const response = await call();
      answers.push([
        response.status,
        response.status === 422 ? response.body.map((issue: { loc: string[] }) => issue.loc) : response.body,
      ]);
    }
    expect(answers).toEqual(cases.map(([, loc]) => [422, [loc]]));
    expect((await getOne(beyond)).status).toBe(422);
  });

  it('answers 401 without a key on every product operation', async () => {
    const product = await created();
    const noKey = { auth: 'API key required' };
    const anonymous = apiClient(world.testApp.app, '');
    const calls = [
      () => anonymous.call('PostProductOffer', { body: aProductBody(), key: null }),
      () => anonymous.call('EditProduct', { body: { offerId: product.id, name: 'No key' }, key: null }),
      () => anonymous.call('GetProduct', { params: { product_id: product.id }, key: null }),
      () => anonymous.call('GetProducts', { key: null }),
      () => anonymous.call('UploadImage', { params: { offer_id: product.id }, key: null }),
    ];
    for (const call of calls) {
      const response = await call();
      expect([response.status, response.body]).toEqual([401, noKey]);
    }
    expect((await getOne(product.id)).body).toEqual(product);
  });

  it('answers 404 to creation, listing, reading and edition at a venue whose link to the provider is inactive', async () => {
    const link = { venue: bookshop(), provider: world.sandbox.provider.id };
    const product = await created();
    const before = await em().count(Offer, {});
    await em().nativeUpdate(VenueProvider, link, { isActive: false });
    try {
      const creation = await post(aProductBody());
      expect([creation.status, creation.body]).toEqual([404, { global: ['Venue not found'] }]);
      const listing = await list({ venueId: bookshop() });
      expect([listing.status, listing.body]).toEqual([404, { global: ['Venue not found'] }]);
      expect(await em().count(Offer, {})).toBe(before);
      const notFound = [404, { global: ['Product offer not found'] }];
      const read = await getOne(product.id);
      expect([read.status, read.body]).toEqual(notFound);
      const edition = await patch({ offerId: product.id, name: 'Renamed', stock: null });
      expect([edition.status, edition.body]).toEqual(notFound);
    } finally {
      await em().nativeUpdate(VenueProvider, link, { isActive: true });
    }
    expect((await list({ venueId: bookshop() })).status).toBe(200);
    expect((await getOne(product.id)).body).toEqual(product);
  });

  it('answers long names and descriptions whole, and an empty page past the last product or at a venue without products', async () => {
    const name =
      'Bebe, apprends-moi a devenir ton parent : naissance, sommeil, attachement, pleurs, developpement'.slice(0, 90);
    const product = await created({ name, description: 'd'.repeat(1001), idAtProvider: 'long-texts' });
    const found = await list({ idsAtProvider: 'long-texts' });
    expect(found.status).toBe(200);
    expect(found.body.products).toEqual([
      expect.objectContaining({ id: product.id, name, description: 'd'.repeat(1001) }),
    ]);
    const longer = await patch({ offerId: product.id, name: `${name} (2nd edition, revised)` });
    expect(longer.status).toBe(200);
    expect((await list({ idsAtProvider: 'long-texts' })).body.products[0].name).toBe(`${name} (2nd edition, revised)`);
    expect((await list({ firstIndex: 2147483647 })).body).toEqual({ products: [] });
    const empty = await list({ venueId: online(), idsAtProvider: 'long-texts' });
    expect([empty.status, empty.body]).toEqual([200, { products: [] }]);
  });

  it('reads a product with its live stock and image, in any category, and answers a paper book by EAN with its author and EAN', async () => {
    const product = await created({
      stock: { price: 1234, quantity: 10, bookingLimitDatetime: '2026-12-24T18:00:00Z' },
    });
    await patch({ offerId: product.id, stock: null });
    const image = { file: aPng(400, 600).toString('base64'), credit: 'Ph. Oto' };
    await patch({
      offerId: product.id,
      image,
      stock: { price: 1234, quantity: 10, bookingLimitDatetime: '2026-12-24T18:00:00Z' },
    });
    const [, live] = await em().find(Stock, { offer: product.id }, { orderBy: { id: 'asc' } });
    await em().nativeUpdate(Stock, live.id, { bookedQuantity: 1, quantity: 11 });
    const read = await getOne(product.id);
    expect(read.status).toBe(200);
    expect(read.body.stock).toEqual({
      price: 1234,
      quantity: 11,
      bookedQuantity: 1,
      bookingLimitDatetime: '2026-12-24T18:00:00.000Z',
    });
    expect(read.body.image).toEqual({ url: expect.any(String), credit: 'Ph. Oto' });

    // A paper book comes from the catalogue by EAN; it is read with its author and EAN.
    const fork = em();
    const book = fork.create(Offer, {
      name: 'A paper book',
      venue: bookshop(),
      provider: world.sandbox.provider.id,
      category: 'LIVRE_PAPIER',
      isEvent: false,
      audioDisabilityCompliant: false,
      mentalDisabilityCompliant: false,
      motorDisabilityCompliant: false,
      visualDisabilityCompliant: false,
      categoryRelatedFields: { author: 'M. Merleau-Ponty', ean: '9782070286256' },
      ean: '9782070286256',
      enableDoubleBookings: false,
      hasTicket: false,
      locationType: 'physical',
      validation: 'APPROVED',
      createdAt: world.testApp.clock.now(),
      updatedAt: world.testApp.clock.now(),
    });
    await fork.flush();
    fork.create(Stock, {
      offer: book.id,
      price: 40012,
      createdAt: world.testApp.clock.now(),
      updatedAt: world.testApp.clock.now(),
    });
    await fork.flush();
    const paper = await getOne(book.id);
    expect(paper.status).toBe(200);
    expect(paper.body.categoryRelatedFields).toEqual({
      category: 'LIVRE_PAPIER',
      author: 'M. Merleau-Ponty',
      ean: '9782070286256',
    });
    expect(paper.body.stock.price).toBe(40012);
  });
});

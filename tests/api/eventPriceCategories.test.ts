import { describe, expect, it } from 'vitest';
import { PriceCategory } from '../../graphql/offers/PriceCategory.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { anEvent } from '../support/fixtures.js';
import { NOT_ALLOWED_INDIVIDUAL_OFFERS, useOfferWorld, withoutIndividualOffersRight } from '../support/offerWorld.js';

describe('Event Offer Price Categories', () => {
  const world = useOfferWorld();

  const list = (eventId: number, query: Record<string, string | number> = {}, key?: string | null) =>
    world.api.call('GetEventPriceCategories', { params: { event_id: eventId }, query, key });
  const create = (eventId: number | string, body: unknown, key?: string | null) =>
    world.api.call('PostEventPriceCategories', { params: { event_id: eventId }, body, key });
  const patch = (eventId: number, priceCategoryId: number | string, body: unknown, key?: string | null) =>
    world.api.call('PatchEventPriceCategory', {
      params: { event_id: eventId, price_category_id: priceCategoryId },
      body,
      key,
    });

  const em = () => world.em();
  const newEvent = (overrides = {}) =>
    anEvent(
      em(),
      world.testApp.clock,
      { providerId: world.sandbox.provider.id, venueId: world.sandbox.venues[0].id },
      overrides,
    );
  const storedCategories = (eventId: number) =>
    em().find(PriceCategory, { offer: eventId }, { orderBy: { id: 'asc' } });
  const categories = (count: number, prefix = 'cat') =>
    Array.from({ length: count }, (_, index) => ({
      label: `${prefix} ${index}`,
      price: 100 * index,
      idAtProvider: `${prefix}-${index}`,
    }));

  describe('POST', () => {
    it('creates the categories in the order given and answers them (200)', async () => {
      const event = await newEvent();
      const response = await create(event.id, {
        priceCategories: [
          { label: 'Orchestra', price: 2500, idAtProvider: 'orchestra' },
          { label: 'Balcony', price: 0 },
          { label: 'x'.repeat(50), price: 30000, idAtProvider: 'i'.repeat(70) },
        ],
      });
      expect(response.status).toBe(200);
      const stored = await storedCategories(event.id);
      expect(response.body).toEqual({
        priceCategories: [
          { id: stored[0].id, label: 'Orchestra', price: 2500, idAtProvider: 'orchestra' },
          { id: stored[1].id, label: 'Balcony', price: 0, idAtProvider: null },
          { id: stored[2].id, label: 'x'.repeat(50), price: 30000, idAtProvider: 'i'.repeat(70) },
        ],
      });
      expect(stored.map((category) => [category.label, category.price, category.idAtProvider])).toEqual([
        ['Orchestra', 2500, 'orchestra'],
        ['Balcony', 0, null],
        ['x'.repeat(50), 30000, 'i'.repeat(70)],
      ]);
    });

    it('refuses fields out of bounds with 422 at their loc, and writes nothing', async () => {
      const event = await newEvent();
      for (const [category, field, type] of [
        [{ label: '', price: 10 }, 'label', 'string_too_short'],
        [{ label: 'x'.repeat(51), price: 10 }, 'label', 'string_too_long'],
        [{ price: 10 }, 'label', 'missing'],
        [{ label: 'A', price: -1 }, 'price', 'greater_than_equal'],
        [{ label: 'A', price: 30001 }, 'price', 'less_than_equal'],
        [{ label: 'A', price: 12.5 }, 'price', 'int_type'],
        [{ label: 'A', price: '1000' }, 'price', 'int_parsing'],
        [{ label: 'A', price: 10, idAtProvider: 'i'.repeat(71) }, 'idAtProvider', 'string_too_long'],
        [{ label: 'A\u0000B', price: 10 }, 'label', 'string_pattern_mismatch'],
      ] as const) {
        const response = await create(event.id, { priceCategories: [{ label: 'Fine', price: 1 }, category] });
        expect(response.status, JSON.stringify(category)).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc: ['priceCategories', '1', field], type })]);
      }
      expect(await storedCategories(event.id)).toEqual([]);
    });

    it('is strict: an unknown field is 422 extra_forbidden', async () => {
      const event = await newEvent();
      const response = await create(event.id, { priceCategories: [{ label: 'A', price: 1 }], currency: 'EUR' });
      expect(response.status).toBe(422);
      expect(response.body).toEqual([
        { loc: ['currency'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
      ]);
      expect(await storedCategories(event.id)).toEqual([]);
    });

    it('takes at most 50 per request (422)', async () => {
      const event = await newEvent();
      const tooMany = await create(event.id, { priceCategories: categories(51) });
      expect(tooMany.status).toBe(422);
      expect(tooMany.body).toEqual([
        expect.objectContaining({ loc: ['priceCategories'], type: 'too_long', ctx: { limit_value: 50 } }),
      ]);
      expect(await storedCategories(event.id)).toEqual([]);
      const fifty = await create(event.id, { priceCategories: categories(50) });
      expect(fifty.status).toBe(200);
      expect(fifty.body.priceCategories).toHaveLength(50);
    });

    it('keeps at most 50 per event in total (400), all or none', async () => {
      const event = await newEvent();
      expect((await create(event.id, { priceCategories: categories(45, 'first') })).status).toBe(200);
      const over = await create(event.id, { priceCategories: categories(6, 'second') });
      expect(over.status).toBe(400);
      expect(over.body.priceCategories[0]).toMatch(/at most 50 price categories/);
      expect(await storedCategories(event.id)).toHaveLength(45);
      expect((await create(event.id, { priceCategories: categories(5, 'second') })).status).toBe(200);
      expect(await storedCategories(event.id)).toHaveLength(50);
    });

    it('refuses an idAtProvider given twice or already used in the event (400), and writes nothing', async () => {
      const event = await newEvent();
      const twice = await create(event.id, {
        priceCategories: [
          { label: 'A', price: 1, idAtProvider: 'same' },
          { label: 'B', price: 2, idAtProvider: 'same' },
        ],
      });
      expect(twice.status).toBe(400);
      expect(twice.body).toEqual({ 'priceCategories.1.idAtProvider': ['The idAtProvider "same" is given twice'] });
      expect(await storedCategories(event.id)).toEqual([]);

      expect(
        (await create(event.id, { priceCategories: [{ label: 'A', price: 1, idAtProvider: 'taken' }] })).status,
      ).toBe(200);
      const again = await create(event.id, {
        priceCategories: [
          { label: 'B', price: 2, idAtProvider: 'new' },
          { label: 'C', price: 3, idAtProvider: 'taken' },
        ],
      });
      expect(again.status).toBe(400);
      expect(Object.keys(again.body)).toEqual(['priceCategories.1.idAtProvider']);
      expect((await storedCategories(event.id)).map((category) => category.idAtProvider)).toEqual(['taken']);

      const elsewhere = await newEvent();
      expect(
        (await create(elsewhere.id, { priceCategories: [{ label: 'A', price: 1, idAtProvider: 'taken' }] })).status,
      ).toBe(200);
    });

    it('refuses the same label and price twice, in the call or already on the event (400), and writes nothing', async () => {
      const event = await newEvent();
      const twice = await create(event.id, {
        priceCategories: [
          { label: 'Balcony', price: 1500 },
          { label: 'Stalls', price: 2500 },
          { label: 'Balcony', price: 1500, idAtProvider: 'balcony-2' },
        ],
      });
      expect(twice.status).toBe(400);
      expect(twice.body).toEqual({
        priceCategories: ['The price category "Balcony" at 1500 cents is given twice'],
      });
      expect(await storedCategories(event.id)).toEqual([]);

      const first = await create(event.id, {
        priceCategories: [
          { label: 'Balcony', price: 1500 },
          { label: 'Balcony', price: 1000 },
          { label: 'balcony', price: 1500 },
        ],
      });
      expect(first.status).toBe(200);
      const again = await create(event.id, {
        priceCategories: [
          { label: 'Stalls', price: 2500 },
          { label: 'Balcony', price: 1000, idAtProvider: 'balcony-reduced' },
        ],
      });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({
        priceCategories: ['The event already has the price category "Balcony" at 1000 cents'],
      });
      expect((await storedCategories(event.id)).map((category) => [category.label, category.price])).toEqual([
        ['Balcony', 1500],
        ['Balcony', 1000],
        ['balcony', 1500],
      ]);
      const elsewhere = await newEvent();
      expect((await create(elsewhere.id, { priceCategories: [{ label: 'Balcony', price: 1500 }] })).status).toBe(200);
    });
  });

  describe('PATCH', () => {
    it('changes only the fields sent; null clears idAtProvider', async () => {
      const event = await newEvent();
      const [created] = (
        await create(event.id, { priceCategories: [{ label: 'Orchestra', price: 2500, idAtProvider: 'orch' }] })
      ).body.priceCategories;
      const renamed = await patch(event.id, created.id, { label: 'Stalls' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ id: created.id, label: 'Stalls', price: 2500, idAtProvider: 'orch' });
      const cleared = await patch(event.id, created.id, { idAtProvider: null });
      expect(cleared.body).toEqual({ id: created.id, label: 'Stalls', price: 2500, idAtProvider: null });
      expect((await patch(event.id, created.id, {})).body).toEqual(cleared.body);
      const stored = await em().findOneOrFail(PriceCategory, created.id);
      expect([stored.label, stored.price, stored.idAtProvider]).toEqual(['Stalls', 2500, null]);
    });

    it("gives a new price to the category's dates that are not deleted and have not begun", async () => {
      const event = await newEvent();
      const [category, otherCategory] = (
        await create(event.id, {
          priceCategories: [
            { label: 'A', price: 1000 },
            { label: 'B', price: 500 },
          ],
        })
      ).body.priceCategories;
      const fork = em();
      const aDate = (priceCategory: number, isDeleted: boolean, hours: number) =>
        fork.create(Stock, {
          offer: event.id,
          priceCategory,
          beginningDatetime: new Date(world.testApp.clock.now().getTime() + hours * 3_600_000),
          bookingLimitDatetime: new Date(world.testApp.clock.now().getTime() + hours * 3_600_000),
          price: priceCategory === category.id ? 1000 : 500,
          isDeleted,
          createdAt: world.testApp.clock.now(),
          updatedAt: world.testApp.clock.now(),
        });
      const [live, deleted, untouched, past, beginningNow] = [
        aDate(category.id, false, 24),
        aDate(category.id, true, 48),
        aDate(otherCategory.id, false, 24),
        aDate(category.id, false, -24),
        aDate(category.id, false, 0),
      ];
      await fork.flush();

      const response = await patch(event.id, category.id, { price: 1500 });
      expect(response.status).toBe(200);
      expect(response.body.price).toBe(1500);
      const prices = async () =>
        Promise.all(
          [live, deleted, untouched, past, beginningNow].map(
            async (stock) => (await em().findOneOrFail(Stock, stock.id)).price,
          ),
        );
      expect(await prices()).toEqual([1500, 1000, 500, 1000, 1000]);
    });

    it('refuses null for label or price, bounds and unknown fields (422), and changes nothing', async () => {
      const event = await newEvent();
      const [created] = (await create(event.id, { priceCategories: [{ label: 'A', price: 100 }] })).body
        .priceCategories;
      for (const [body, loc, type] of [
        [{ label: null }, 'label', 'string_type'],
        [{ price: null }, 'price', 'int_type'],
        [{ label: '' }, 'label', 'string_too_short'],
        [{ label: 'x'.repeat(51) }, 'label', 'string_too_long'],
        [{ price: 30001 }, 'price', 'less_than_equal'],
        [{ idAtProvider: 'i'.repeat(71) }, 'idAtProvider', 'string_too_long'],
        [{ category: 'x' }, 'category', 'extra_forbidden'],
      ] as const) {
        const response = await patch(event.id, created.id, body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc: [loc], type })]);
      }
      const stored = await em().findOneOrFail(PriceCategory, created.id);
      expect([stored.label, stored.price]).toEqual(['A', 100]);
    });

    it('refuses an idAtProvider of another category of the event (400); its own is fine', async () => {
      const event = await newEvent();
      const [first, second] = (
        await create(event.id, {
          priceCategories: [
            { label: 'A', price: 1, idAtProvider: 'a' },
            { label: 'B', price: 2, idAtProvider: 'b' },
          ],
        })
      ).body.priceCategories;
      const taken = await patch(event.id, second.id, { idAtProvider: 'a', label: 'Renamed' });
      expect(taken.status).toBe(400);
      expect(Object.keys(taken.body)).toEqual(['idAtProvider']);
      expect((await em().findOneOrFail(PriceCategory, second.id)).label).toBe('B');
      expect((await patch(event.id, first.id, { idAtProvider: 'a' })).status).toBe(200);
    });

    it('refuses (400) to change a category of a PENDING or REJECTED event, and changes nothing', async () => {
      for (const validation of ['PENDING', 'REJECTED'] as const) {
        const event = await newEvent({ validation });
        const [category] = (await create(event.id, { priceCategories: [{ label: 'Seat', price: 1000 }] })).body
          .priceCategories;
        const response = await patch(event.id, category.id, { price: 500, label: 'Cheaper' });
        expect([response.status, response.body]).toEqual([
          400,
          { global: [`The offer is ${validation}: it cannot be changed`] },
        ]);
        expect((await storedCategories(event.id)).map((row) => [row.label, row.price])).toEqual([['Seat', 1000]]);
      }
    });

    it("answers 404 for a category of another event, an unknown one, or another provider's event", async () => {
      const event = await newEvent();
      const elsewhere = await newEvent();
      const [foreign] = (await create(elsewhere.id, { priceCategories: [{ label: 'A', price: 1 }] })).body
        .priceCategories;
      const [own] = (await create(event.id, { priceCategories: [{ label: 'A', price: 1 }] })).body.priceCategories;
      const ofAnotherEvent = await patch(event.id, foreign.id, { label: 'Hijacked' });
      expect(ofAnotherEvent.status).toBe(404);
      expect(ofAnotherEvent.body).toEqual({ global: ['Price category not found'] });
      expect((await patch(event.id, 999999, { label: 'X' })).status).toBe(404);
      const byAnotherProvider = await patch(event.id, own.id, { label: 'Hijacked' }, world.other.apiKey);
      expect(byAnotherProvider.status).toBe(404);
      expect(byAnotherProvider.body).toEqual({ global: ['Event offer not found'] });
      expect((await em().findOneOrFail(PriceCategory, foreign.id)).label).toBe('A');
      expect((await em().findOneOrFail(PriceCategory, own.id)).label).toBe('A');
    });
  });

  describe('GET', () => {
    it('pages by firstIndex and limit, and filters by idsAtProvider', async () => {
      const event = await newEvent();
      const created = (await create(event.id, { priceCategories: categories(5) })).body.priceCategories;
      const ids = created.map((category: { id: number }) => category.id);

      const all = await list(event.id);
      expect(all.status).toBe(200);
      expect(all.body).toEqual({ priceCategories: created });

      const firstPage = await list(event.id, { limit: 2 });
      expect(firstPage.body.priceCategories.map((category: { id: number }) => category.id)).toEqual(ids.slice(0, 2));
      const nextPage = await list(event.id, { limit: 2, firstIndex: ids[1] + 1 });
      expect(nextPage.body.priceCategories.map((category: { id: number }) => category.id)).toEqual(ids.slice(2, 4));

      const filtered = await list(event.id, { idsAtProvider: 'cat-1,cat-3,unknown' });
      expect(filtered.body.priceCategories.map((category: { id: number }) => category.id)).toEqual([ids[1], ids[3]]);
      expect((await list(event.id, { firstIndex: ids[4] + 1 })).body).toEqual({ priceCategories: [] });
      expect((await list(event.id, { firstIndex: 99999999999 })).body).toEqual({ priceCategories: [] });
    });

    it('refuses a limit of 0 or 51, a firstIndex of 0 and a NUL in idsAtProvider (422)', async () => {
      const event = await newEvent();
      for (const [query, loc, type] of [
        [{ limit: 0 }, 'limit', 'greater_than'],
        [{ limit: 51 }, 'limit', 'less_than_equal'],
        [{ firstIndex: 0 }, 'firstIndex', 'greater_than_equal'],
        [{ limit: 'many' }, 'limit', 'int_parsing'],
        [{ idsAtProvider: 'a\u0000b' }, 'idsAtProvider', 'string_pattern_mismatch'],
      ] as const) {
        const response = await list(event.id, query);
        expect(response.status, JSON.stringify(query)).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc: [loc], type })]);
      }
    });

    it("answers 404 for another provider's event, a product offer, or an unknown one", async () => {
      const event = await newEvent();
      expect((await list(event.id, {}, world.other.apiKey)).status).toBe(404);
      const product = await newEvent({ isEvent: false, category: 'LIVRE_PAPIER' });
      expect((await list(product.id)).body).toEqual({ global: ['Event offer not found'] });
      const toProduct = await create(product.id, { priceCategories: [{ label: 'A', price: 1 }] });
      expect([toProduct.status, toProduct.body]).toEqual([404, { global: ['Event offer not found'] }]);
      expect(await storedCategories(product.id)).toEqual([]);
      expect((await list(999999)).status).toBe(404);
      expect((await create(999999, { priceCategories: [{ label: 'A', price: 1 }] })).status).toBe(404);
    });
  });

  it('answers 401 without a key on each operation, and writes nothing', async () => {
    const event = await newEvent();
    const [category] = (await create(event.id, { priceCategories: [{ label: 'Seat', price: 1000 }] })).body
      .priceCategories;
    const anonymous = [
      await list(event.id, {}, null),
      await create(event.id, { priceCategories: [{ label: 'Other', price: 1 }] }, null),
      await patch(event.id, category.id, { price: 1 }, null),
    ];
    for (const response of anonymous) {
      expect([response.status, response.body]).toEqual([401, { auth: 'API key required' }]);
    }
    expect((await storedCategories(event.id)).map((row) => [row.label, row.price])).toEqual([['Seat', 1000]]);
  });

  it("answers 404 on each operation once the provider's link to the event's venue is deactivated, and writes nothing", async () => {
    const event = await newEvent();
    const [category] = (await create(event.id, { priceCategories: [{ label: 'Seat', price: 1000 }] })).body
      .priceCategories;
    const link = { venue: world.sandbox.venues[0].id, provider: world.sandbox.provider.id };
    await em().nativeUpdate(VenueProvider, link, { isActive: false });
    try {
      const refused = [
        await list(event.id),
        await create(event.id, { priceCategories: [{ label: 'Other', price: 1 }] }),
        await patch(event.id, category.id, { label: 'Changed', price: 1 }),
      ];
      for (const response of refused) {
        expect([response.status, response.body]).toEqual([404, { global: ['Event offer not found'] }]);
      }
    } finally {
      await em().nativeUpdate(VenueProvider, link, { isActive: true });
    }
    expect((await storedCategories(event.id)).map((row) => [row.label, row.price])).toEqual([['Seat', 1000]]);
    // Linked again, the provider reaches the event's categories again.
    expect((await list(event.id)).body).toEqual({ priceCategories: [category] });
  });

  it('answers 403 to a provider that may no longer manage individual offers, and writes nothing', async () => {
    const event = await newEvent();
    await withoutIndividualOffersRight(world.testApp, world.sandbox.provider.id, async () => {
      const refused = await create(event.id, { priceCategories: [{ label: 'A', price: 1 }] });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(NOT_ALLOWED_INDIVIDUAL_OFFERS);
      expect((await list(event.id)).status).toBe(403);
      expect(await storedCategories(event.id)).toEqual([]);
    });
    expect((await create(event.id, { priceCategories: [{ label: 'A', price: 1 }] })).status).toBe(200);
  });
});

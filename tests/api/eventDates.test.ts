import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Offer } from '../../graphql/offers/Offer.js';
import { PriceCategory } from '../../graphql/offers/PriceCategory.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { anEvent } from '../support/fixtures.js';
import {
  anotherSandboxKey,
  aProductBody,
  NOT_ALLOWED_INDIVIDUAL_OFFERS,
  standInHandlers,
  useOfferWorld,
  withoutIndividualOffersRight,
} from '../support/offerWorld.js';

const HOUR = 3_600_000;

interface SentDate {
  beginningDatetime: string;
  bookingLimitDatetime: string;
  priceCategoryId: number;
  quantity: number | string;
  idAtProvider?: string | null;
}

describe('Event Offer Stocks (dates)', () => {
  const world = useOfferWorld();
  let handlers: ReturnType<typeof standInHandlers>;

  const list = (eventId: number, query: Record<string, string | number> = {}, key?: string | null) =>
    world.api.call('GetEventStocks', { params: { event_id: eventId }, query, key });
  const create = (eventId: number, dates: unknown, key?: string | null, extra: object = {}) =>
    world.api.call('PostEventStocks', { params: { event_id: eventId }, body: { dates, ...extra }, key });
  const patch = (eventId: number, stockId: number, body: unknown, key?: string | null) =>
    world.api.call('PatchEventStock', { params: { event_id: eventId, stock_id: stockId }, body, key });
  const remove = (eventId: number, stockId: number, key?: string | null) =>
    world.api.call('DeleteEventStock', { params: { event_id: eventId, stock_id: stockId }, key });

  const em = () => world.em();
  const now = () => world.testApp.clock.now().getTime();
  const inHours = (hours: number) => new Date(now() + hours * HOUR).toISOString();
  const storedDate = (id: number) => em().findOneOrFail(Stock, id);
  const storedDates = (eventId: number) => em().find(Stock, { offer: eventId }, { orderBy: { id: 'asc' } });
  const published = async (type: string, stockId: number) =>
    (await handlers.payloads(type)).filter((payload) => payload.stockId === stockId);

  /** An approved, published event of the sandbox with one price category (or more). */
  async function anEventWithCategories(prices: number[] = [2500], overrides = {}) {
    const fork = em();
    const event = await anEvent(
      fork,
      world.testApp.clock,
      { providerId: world.sandbox.provider.id, venueId: world.sandbox.venues[0].id },
      overrides,
    );
    const categories = prices.map((price, index) =>
      fork.create(PriceCategory, {
        offer: event,
        label: `Category ${index}`,
        price,
        createdAt: world.testApp.clock.now(),
      }),
    );
    await fork.flush();
    return { event, categories };
  }
  const aDate = (priceCategoryId: number, hours: number, overrides: Partial<SentDate> = {}): SentDate => ({
    beginningDatetime: inHours(hours),
    bookingLimitDatetime: inHours(hours - 1),
    priceCategoryId,
    quantity: 100,
    ...overrides,
  });
  const manyDates = (count: number, priceCategoryId: number) =>
    Array.from({ length: count }, (_, index) => aDate(priceCategoryId, 24 + index / 60, { quantity: 10 }));

  beforeAll(() => {
    handlers = standInHandlers(world.testApp, {
      'offers.dateRescheduled': 'test.dateRescheduled',
      'offers.stockDeleted': 'test.stockDeleted',
    });
  });

  describe('POST', () => {
    it('creates the dates in the order given, in UTC, at the price of their category (200)', async () => {
      const { event, categories } = await anEventWithCategories([2500, 1000]);
      const response = await create(event.id, [
        {
          beginningDatetime: '2026-12-01T20:00:00+01:00',
          bookingLimitDatetime: '2026-12-01T18:30:00+01:00',
          priceCategoryId: categories[1].id,
          quantity: 120,
          idAtProvider: 'show-1-balcony',
        },
        {
          beginningDatetime: '2026-12-01T19:00:00Z',
          bookingLimitDatetime: '2026-12-01T19:00:00Z',
          priceCategoryId: categories[0].id,
          quantity: 'unlimited',
        },
      ]);
      expect(response.status).toBe(200);
      const stored = await storedDates(event.id);
      expect(response.body).toEqual({
        dates: [
          {
            id: stored[0].id,
            beginningDatetime: '2026-12-01T19:00:00.000Z',
            bookingLimitDatetime: '2026-12-01T17:30:00.000Z',
            bookedQuantity: 0,
            quantity: 120,
            idAtProvider: 'show-1-balcony',
            priceCategory: { id: categories[1].id, label: 'Category 1', price: 1000, idAtProvider: null },
          },
          {
            id: stored[1].id,
            beginningDatetime: '2026-12-01T19:00:00.000Z',
            bookingLimitDatetime: '2026-12-01T19:00:00.000Z',
            bookedQuantity: 0,
            quantity: 'unlimited',
            idAtProvider: null,
            priceCategory: { id: categories[0].id, label: 'Category 0', price: 2500, idAtProvider: null },
          },
        ],
      });
      expect(
        stored.map((stock) => [
          stock.beginningDatetime?.toISOString(),
          stock.price,
          stock.quantity,
          stock.bookedQuantity,
          stock.isDeleted,
        ]),
      ).toEqual([
        ['2026-12-01T19:00:00.000Z', 1000, 120, 0, false],
        ['2026-12-01T19:00:00.000Z', 2500, null, 0, false],
      ]);
    });

    it('refuses naive or invalid datetimes, a beginning not in the future, bad quantities and ids (422), and writes nothing', async () => {
      const { event, categories } = await anEventWithCategories();
      const id = categories[0].id;
      for (const [date, field, type] of [
        [aDate(id, 24, { beginningDatetime: '2026-12-01T20:00:00' }), 'beginningDatetime', 'timezone_aware'],
        [aDate(id, 24, { bookingLimitDatetime: '2026-12-01' }), 'bookingLimitDatetime', 'timezone_aware'],
        [aDate(id, 24, { bookingLimitDatetime: '2026-12-01T18:00:00' }), 'bookingLimitDatetime', 'timezone_aware'],
        [aDate(id, 24, { beginningDatetime: '2026-02-30T20:00:00Z' }), 'beginningDatetime', 'datetime_parsing'],
        [aDate(id, 24, { beginningDatetime: 'tomorrow' }), 'beginningDatetime', 'datetime_parsing'],
        [aDate(id, -1, { bookingLimitDatetime: inHours(2) }), 'beginningDatetime', 'datetime_future'],
        [aDate(id, 0, { bookingLimitDatetime: inHours(1) }), 'beginningDatetime', 'datetime_future'],
        [aDate(id, 24, { bookingLimitDatetime: inHours(-24) }), 'bookingLimitDatetime', 'datetime_future'],
        [aDate(id, 24, { bookingLimitDatetime: inHours(0) }), 'bookingLimitDatetime', 'datetime_future'],
        [aDate(id, 24, { quantity: 0 }), 'quantity', 'greater_than_equal'],
        [aDate(id, 24, { quantity: -1 }), 'quantity', 'greater_than_equal'],
        [aDate(id, 24, { quantity: 'lots' }), 'quantity', 'union_tag_invalid'],
        [aDate(id, 24, { quantity: 2.5 }), 'quantity', 'union_tag_invalid'],
        [aDate(id, 24, { priceCategoryId: 0 }), 'priceCategoryId', 'greater_than'],
        [aDate(id, 24, { idAtProvider: 'i'.repeat(71) }), 'idAtProvider', 'string_too_long'],
        [{ ...aDate(id, 24), beginningDatetime: undefined }, 'beginningDatetime', 'missing'],
      ] as const) {
        const response = await create(event.id, [aDate(id, 48), date]);
        expect(response.status, JSON.stringify(date)).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc: ['dates', '1', field], type })]);
      }
      expect(await storedDates(event.id)).toEqual([]);
      expect((await create(event.id, [aDate(id, 0.01, { bookingLimitDatetime: inHours(0.01) })])).status).toBe(200);
    });

    it('is strict at the top: an unknown field is 422 extra_forbidden', async () => {
      const { event, categories } = await anEventWithCategories();
      const response = await create(event.id, [aDate(categories[0].id, 24)], undefined, { timezone: 'Europe/Paris' });
      expect(response.status).toBe(422);
      expect(response.body).toEqual([
        { loc: ['timezone'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
      ]);
      expect(await storedDates(event.id)).toEqual([]);
    });

    it('refuses a past booking limit with 422 at its date, both datetimes of a date at once, and writes nothing', async () => {
      const { event, categories } = await anEventWithCategories();
      const id = categories[0].id;
      const response = await create(event.id, [
        aDate(id, 48),
        aDate(id, 24, { bookingLimitDatetime: inHours(-1) }),
        aDate(id, -2, { bookingLimitDatetime: inHours(-3) }),
      ]);
      expect(response.status).toBe(422);
      expect(response.body).toEqual([
        {
          loc: ['dates', '1', 'bookingLimitDatetime'],
          msg: 'The datetime must be in the future',
          type: 'datetime_future',
        },
        {
          loc: ['dates', '2', 'beginningDatetime'],
          msg: 'The datetime must be in the future',
          type: 'datetime_future',
        },
        {
          loc: ['dates', '2', 'bookingLimitDatetime'],
          msg: 'The datetime must be in the future',
          type: 'datetime_future',
        },
      ]);
      expect(await storedDates(event.id)).toEqual([]);
    });

    it('refuses a price category the event does not have with 400 at its date, with the other refusals, and writes nothing', async () => {
      const { event, categories } = await anEventWithCategories();
      const { categories: foreign } = await anEventWithCategories();
      const response = await create(event.id, [
        aDate(categories[0].id, 24),
        aDate(foreign[0].id, 24),
        aDate(999999, 25, { bookingLimitDatetime: inHours(26) }),
      ]);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        'dates.1.priceCategoryId': ['The event has no price category with this id'],
        'dates.2.priceCategoryId': ['The event has no price category with this id'],
        'dates.2.bookingLimitDatetime': ['The booking limit must not be after the beginning of the date'],
      });
      expect(await storedDates(event.id)).toEqual([]);
      expect((await create(event.id, [aDate(categories[0].id, 24), aDate(categories[0].id, 25)])).status).toBe(200);
    });

    it('refuses a booking limit before the opening of bookings, with the publication rule (400 at the date)', async () => {
      const bookingAllowed = new Date(now() + 12 * HOUR);
      const { event, categories } = await anEventWithCategories([1000], {
        publicationDatetime: new Date(now() + 6 * HOUR),
        publishedAt: null,
        bookingAllowedDatetime: bookingAllowed,
      });
      const id = categories[0].id;
      const response = await create(event.id, [
        aDate(id, 48),
        aDate(id, 24, { bookingLimitDatetime: inHours(8) }),
        aDate(id, 24.5, { bookingLimitDatetime: inHours(5) }),
      ]);
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['dates.1.bookingLimitDatetime', 'dates.2.bookingLimitDatetime']);
      expect(response.body['dates.1.bookingLimitDatetime']).toEqual([
        `The booking limit must not be before bookings open (bookingAllowedDatetime, ${bookingAllowed.toISOString()}): nobody could book in between`,
      ]);
      expect(response.body['dates.2.bookingLimitDatetime']).toHaveLength(2);
      expect(response.body['dates.2.bookingLimitDatetime'][0]).toMatch(/before the publication of the offer/);
      expect(response.body['dates.2.bookingLimitDatetime'][1]).toMatch(/before bookings open/);
      expect(await storedDates(event.id)).toEqual([]);
      expect(
        (await create(event.id, [aDate(id, 24, { bookingLimitDatetime: bookingAllowed.toISOString() })])).status,
      ).toBe(200);
    });

    it('refuses a booking limit after the beginning, or before the publication (400)', async () => {
      const publication = new Date(now() + 12 * HOUR);
      const { event, categories } = await anEventWithCategories([1000], {
        publicationDatetime: publication,
        publishedAt: null,
      });
      const id = categories[0].id;
      const afterBeginning = await create(event.id, [aDate(id, 24, { bookingLimitDatetime: inHours(25) })]);
      expect(afterBeginning.status).toBe(400);
      expect(afterBeginning.body).toEqual({
        'dates.0.bookingLimitDatetime': ['The booking limit must not be after the beginning of the date'],
      });
      const beforePublication = await create(event.id, [
        aDate(id, 48),
        aDate(id, 24, { bookingLimitDatetime: inHours(11) }),
      ]);
      expect(beforePublication.status).toBe(400);
      expect(Object.keys(beforePublication.body)).toEqual(['dates.1.bookingLimitDatetime']);
      expect(beforePublication.body['dates.1.bookingLimitDatetime'][0]).toMatch(/before the publication/);
      expect(await storedDates(event.id)).toEqual([]);
      expect(
        (await create(event.id, [aDate(id, 24, { bookingLimitDatetime: publication.toISOString() })])).status,
      ).toBe(200);
    });

    it('refuses the same beginning and price category twice, in the call or with a live date (400)', async () => {
      const { event, categories } = await anEventWithCategories([1000, 2000]);
      const [first, second] = categories.map((category) => category.id);
      const sameInstant = '2026-12-24T20:00:00+01:00';
      const twice = await create(event.id, [
        aDate(first, 24, { beginningDatetime: sameInstant, bookingLimitDatetime: sameInstant }),
        aDate(first, 24, { beginningDatetime: '2026-12-24T19:00:00Z', bookingLimitDatetime: sameInstant }),
      ]);
      expect(twice.status).toBe(400);
      expect(twice.body).toEqual({ 'dates.1': ['This beginning and price category are given twice'] });
      expect(await storedDates(event.id)).toEqual([]);

      const created = await create(event.id, [
        aDate(first, 24, { beginningDatetime: sameInstant, bookingLimitDatetime: sameInstant }),
        aDate(second, 24, { beginningDatetime: sameInstant, bookingLimitDatetime: sameInstant }),
      ]);
      expect(created.status).toBe(200);
      const again = await create(event.id, [
        aDate(first, 24, { beginningDatetime: '2026-12-24T19:00:00.000Z', bookingLimitDatetime: sameInstant }),
      ]);
      expect(again.status).toBe(400);
      expect(again.body).toEqual({
        'dates.0': ['The event already has a date at this beginning with this price category'],
      });

      expect((await remove(event.id, created.body.dates[0].id)).status).toBe(204);
      expect(
        (
          await create(event.id, [
            aDate(first, 24, { beginningDatetime: sameInstant, bookingLimitDatetime: sameInstant }),
          ])
        ).status,
      ).toBe(200);
      expect(await storedDates(event.id)).toHaveLength(3);
    });

    it('refuses an idAtProvider used twice or by a live date of the event (400); a deleted date frees it', async () => {
      const { event, categories } = await anEventWithCategories();
      const id = categories[0].id;
      const twice = await create(event.id, [
        aDate(id, 24, { idAtProvider: 'd-1' }),
        aDate(id, 25, { idAtProvider: 'd-1' }),
      ]);
      expect(twice.status).toBe(400);
      expect(twice.body).toEqual({ 'dates.1.idAtProvider': ['The idAtProvider "d-1" is given twice'] });
      const created = await create(event.id, [aDate(id, 24, { idAtProvider: 'd-1' })]);
      const taken = await create(event.id, [
        aDate(id, 30, { idAtProvider: 'd-2' }),
        aDate(id, 31, { idAtProvider: 'd-1' }),
      ]);
      expect(taken.status).toBe(400);
      expect(Object.keys(taken.body)).toEqual(['dates.1.idAtProvider']);
      expect(await storedDates(event.id)).toHaveLength(1);
      await remove(event.id, created.body.dates[0].id);
      expect((await create(event.id, [aDate(id, 31, { idAtProvider: 'd-1' })])).status).toBe(200);
    });

    it('accepts 2500 dates in one call, refuses 2501 (422), and keeps 2500 live dates per event (400)', async () => {
      const { event, categories } = await anEventWithCategories();
      const id = categories[0].id;
      const tooMany = await create(event.id, manyDates(2501, id));
      expect(tooMany.status).toBe(422);
      expect(tooMany.body).toEqual([
        expect.objectContaining({ loc: ['dates'], type: 'too_long', ctx: { limit_value: 2500 } }),
      ]);
      expect(await em().count(Stock, { offer: event.id })).toBe(0);

      const dates = manyDates(2500, id);
      const started = Date.now();
      const response = await create(event.id, dates);
      const elapsedMs = Date.now() - started;
      expect(response.status).toBe(200);
      expect(response.body.dates).toHaveLength(2500);
      expect(response.body.dates.map((date: { beginningDatetime: string }) => date.beginningDatetime)).toEqual(
        dates.map((date) => date.beginningDatetime),
      );
      const ids = response.body.dates.map((date: { id: number }) => date.id);
      expect(new Set(ids).size).toBe(2500);
      expect(await em().count(Stock, { offer: event.id, isDeleted: false, price: 2500, quantity: 10 })).toBe(2500);
      expect(elapsedMs, 'a 2500-date call stays well within a few seconds even on a loaded test machine').toBeLessThan(
        10_000,
      );

      const oneMore = await create(event.id, [aDate(id, 24 * 60)]);
      expect(oneMore.status).toBe(400);
      expect(oneMore.body.dates[0]).toMatch(/at most 2500 dates: this one has 2500/);
      await remove(event.id, ids[0]);
      expect((await create(event.id, [aDate(id, 24 * 60)])).status).toBe(200);
      expect(await em().count(Stock, { offer: event.id, isDeleted: false })).toBe(2500);
    }, 60_000);
  });

  describe('PATCH', () => {
    async function anEventWithADate(date: Partial<SentDate> = {}) {
      const { event, categories } = await anEventWithCategories([2500, 4000]);
      const response = await create(event.id, [
        aDate(categories[0].id, 48, { quantity: 10, idAtProvider: 'patched', ...date }),
      ]);
      return { event, categories, date: response.body.dates[0], stockId: response.body.dates[0].id as number };
    }

    it('answers the stored total beside bookedQuantity, as pass Culture: a quantity given adds the booked places', async () => {
      const { event, stockId } = await anEventWithADate();
      await em().nativeUpdate(Stock, stockId, { bookedQuantity: 3 });
      const listed = await list(event.id);
      expect(listed.body.dates[0]).toMatchObject({ id: stockId, bookedQuantity: 3, quantity: 10 });

      const response = await patch(event.id, stockId, { quantity: 10 });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ bookedQuantity: 3, quantity: 13 });
      expect((await storedDate(stockId)).quantity).toBe(13);
      expect((await list(event.id)).body.dates[0]).toMatchObject({ bookedQuantity: 3, quantity: 13 });

      expect((await patch(event.id, stockId, { quantity: 0 })).body.quantity).toBe(3);
      expect((await storedDate(stockId)).quantity).toBe(3);
      expect((await patch(event.id, stockId, { quantity: 'unlimited' })).body.quantity).toBe('unlimited');
      expect((await storedDate(stockId)).quantity).toBeNull();
      expect((await patch(event.id, stockId, { quantity: null })).body.quantity).toBe('unlimited');
      const again = await patch(event.id, stockId, { quantity: 'unlimited' });
      expect([again.status, again.body.quantity]).toEqual([200, 'unlimited']);
      expect((await storedDate(stockId)).quantity).toBeNull();
    });

    it('changes every field sent at once: beginning, booking limit, price category with its price, quantity and idAtProvider', async () => {
      const { event, categories, stockId } = await anEventWithADate();
      await em().nativeUpdate(Stock, stockId, { bookedQuantity: 1 });
      const beginning = inHours(24 * 24);
      const limit = inHours(24 * 7);
      const response = await patch(event.id, stockId, {
        // The same instant, written at +02:00.
        beginningDatetime: new Date(new Date(beginning).getTime() + 2 * HOUR).toISOString().replace('Z', '+02:00'),
        bookingLimitDatetime: limit,
        priceCategoryId: categories[1].id,
        quantity: 24,
        idAtProvider: 'hey you !',
      });
      expect(response.status).toBe(200);
      const stored = await storedDate(stockId);
      expect(response.body).toEqual({
        id: stockId,
        beginningDatetime: beginning,
        bookingLimitDatetime: limit,
        bookedQuantity: 1,
        quantity: 25,
        idAtProvider: 'hey you !',
        priceCategory: { id: categories[1].id, label: 'Category 1', price: 4000, idAtProvider: null },
      });
      expect([
        stored.beginningDatetime?.toISOString(),
        stored.bookingLimitDatetime?.toISOString(),
        stored.priceCategory?.id,
        stored.price,
        stored.quantity,
        stored.idAtProvider,
      ]).toEqual([beginning, limit, categories[1].id, 4000, 25, 'hey you !']);
    });

    it('changes only the fields sent; a new price category brings its price; null clears idAtProvider', async () => {
      const { event, categories, date, stockId } = await anEventWithADate();
      const newLimit = inHours(30);
      const response = await patch(event.id, stockId, {
        priceCategoryId: categories[1].id,
        bookingLimitDatetime: newLimit,
        idAtProvider: null,
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        ...date,
        bookingLimitDatetime: newLimit,
        idAtProvider: null,
        priceCategory: { id: categories[1].id, label: 'Category 1', price: 4000, idAtProvider: null },
      });
      const stored = await storedDate(stockId);
      expect([stored.price, stored.priceCategory?.id, stored.idAtProvider, stored.rescheduledAt]).toEqual([
        4000,
        categories[1].id,
        null,
        null,
      ]);
      expect(await published('test.dateRescheduled', stockId)).toEqual([]);
    });

    it('keeps the beginning and the booking limit sent as null (200): only non-blank fields change', async () => {
      const { event, date, stockId } = await anEventWithADate();
      const response = await patch(event.id, stockId, { beginningDatetime: null, bookingLimitDatetime: null });
      expect([response.status, response.body]).toEqual([200, date]);
      const stored = await storedDate(stockId);
      expect([
        stored.beginningDatetime?.toISOString(),
        stored.bookingLimitDatetime?.toISOString(),
        stored.rescheduledAt,
      ]).toEqual([date.beginningDatetime, date.bookingLimitDatetime, null]);
      expect(await published('test.dateRescheduled', stockId)).toEqual([]);
    });

    it('reschedules when a beginning is sent, even the same: rescheduledAt and offers.dateRescheduled in the transaction', async () => {
      const { event, date, stockId } = await anEventWithADate();
      world.testApp.clock.advance(60_000);
      try {
        const response = await patch(event.id, stockId, { beginningDatetime: date.beginningDatetime });
        expect(response.status).toBe(200);
        expect(response.body).toEqual(date);
        expect((await storedDate(stockId)).rescheduledAt?.toISOString()).toBe(world.testApp.clock.now().toISOString());
        expect(await published('test.dateRescheduled', stockId)).toEqual([
          {
            stockId,
            offerId: event.id,
            beginningDatetime: date.beginningDatetime,
            at: world.testApp.clock.now().toISOString(),
          },
        ]);

        const later = inHours(72);
        const moved = await patch(event.id, stockId, { beginningDatetime: later.replace('Z', '+00:00') });
        expect(moved.body.beginningDatetime).toBe(later);
        expect((await storedDate(stockId)).beginningDatetime?.toISOString()).toBe(later);
      } finally {
        world.testApp.clock.advance(-60_000);
      }
    });

    it('rolls everything back when a handler of the event refuses: no change, no row', async () => {
      const { event, date, stockId } = await anEventWithADate();
      const before = (await handlers.payloads('test.dateRescheduled')).length;
      const response = await handlers.refusing('test.dateRescheduled', () =>
        patch(event.id, stockId, { beginningDatetime: inHours(96), quantity: 1 }),
      );
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ global: ['test.dateRescheduled refused by a handler'] });
      const stored = await storedDate(stockId);
      expect([stored.beginningDatetime?.toISOString(), stored.quantity, stored.rescheduledAt]).toEqual([
        date.beginningDatetime,
        10,
        null,
      ]);
      expect(await handlers.payloads('test.dateRescheduled')).toHaveLength(before);
    });

    it('refuses a booking limit after the beginning, a taken beginning or idAtProvider (400), and changes nothing', async () => {
      const { event, categories, date, stockId } = await anEventWithADate();
      await create(event.id, [aDate(categories[0].id, 50, { idAtProvider: 'other' })]);
      const cases = [
        [{ bookingLimitDatetime: inHours(49) }, 'bookingLimitDatetime'],
        [{ beginningDatetime: inHours(40), bookingLimitDatetime: undefined }, 'bookingLimitDatetime'],
        [{ beginningDatetime: inHours(50) }, 'beginningDatetime'],
        [{ idAtProvider: 'other', quantity: 5 }, 'idAtProvider'],
      ] as const;
      for (const [body, field] of cases) {
        const response = await patch(event.id, stockId, body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(Object.keys(response.body)).toEqual([field]);
      }
      const stored = await storedDate(stockId);
      expect([
        stored.beginningDatetime?.toISOString(),
        stored.bookingLimitDatetime?.toISOString(),
        stored.idAtProvider,
        stored.quantity,
      ]).toEqual([date.beginningDatetime, date.bookingLimitDatetime, 'patched', 10]);
      expect((await patch(event.id, stockId, { idAtProvider: 'patched' })).status).toBe(200);
    });

    it('refuses bad fields (422): naive or past datetimes, a negative quantity, unknown fields', async () => {
      const { event, date, stockId } = await anEventWithADate();
      for (const [body, loc, type] of [
        [{ beginningDatetime: '2026-12-30T20:00:00' }, 'beginningDatetime', 'timezone_aware'],
        [{ bookingLimitDatetime: '2026-12-30T18:00:00' }, 'bookingLimitDatetime', 'timezone_aware'],
        [{ beginningDatetime: inHours(-1) }, 'beginningDatetime', 'datetime_future'],
        [{ bookingLimitDatetime: inHours(-1) }, 'bookingLimitDatetime', 'datetime_future'],
        [{ bookingLimitDatetime: inHours(0) }, 'bookingLimitDatetime', 'datetime_future'],
        [{ quantity: -1 }, 'quantity', 'greater_than_equal'],
        [{ quantity: 'all' }, 'quantity', 'union_tag_invalid'],
        [{ price: 100 }, 'price', 'extra_forbidden'],
      ] as const) {
        const response = await patch(event.id, stockId, body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc: [loc], type })]);
      }
      const stored = await storedDate(stockId);
      expect(stored.rescheduledAt).toBeNull();
      expect(stored.bookingLimitDatetime?.toISOString()).toBe(date.bookingLimitDatetime);
    });

    it('refuses a price category id that is no positive integer and an idAtProvider over 70 characters (422), and changes nothing', async () => {
      const { event, date, stockId } = await anEventWithADate();
      for (const [body, loc, type] of [
        [{ priceCategoryId: 'coucou' }, 'priceCategoryId', 'int_parsing'],
        [{ priceCategoryId: -1 }, 'priceCategoryId', 'greater_than'],
        [{ priceCategoryId: 0 }, 'priceCategoryId', 'greater_than'],
        [{ idAtProvider: 'a'.repeat(71) }, 'idAtProvider', 'string_too_long'],
      ] as const) {
        const response = await patch(event.id, stockId, body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc: [loc], type })]);
      }
      const stored = await storedDate(stockId);
      expect([stored.priceCategory?.id, stored.idAtProvider]).toEqual([date.priceCategory.id, 'patched']);
      expect((await patch(event.id, stockId, { idAtProvider: 'a'.repeat(70) })).status).toBe(200);
    });

    it("refuses a booking limit sent before the event's publication or opening of bookings (400), and changes nothing", async () => {
      const { event, date, stockId } = await anEventWithADate();
      const publication = new Date(now() + 6 * HOUR);
      const bookingAllowed = new Date(now() + 12 * HOUR);
      await em().nativeUpdate(Offer, event.id, {
        publicationDatetime: publication,
        publishedAt: null,
        bookingAllowedDatetime: bookingAllowed,
      });
      const beforeBoth = await patch(event.id, stockId, { bookingLimitDatetime: inHours(3) });
      expect(beforeBoth.status).toBe(400);
      expect(beforeBoth.body).toEqual({
        bookingLimitDatetime: [
          `The booking limit must not be before the publication of the offer (${publication.toISOString()}): nobody could book in between`,
          `The booking limit must not be before bookings open (bookingAllowedDatetime, ${bookingAllowed.toISOString()}): nobody could book in between`,
        ],
      });
      const beforeBookingsOpen = await patch(event.id, stockId, { bookingLimitDatetime: inHours(9) });
      expect(beforeBookingsOpen.status).toBe(400);
      expect(beforeBookingsOpen.body.bookingLimitDatetime).toEqual([expect.stringMatching(/before bookings open/)]);
      expect((await storedDate(stockId)).bookingLimitDatetime?.toISOString()).toBe(date.bookingLimitDatetime);
      const accepted = await patch(event.id, stockId, { bookingLimitDatetime: inHours(13) });
      expect(accepted.status).toBe(200);
      expect((await storedDate(stockId)).bookingLimitDatetime?.toISOString()).toBe(inHours(13));
    });

    it("answers 404 for a price category of another event, a date of another event, or another provider's event", async () => {
      const { event, stockId } = await anEventWithADate();
      const elsewhere = await anEventWithADate();
      const foreignCategory = await patch(event.id, stockId, { priceCategoryId: elsewhere.categories[0].id });
      expect(foreignCategory.status).toBe(404);
      expect(foreignCategory.body).toEqual({ global: ['Price category not found'] });
      const foreignDate = await patch(event.id, elsewhere.stockId, { quantity: 1 });
      expect(foreignDate.body).toEqual({ global: ['Date not found'] });
      const byAnotherProvider = await patch(event.id, stockId, { quantity: 1 }, world.other.apiKey);
      expect(byAnotherProvider.status).toBe(404);
      expect(byAnotherProvider.body).toEqual({ global: ['Event offer not found'] });
      expect((await storedDate(stockId)).quantity).toBe(10);
      expect((await storedDate(elsewhere.stockId)).quantity).toBe(10);
    });
  });

  describe('DELETE', () => {
    it('soft-deletes (204), publishes offers.stockDeleted in the transaction; the date is gone for good', async () => {
      const { event, categories } = await anEventWithCategories();
      const [kept, deleted] = (await create(event.id, [aDate(categories[0].id, 24), aDate(categories[0].id, 25)])).body
        .dates;
      const response = await remove(event.id, deleted.id);
      expect(response.status).toBe(204);
      expect((await storedDate(deleted.id)).isDeleted).toBe(true);
      expect((await storedDate(kept.id)).isDeleted).toBe(false);
      expect(await published('test.stockDeleted', deleted.id)).toEqual([
        { stockId: deleted.id, offerId: event.id, at: world.testApp.clock.now().toISOString() },
      ]);

      expect((await list(event.id)).body.dates.map((date: { id: number }) => date.id)).toEqual([kept.id]);
      const again = await remove(event.id, deleted.id);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ global: ['Date not found'] });
      expect((await patch(event.id, deleted.id, { quantity: 5 })).status).toBe(404);
      expect(await published('test.stockDeleted', deleted.id)).toHaveLength(1);
    });

    it('deletes nothing when a handler of the event refuses', async () => {
      const { event, categories } = await anEventWithCategories();
      const [date] = (await create(event.id, [aDate(categories[0].id, 24)])).body.dates;
      const refused = await handlers.refusing('test.stockDeleted', () => remove(event.id, date.id));
      expect(refused.status).toBe(403);
      expect((await storedDate(date.id)).isDeleted).toBe(false);
      expect(await published('test.stockDeleted', date.id)).toEqual([]);
    });

    it("answers 404 for another provider's event or a date of another event", async () => {
      const { event, categories } = await anEventWithCategories();
      const elsewhere = await anEventWithCategories();
      const [date] = (await create(event.id, [aDate(categories[0].id, 24)])).body.dates;
      expect((await remove(event.id, date.id, world.other.apiKey)).status).toBe(404);
      expect((await remove(elsewhere.event.id, date.id)).status).toBe(404);
      expect((await storedDate(date.id)).isDeleted).toBe(false);
    });
  });

  describe('an offer under review or rejected, and dates in the past', () => {
    it('refuses (400) to add, change or delete a date of a PENDING or REJECTED event, and changes nothing', async () => {
      for (const validation of ['PENDING', 'REJECTED'] as const) {
        const { event, categories } = await anEventWithCategories();
        const [date] = (await create(event.id, [aDate(categories[0].id, 24, { quantity: 10 })])).body.dates;
        await em().nativeUpdate(Offer, event.id, { validation });
        const refusal = { global: [`The offer is ${validation}: it cannot be changed`] };
        const added = await create(event.id, [aDate(categories[0].id, 30)]);
        expect([added.status, added.body]).toEqual([400, refusal]);
        const changed = await patch(event.id, date.id, { quantity: 3 });
        expect([changed.status, changed.body]).toEqual([400, refusal]);
        const deleted = await remove(event.id, date.id);
        expect([deleted.status, deleted.body]).toEqual([400, refusal]);
        const dates = await storedDates(event.id);
        expect(dates.map((row) => [row.id, row.quantity, row.isDeleted])).toEqual([[date.id, 10, false]]);
      }
    });

    it('refuses (400) to change a date that has begun, answers an edit of it that changes nothing (200); one still ahead changes', async () => {
      const { event, categories } = await anEventWithCategories([2500, 4000]);
      const [begun, ahead] = (
        await create(event.id, [
          aDate(categories[0].id, 2, { quantity: 10, idAtProvider: 'begun' }),
          aDate(categories[0].id, 30),
        ])
      ).body.dates;
      world.testApp.clock.advance(2 * HOUR);
      try {
        const refusal = [400, { global: ['This date has begun: a past date cannot be changed'] }];
        const refused = await patch(event.id, begun.id, { quantity: 3, beginningDatetime: inHours(24) });
        expect([refused.status, refused.body]).toEqual(refusal);
        for (const change of [{ quantity: 3 }, { priceCategoryId: categories[1].id }, { idAtProvider: null }]) {
          const response = await patch(event.id, begun.id, change);
          expect([response.status, response.body], JSON.stringify(change)).toEqual(refusal);
        }
        const before = await storedDate(begun.id);
        const unchanged = await patch(event.id, begun.id, {
          quantity: 10,
          priceCategoryId: categories[0].id,
          idAtProvider: 'begun',
        });
        expect([unchanged.status, unchanged.body]).toEqual([200, begun]);
        expect((await patch(event.id, begun.id, {})).status).toBe(200);
        const row = await storedDate(begun.id);
        expect([
          row.quantity,
          row.price,
          row.idAtProvider,
          row.beginningDatetime?.toISOString(),
          row.rescheduledAt,
          row.updatedAt.getTime(),
        ]).toEqual([10, 2500, 'begun', begun.beginningDatetime, null, before.updatedAt.getTime()]);
        expect(await published('test.dateRescheduled', begun.id)).toEqual([]);
        expect((await patch(event.id, ahead.id, { quantity: 3 })).status).toBe(200);
      } finally {
        world.testApp.clock.set(new Date('2026-11-22T10:00:00Z'));
      }
    });

    it('deletes a date up to 48 hours after its beginning, and refuses (400) later', async () => {
      const { event, categories } = await anEventWithCategories();
      const [old, recent] = (await create(event.id, [aDate(categories[0].id, 24), aDate(categories[0].id, 25)])).body
        .dates;
      // old began 48 hours and 1 ms ago, recent 47 hours ago.
      world.testApp.clock.set(new Date(new Date(old.beginningDatetime).getTime() + 48 * HOUR + 1));
      try {
        const refused = await remove(event.id, old.id);
        expect([refused.status, refused.body]).toEqual([
          400,
          { global: ['The event began more than two days ago: the date cannot be deleted'] },
        ]);
        expect((await storedDate(old.id)).isDeleted).toBe(false);
        expect(await published('test.stockDeleted', old.id)).toEqual([]);
        // Exactly 48 hours after its beginning, a date is still deleted.
        world.testApp.clock.set(new Date(new Date(recent.beginningDatetime).getTime() + 48 * HOUR));
        expect((await remove(event.id, recent.id)).status).toBe(204);
        expect((await storedDate(recent.id)).isDeleted).toBe(true);
      } finally {
        world.testApp.clock.set(new Date('2026-11-22T10:00:00Z'));
      }
    });
  });

  describe('GET', () => {
    it('pages live dates by firstIndex and limit, and filters by idsAtProvider', async () => {
      const { event, categories } = await anEventWithCategories();
      const created = (
        await create(
          event.id,
          Array.from({ length: 5 }, (_, index) => aDate(categories[0].id, 24 + index, { idAtProvider: `d-${index}` })),
        )
      ).body.dates;
      const ids: number[] = created.map((date: { id: number }) => date.id);
      expect((await list(event.id)).body).toEqual({ dates: created });
      const idsOf = (response: { body: { dates: { id: number }[] } }) => response.body.dates.map((date) => date.id);
      expect(idsOf(await list(event.id, { limit: 2 }))).toEqual(ids.slice(0, 2));
      expect(idsOf(await list(event.id, { limit: 2, firstIndex: ids[1] + 1 }))).toEqual(ids.slice(2, 4));
      expect(idsOf(await list(event.id, { idsAtProvider: 'd-4,d-0,nope' }))).toEqual([ids[0], ids[4]]);
      await remove(event.id, ids[0]);
      expect(idsOf(await list(event.id, { idsAtProvider: 'd-4,d-0' }))).toEqual([ids[4]]);
      const beyond = await list(event.id, { firstIndex: ids[4] + 1 });
      expect([beyond.status, beyond.body]).toEqual([200, { dates: [] }]);

      const { event: emptied, categories: emptiedCategories } = await anEventWithCategories();
      const [only] = (await create(emptied.id, [aDate(emptiedCategories[0].id, 24)])).body.dates;
      await remove(emptied.id, only.id);
      const none = await list(emptied.id);
      expect([none.status, none.body]).toEqual([200, { dates: [] }]);
    });

    it('refuses more than 100 idsAtProvider (422); 100 are accepted', async () => {
      const { event, categories } = await anEventWithCategories();
      const [date] = (await create(event.id, [aDate(categories[0].id, 24, { idAtProvider: 'id-99' })])).body.dates;
      const ids = (count: number) => Array.from({ length: count }, (_, index) => `id-${index}`).join(',');
      const tooMany = await list(event.id, { idsAtProvider: ids(101) });
      expect(tooMany.status).toBe(422);
      expect(tooMany.body).toEqual([expect.objectContaining({ loc: ['idsAtProvider'] })]);
      const hundred = await list(event.id, { idsAtProvider: ids(100) });
      expect([hundred.status, hundred.body]).toEqual([200, { dates: [date] }]);
    });

    it('refuses a limit of 0 or 51 (422)', async () => {
      const { event } = await anEventWithCategories();
      for (const [query, type] of [
        [{ limit: 0 }, 'greater_than'],
        [{ limit: 51 }, 'less_than_equal'],
      ] as const) {
        const response = await list(event.id, query);
        expect(response.status).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc: ['limit'], type })]);
      }
    });

    it("answers 404 for another provider's event", async () => {
      const { event } = await anEventWithCategories();
      const response = await list(event.id, {}, world.other.apiKey);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ global: ['Event offer not found'] });
    });
  });

  it('answers 401 to each date operation without a key or with an unknown one, and changes nothing', async () => {
    const { event, categories } = await anEventWithCategories();
    const [date] = (await create(event.id, [aDate(categories[0].id, 24, { quantity: 10 })])).body.dates;
    for (const key of [null, `test_000000000000_${'0'.repeat(64)}`]) {
      for (const response of [
        await create(event.id, [aDate(categories[0].id, 30)], key),
        await patch(event.id, date.id, { quantity: 1 }, key),
        await remove(event.id, date.id, key),
        await list(event.id, {}, key),
      ]) {
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ auth: 'API key required' });
      }
    }
    const stored = await storedDates(event.id);
    expect(stored.map((stock) => [stock.quantity, stock.isDeleted])).toEqual([[10, false]]);
  });

  it("answers 404 on an event the key does not reach: another provider's, a product, an unknown id, a venue no longer linked; changes nothing", async () => {
    const { event, categories } = await anEventWithCategories();
    const [date] = (await create(event.id, [aDate(categories[0].id, 24, { quantity: 10 })])).body.dates;
    const product = await world.api.call('PostProductOffer', { body: aProductBody(world.sandbox.venues[0].id) });
    expect(product.status).toBe(201);
    const eventNotFound = { global: ['Event offer not found'] };
    const allOperations = (eventId: number, key?: string) => [
      () => create(eventId, [aDate(categories[0].id, 30)], key),
      () => patch(eventId, date.id, { quantity: 1 }, key),
      () => remove(eventId, date.id, key),
      () => list(eventId, {}, key),
    ];
    for (const [eventId, key] of [
      [event.id, world.other.apiKey],
      [product.body.id, undefined],
      [999999, undefined],
    ] as const) {
      for (const call of allOperations(eventId, key)) {
        const response = await call();
        expect([response.status, response.body], `${eventId}`).toEqual([404, eventNotFound]);
      }
    }

    // The provider's link to the venue deactivated: the venue's events are out of reach.
    const link = { venue: world.sandbox.venues[0].id, provider: world.sandbox.provider.id };
    await em().nativeUpdate(VenueProvider, link, { isActive: false });
    try {
      for (const call of allOperations(event.id)) {
        const response = await call();
        expect([response.status, response.body]).toEqual([404, eventNotFound]);
      }
    } finally {
      await em().nativeUpdate(VenueProvider, link, { isActive: true });
    }
    const stored = await storedDates(event.id);
    expect(stored.map((stock) => [stock.id, stock.quantity, stock.isDeleted])).toEqual([[date.id, 10, false]]);
    expect((await list(event.id)).status).toBe(200);
  });

  it('answers 422 int_parsing for an event or date id that is not a whole number, and changes nothing', async () => {
    const { event, categories } = await anEventWithCategories();
    const [date] = (await create(event.id, [aDate(categories[0].id, 24, { quantity: 10 })])).body.dates;
    const notAnId = 'gouzi_gouzi' as unknown as number;
    const issue = (loc: string) => [expect.objectContaining({ loc: [loc], type: 'int_parsing' })];
    for (const [response, loc] of [
      [await create(notAnId, [aDate(categories[0].id, 30)]), 'event_id'],
      [await list(notAnId), 'event_id'],
      [await patch(event.id, notAnId, { quantity: 1 }), 'stock_id'],
      [await remove(event.id, notAnId), 'stock_id'],
    ] as const) {
      expect(response.status).toBe(422);
      expect(response.body).toEqual(issue(loc));
    }
    const stored = await storedDates(event.id);
    expect(stored.map((stock) => [stock.id, stock.quantity, stock.isDeleted])).toEqual([[date.id, 10, false]]);
  });

  it('answers 403 to a provider that may no longer manage individual offers, and changes nothing', async () => {
    const { event, categories } = await anEventWithCategories();
    const [date] = (await create(event.id, [aDate(categories[0].id, 24)])).body.dates;
    await withoutIndividualOffersRight(world.testApp, world.sandbox.provider.id, async () => {
      for (const response of [
        await create(event.id, [aDate(categories[0].id, 30)]),
        await patch(event.id, date.id, { quantity: 1 }),
        await remove(event.id, date.id),
        await list(event.id),
      ]) {
        expect(response.status).toBe(403);
        expect(response.body).toEqual(NOT_ALLOWED_INDIVIDUAL_OFFERS);
      }
    });
    const stored = await storedDates(event.id);
    expect(stored.map((stock) => [stock.quantity, stock.isDeleted])).toEqual([[100, false]]);
  });
  it('never answers 5xx to generated bad input on a real event and date, and answers as documented', async () => {
    const { event, categories } = await anEventWithCategories();
    const [date] = (await create(event.id, [aDate(categories[0].id, 24)])).body.dates;
    // A key of its own: these requests must not eat the budget of the other tests' key.
    const key = await anotherSandboxKey(world);
    const anyValue = fc.oneof(
      fc.string(),
      fc.integer({ min: -3, max: 2_147_483_650 }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom(
        'unlimited',
        '',
        'a\u0000b',
        '2026-12-01T20:00:00',
        '9999-12-31T23:59:59-23:59',
        '0001-01-01T00:00:00+01:00',
        inHours(30),
        inHours(-1),
      ),
      fc.constantFrom(categories[0].id, 1e15, 1_000_001, 0),
    );
    const fields = fc.dictionary(
      fc.constantFrom(
        'beginningDatetime',
        'bookingLimitDatetime',
        'priceCategoryId',
        'quantity',
        'idAtProvider',
        'other',
      ),
      anyValue,
      {
        maxKeys: 5,
      },
    );
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fields, async (isCreation, body) => {
        const response = isCreation
          ? await create(event.id, [{ ...aDate(categories[0].id, 24 * 7), ...body }], key)
          : await patch(event.id, date.id, body, key);
        expect(response.status, JSON.stringify(body)).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});

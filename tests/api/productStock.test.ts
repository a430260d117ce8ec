import { describe, expect, it } from 'vitest';
import { Stock } from '../../graphql/offers/Stock.js';
import { useProductWorld } from '../support/offerWorld.js';

const HOUR = 3_600_000;
const START = new Date('2026-11-22T10:00:00Z');
/** A stock as a product answers it: unlimited, nothing booked, no booking limit. */
const anUnlimitedStock = (price: number) => ({
  price,
  bookedQuantity: 0,
  bookingLimitDatetime: null,
  quantity: 'unlimited',
});

describe('Product Offers: stock and status', () => {
  const world = useProductWorld();
  const { patch, getOne, created, stored, storedStocks, stockDeletedFor, em } = world;

  describe('stock', () => {
    it('answers the stored total beside bookedQuantity, as pass Culture: a quantity sent adds the booked items', async () => {
      const product = await created({ stock: { price: 1500, quantity: 10 } });
      const [stock] = await storedStocks(product.id);
      await em().nativeUpdate(Stock, stock.id, { bookedQuantity: 2 });
      expect((await getOne(product.id)).body.stock).toEqual({
        price: 1500,
        bookedQuantity: 2,
        bookingLimitDatetime: null,
        quantity: 10,
      });

      const response = await patch({ offerId: product.id, stock: { quantity: 5 } });
      expect(response.status).toBe(200);
      expect(response.body.stock).toEqual({ price: 1500, bookedQuantity: 2, bookingLimitDatetime: null, quantity: 7 });
      expect(await storedStocks(product.id)).toEqual([
        expect.objectContaining({ id: stock.id, quantity: 7, bookedQuantity: 2, price: 1500, isDeleted: false }),
      ]);
      expect((await getOne(product.id)).body.stock.quantity).toBe(7);

      const zero = await patch({ offerId: product.id, stock: { quantity: 0 } });
      expect(zero.body.stock).toMatchObject({ quantity: 2, bookedQuantity: 2 });
      expect((await storedStocks(product.id))[0].quantity).toBe(2);
      const unlimited = await patch({ offerId: product.id, stock: { quantity: 'unlimited' } });
      expect(unlimited.body.stock).toMatchObject({ quantity: 'unlimited', bookedQuantity: 2 });
      expect((await storedStocks(product.id))[0].quantity).toBeNull();
      const kept = await patch({ offerId: product.id, stock: { quantity: null, price: 900 } });
      expect(kept.body.stock).toEqual({
        price: 900,
        bookedQuantity: 2,
        bookingLimitDatetime: null,
        quantity: 'unlimited',
      });
      expect(await storedStocks(product.id)).toHaveLength(1);
    });

    it('changes only the stock fields sent', async () => {
      const product = await created({
        stock: { price: 1500, quantity: 10, bookingLimitDatetime: '2026-12-24T18:00:00Z' },
      });
      const price = await patch({ offerId: product.id, stock: { price: 30000 } });
      expect(price.status).toBe(200);
      expect(price.body.stock).toEqual({
        price: 30000,
        bookedQuantity: 0,
        bookingLimitDatetime: '2026-12-24T18:00:00.000Z',
        quantity: 10,
      });
      const limit = await patch({ offerId: product.id, stock: { bookingLimitDatetime: '2026-12-31T23:00:00+01:00' } });
      expect(limit.body.stock).toEqual({
        price: 30000,
        bookedQuantity: 0,
        bookingLimitDatetime: '2026-12-31T22:00:00.000Z',
        quantity: 10,
      });
      const keptLimit = await patch({ offerId: product.id, stock: { price: 0, quantity: null } });
      expect(keptLimit.body.stock).toEqual({
        price: 0,
        bookedQuantity: 0,
        bookingLimitDatetime: '2026-12-31T22:00:00.000Z',
        quantity: 10,
      });
      const empty = await patch({ offerId: product.id, stock: {} });
      expect(empty.body.stock).toEqual(keptLimit.body.stock);
      const stocks = await storedStocks(product.id);
      expect(
        stocks.map((stock) => [
          stock.price,
          stock.quantity,
          stock.bookingLimitDatetime?.toISOString(),
          stock.isDeleted,
        ]),
      ).toEqual([[0, 10, '2026-12-31T22:00:00.000Z', false]]);
    });

    it('removes the booking limit with bookingLimitDatetime: null, keeping the rest of the stock', async () => {
      const product = await created({
        stock: { price: 1500, quantity: 10, bookingLimitDatetime: '2026-12-24T18:00:00Z' },
      });
      const cleared = await patch({ offerId: product.id, stock: { bookingLimitDatetime: null } });
      expect(cleared.status).toBe(200);
      expect(cleared.body.stock).toEqual({ price: 1500, bookedQuantity: 0, bookingLimitDatetime: null, quantity: 10 });
      expect(
        (await storedStocks(product.id)).map((stock) => [stock.price, stock.quantity, stock.bookingLimitDatetime]),
      ).toEqual([[1500, 10, null]]);
      expect((await getOne(product.id)).body.stock.bookingLimitDatetime).toBeNull();
    });

    it('refuses a booking limit before the publication or the opening of bookings, sent or stored (400), and changes nothing', async () => {
      const product = await created({
        stock: { price: 1500, quantity: 10, bookingLimitDatetime: '2026-12-24T18:00:00Z' },
      });
      const sentTogether = await patch({
        offerId: product.id,
        publicationDatetime: '2026-12-01T10:00:00Z',
        bookingAllowedDatetime: '2026-12-02T10:00:00Z',
        stock: { bookingLimitDatetime: '2026-11-30T10:00:00Z' },
      });
      expect(sentTogether.status).toBe(400);
      expect(sentTogether.body).toEqual({
        'stock.bookingLimitDatetime': [
          'The booking limit must not be before the publication of the offer (2026-12-01T10:00:00.000Z): nobody could book in between',
          'The booking limit must not be before bookings open (bookingAllowedDatetime, 2026-12-02T10:00:00.000Z): nobody could book in between',
        ],
      });
      const unchanged = await stored(product.id);
      expect([unchanged.publicationDatetime?.toISOString(), unchanged.bookingAllowedDatetime]).toEqual([
        START.toISOString(),
        null,
      ]);

      expect((await patch({ offerId: product.id, bookingAllowedDatetime: '2026-12-10T10:00:00Z' })).status).toBe(200);
      const beforeStoredOpening = await patch({
        offerId: product.id,
        stock: { bookingLimitDatetime: '2026-12-09T10:00:00Z' },
      });
      expect(beforeStoredOpening.status).toBe(400);
      expect(beforeStoredOpening.body).toEqual({
        'stock.bookingLimitDatetime': [
          expect.stringMatching(/before bookings open \(bookingAllowedDatetime, 2026-12-10/),
        ],
      });
      expect((await storedStocks(product.id)).map((stock) => stock.bookingLimitDatetime?.toISOString())).toEqual([
        '2026-12-24T18:00:00.000Z',
      ]);
      const accepted = await patch({ offerId: product.id, stock: { bookingLimitDatetime: '2026-12-10T10:00:00Z' } });
      expect(accepted.status).toBe(200);
      expect(accepted.body.stock.bookingLimitDatetime).toBe('2026-12-10T10:00:00.000Z');
    });

    it('refuses bad stock fields on edition (422) and changes nothing', async () => {
      const product = await created();
      for (const [stock, loc, type] of [
        [{ quantity: -1 }, 'quantity', null],
        [{ quantity: 1.5 }, 'quantity', null],
        [{ quantity: 'all' }, 'quantity', null],
        [{ price: -1 }, 'price', 'greater_than_equal'],
        [{ price: 30001 }, 'price', 'less_than_equal'],
        [{ price: 12.34 }, 'price', 'int_type'],
        [{ price: '1000' }, 'price', null],
        [{ quantity: 1_000_001 }, 'quantity', null],
        [{ bookingLimitDatetime: '2026-12-24T18:00:00' }, 'bookingLimitDatetime', 'timezone_aware'],
        // Already past (the clock reads 2026-11-22T10:00:00Z).
        [{ bookingLimitDatetime: '2026-11-22T09:59:00Z' }, 'bookingLimitDatetime', 'datetime_future'],
      ] as const) {
        const response = await patch({ offerId: product.id, name: 'Changed', stock });
        expect(response.status, JSON.stringify(stock)).toBe(422);
        expect(response.body, JSON.stringify(stock)).toEqual([expect.objectContaining({ loc: ['stock', loc] })]);
        if (type) expect(response.body[0].type).toBe(type);
      }
      expect((await stored(product.id)).name).toBe('Cello rental');
      expect((await storedStocks(product.id)).map((stock) => [stock.price, stock.quantity])).toEqual([[1500, 10]]);
    });

    it('creates the stock of a product without one: a price is required (400)', async () => {
      const product = await created({ stock: null });
      const noPrice = await patch({ offerId: product.id, name: 'With stock', stock: { quantity: 4 } });
      expect(noPrice.status).toBe(400);
      expect(noPrice.body).toEqual({ 'stock.price': ['A price is required to create the stock of a product'] });
      expect(await storedStocks(product.id)).toEqual([]);
      expect((await stored(product.id)).name).toBe('Cello rental');

      const emptyStock = await patch({ offerId: product.id, name: 'With stock', stock: {} });
      expect([emptyStock.status, emptyStock.body]).toEqual([400, noPrice.body]);
      expect(await storedStocks(product.id)).toEqual([]);
      const withPrice = await patch({ offerId: product.id, stock: { price: 700, quantity: 4 } });
      expect(withPrice.status).toBe(200);
      expect(withPrice.body.stock).toEqual({ price: 700, bookedQuantity: 0, bookingLimitDatetime: null, quantity: 4 });
      const unlimited = await created({ stock: null });
      const noQuantity = await patch({ offerId: unlimited.id, stock: { price: 0 } });
      expect(noQuantity.body.stock).toEqual(anUnlimitedStock(0));
      expect((await storedStocks(unlimited.id)).map((stock) => stock.quantity)).toEqual([null]);
    });

    it('soft-deletes the stock with stock: null, publishing offers.stockDeleted in the transaction', async () => {
      const product = await created();
      const [stock] = await storedStocks(product.id);
      const response = await patch({ offerId: product.id, stock: null });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...product, status: 'SOLD_OUT', stock: null });
      expect(await storedStocks(product.id)).toEqual([
        expect.objectContaining({ id: stock.id, isDeleted: true, quantity: 10 }),
      ]);
      expect(await stockDeletedFor(product.id)).toEqual([
        { stockId: stock.id, offerId: product.id, at: world.testApp.clock.now().toISOString() },
      ]);
      expect((await getOne(product.id)).body.stock).toBeNull();

      // No stock left: nothing to delete, nothing published.
      const again = await patch({ offerId: product.id, stock: null });
      expect(again.status).toBe(200);
      expect(await stockDeletedFor(product.id)).toHaveLength(1);

      // A new stock is a new row; the deleted one stays deleted.
      const recreated = await patch({ offerId: product.id, stock: { price: 2000 } });
      expect(recreated.body.stock).toEqual(anUnlimitedStock(2000));
      const rows = await storedStocks(product.id);
      expect(rows.map((row) => [row.id === stock.id, row.isDeleted, row.price])).toEqual([
        [true, true, 1500],
        [false, false, 2000],
      ]);
    });

    it('deletes nothing, and changes nothing else, when a handler of offers.stockDeleted refuses', async () => {
      const product = await created();
      const [stock] = await storedStocks(product.id);
      const response = await world.handlers.refusing('test.stockDeleted', () =>
        patch({ offerId: product.id, name: 'Renamed with the deletion', stock: null }),
      );
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ global: ['test.stockDeleted refused by a handler'] });
      expect(await storedStocks(product.id)).toEqual([
        expect.objectContaining({ id: stock.id, isDeleted: false, quantity: 10, price: 1500 }),
      ]);
      expect(await stockDeletedFor(product.id)).toEqual([]);
      expect((await stored(product.id)).name).toBe('Cello rental');
      expect((await getOne(product.id)).body).toEqual(product);
    });
  });

  describe('status', () => {
    it('is ACTIVE with items left, SOLD_OUT without stock or with none left, EXPIRED past the booking limit, INACTIVE when deactivated', async () => {
      const active = await created({ stock: { price: 1000, quantity: 3 } });
      const unlimited = await created({ stock: { price: 1000 } });
      const noStock = await created({ stock: null });
      const bookedOut = await created({ stock: { price: 1000, quantity: 3 } });
      const zeroLeft = await created({ stock: { price: 1000, quantity: 3 } });
      const expiring = await created({
        stock: { price: 1000, quantity: 3, bookingLimitDatetime: '2026-11-22T11:00:00Z' },
      });
      const deactivated = await created({ stock: { price: 1000, quantity: 3 } });
      const deleted = await created({ stock: { price: 1000, quantity: 3 } });

      const [bookedOutStock] = await storedStocks(bookedOut.id);
      await em().nativeUpdate(Stock, bookedOutStock.id, { bookedQuantity: 3 });
      expect((await patch({ offerId: zeroLeft.id, stock: { quantity: 0 } })).body.status).toBe('SOLD_OUT');
      expect((await patch({ offerId: deleted.id, stock: null })).body.status).toBe('SOLD_OUT');

      const statusOf = async (id: number) => (await getOne(id)).body.status;
      expect(await statusOf(active.id)).toBe('ACTIVE');
      expect(await statusOf(unlimited.id)).toBe('ACTIVE');
      expect(await statusOf(noStock.id)).toBe('SOLD_OUT');
      expect(await statusOf(bookedOut.id)).toBe('SOLD_OUT');
      expect((await getOne(bookedOut.id)).body.stock).toMatchObject({ quantity: 3, bookedQuantity: 3 });
      expect(await statusOf(zeroLeft.id)).toBe('SOLD_OUT');
      expect(await statusOf(expiring.id)).toBe('ACTIVE');
      expect(await statusOf(deleted.id)).toBe('SOLD_OUT');

      const [deactivatedStock] = await storedStocks(deactivated.id);
      const inactive = await patch({ offerId: deactivated.id, isActive: false });
      expect(inactive.status).toBe(200);
      expect(inactive.body).toMatchObject({
        status: 'INACTIVE',
        stock: { price: 1000, bookedQuantity: 0, bookingLimitDatetime: null, quantity: 3 },
      });
      expect(await statusOf(deactivated.id)).toBe('INACTIVE');
      expect((await stored(deactivated.id)).isActive).toBe(false);
      expect(await storedStocks(deactivated.id)).toEqual([
        expect.objectContaining({
          id: deactivatedStock.id,
          isDeleted: false,
          quantity: 3,
          price: 1000,
          updatedAt: deactivatedStock.updatedAt,
        }),
      ]);
      expect(await stockDeletedFor(deactivated.id)).toEqual([]);
      expect((await patch({ offerId: deactivated.id, isActive: true })).body.status).toBe('ACTIVE');

      world.testApp.clock.advance(2 * HOUR);
      try {
        expect(await statusOf(expiring.id)).toBe('EXPIRED');
        expect(await statusOf(active.id)).toBe('ACTIVE');
        const reopened = await patch({ offerId: expiring.id, stock: { bookingLimitDatetime: '2026-12-01T00:00:00Z' } });
        expect(reopened.body.status).toBe('ACTIVE');
      } finally {
        world.testApp.clock.set(START);
      }
    });

    it('is INACTIVE when never published, approved or not', async () => {
      const never = await created({ publicationDatetime: null });
      expect([never.publicationDatetime, never.status]).toEqual([null, 'INACTIVE']);
      expect((await stored(never.id)).validation).toBe('APPROVED');
    });
  });
});

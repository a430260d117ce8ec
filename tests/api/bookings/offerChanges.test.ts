import { describe, expect, it } from 'vitest';
import { Stock } from '../../../graphql/offers/Stock.js';
import { expectStatus } from '../../support/api.js';
import { books, CREDIT, HOUR, iso, useBookingWorld } from '../../support/bookingWorld.js';

const suite = useBookingWorld();

describe('effects of changes to offers', () => {
  it('deleting a date cancels its CONFIRMED bookings with a refund; used and cancelled ones stay as they are', async () => {
    const world = await suite.aWorld();
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    const date = await suite.anEventDate(world, { hours: 240, price: 1000, offer: { enableDoubleBookings: true } });
    const kept = await suite.anEventDate(world, { offerId: date.offerId, hours: 300, price: 1000 });
    const cancelled = await suite.book(world, date.stockId, { beneficiaryId });
    expect((await suite.countermark('cancel', cancelled.token, world.key)).status).toBe(204);
    const used = await suite.book(world, date.stockId, { beneficiaryId });
    suite.testApp.clock.advance(48 * HOUR);
    expect((await suite.countermark('use', used.token, world.key)).status).toBe(204);
    const confirmed = await suite.book(world, date.stockId, { beneficiaryId, quantity: 2 });
    const elsewhere = await suite.book(world, kept.stockId, { beneficiaryId });
    const before = {
      used: await suite.stateOf(used.id),
      cancelled: await suite.stateOf(cancelled.id),
      elsewhere: await suite.stateOf(elsewhere.id),
    };
    expect(await suite.creditOf(beneficiaryId)).toBe(CREDIT - 4000);
    expect(await suite.bookedQuantityOf(date.stockId)).toBe(3);

    suite.testApp.clock.advance(HOUR);
    const response = await suite.api.call('DeleteEventStock', {
      params: { event_id: date.offerId, stock_id: date.stockId },
      key: world.key,
    });
    expectStatus(response, 204);

    const after = await suite.stateOf(confirmed.id);
    expect(after).toMatchObject({
      status: 'CANCELLED',
      cancellationDate: iso(suite.now()),
      cancellationReason: 'STOCK_DELETED',
      dateUsed: null,
      credit: CREDIT - 2000,
    });
    // The deleted stock keeps its count: places are given back only to a stock still on sale.
    expect(after.bookedQuantity).toBe(3);
    expect(await suite.notificationsOf(confirmed.id)).toEqual(['BOOK', 'CANCEL']);
    expect({
      used: await suite.stateOf(used.id),
      cancelled: await suite.stateOf(cancelled.id),
      elsewhere: await suite.stateOf(elsewhere.id),
    }).toEqual({
      used: { ...before.used, credit: CREDIT - 2000 },
      cancelled: { ...before.cancelled, credit: CREDIT - 2000 },
      elsewhere: { ...before.elsewhere, credit: CREDIT - 2000 },
    });
    expect(before.used.status).toBe('USED');
    expect(before.elsewhere.status).toBe('CONFIRMED');
    const use = await suite.countermark('use', confirmed.token, world.key);
    expect(use.status).toBe(410);
    expect(use.body).toEqual({ global: ['This booking has been cancelled'] });
  });

  it('PATCH of a product with stock: null cancels its CONFIRMED bookings with a refund', async () => {
    const world = await suite.aWorld();
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    const product = await suite.aProduct(world, { price: 1200 });
    const first = await suite.book(world, product.stockId, { beneficiaryId });
    const second = await suite.book(world, product.stockId, { beneficiaryId });
    const used = await suite.book(world, product.stockId, { beneficiaryId });
    expect((await suite.countermark('use', used.token, world.key)).status).toBe(204);
    const response = await suite.api.call('EditProduct', {
      body: { offerId: product.offerId, stock: null },
      key: world.key,
    });
    expectStatus(response, 200);
    expect(response.body.stock).toBeNull();
    for (const booking of [first, second]) {
      expect(await suite.stateOf(booking.id)).toMatchObject({
        status: 'CANCELLED',
        cancellationReason: 'STOCK_DELETED',
        cancellationDate: iso(suite.now()),
      });
    }
    expect((await suite.storedBooking(used.id)).status).toBe('USED');
    expect(await suite.creditOf(beneficiaryId)).toBe(CREDIT - 1200);
    expect((await suite.em().findOneOrFail(Stock, product.stockId)).isDeleted).toBe(true);
  });

  it('a bulk upsert with quantity 0 cancels the CONFIRMED bookings of that stock with a refund', async () => {
    const world = await suite.aWorld();
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    const ean = books[1].ean;
    const product = await suite.aProduct(world, { category: 'LIVRE_PAPIER', price: 900, ean });
    const booked = await suite.book(world, product.stockId, { beneficiaryId });
    const response = await suite.api.call('PostProductOfferByEan', {
      body: {
        location: { type: 'physical', venueId: suite.bookshop() },
        products: [{ ean, stock: { price: 900, quantity: 0 } }],
      },
      key: world.key,
    });
    expectStatus(response, 204);
    expect((await suite.storedBooking(booked.id)).status).toBe('CONFIRMED');
    await suite.runAllJobs();
    expect(await suite.stateOf(booked.id)).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'STOCK_DELETED',
      credit: CREDIT,
    });
    expect((await suite.em().findOneOrFail(Stock, product.stockId)).isDeleted).toBe(true);
    expect(await suite.notificationsOf(booked.id)).toEqual(['BOOK', 'CANCEL']);
  });

  it('deactivating an offer (isActive: false) cancels nothing', async () => {
    const world = await suite.aWorld();
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    const product = await suite.aProduct(world, { price: 1000 });
    const date = await suite.anEventDate(world, { hours: 240, price: 2000 });
    const productBooking = await suite.book(world, product.stockId, { beneficiaryId });
    const eventBooking = await suite.book(world, date.stockId, { beneficiaryId });
    const before = { product: await suite.stateOf(productBooking.id), event: await suite.stateOf(eventBooking.id) };
    const patchedProduct = await suite.api.call('EditProduct', {
      body: { offerId: product.offerId, isActive: false },
      key: world.key,
    });
    expectStatus(patchedProduct, 200);
    const patchedEvent = await suite.api.call('EditEvent', {
      params: { event_id: date.offerId },
      body: { isActive: false },
      key: world.key,
    });
    expectStatus(patchedEvent, 200);
    expect({ product: await suite.stateOf(productBooking.id), event: await suite.stateOf(eventBooking.id) }).toEqual(
      before,
    );
    expect(before.product).toMatchObject({ status: 'CONFIRMED', credit: CREDIT - 3000 });
    // The booking made is still honoured.
    expect((await suite.countermark('use', productBooking.token, world.key)).status).toBe(204);
  });

  it("rescheduling a date restarts its bookings' cancellation window: 48 hours from the change, never after the beginning", async () => {
    const world = await suite.aWorld();
    const date = await suite.anEventDate(world, { hours: 24 * 10 });
    const reschedule = (beginningDatetime: string, bookingLimitDatetime: string) =>
      suite.api.call('PatchEventStock', {
        params: { event_id: date.offerId, stock_id: date.stockId },
        body: { beginningDatetime, bookingLimitDatetime },
        key: world.key,
      });
    const limitOf = async (id: number) => (await suite.storedBooking(id)).cancellationLimitDate?.toISOString();
    // Booked 5 days ago: its own window has long closed.
    const old = await suite.book(world, date.stockId);
    const bookedAt = suite.now();
    suite.testApp.clock.advance(5 * 24 * HOUR);
    expect(await limitOf(old.id)).toBe(iso(new Date(bookedAt.getTime() + 48 * HOUR)));
    expect((await suite.countermark('cancel', old.token, world.key)).status).toBe(403);

    // Moved 20 days ahead: cancellable again for 48 hours from now.
    expectStatus(await reschedule(iso(suite.at(24 * 20)), iso(suite.at(24 * 19))), 200);
    expect(await limitOf(old.id)).toBe(iso(suite.at(48)));
    const lookup = await suite.byToken(old.token, world.key);
    expect(lookup.status).toBe(403);
    expect(lookup.body).toEqual({
      global: [`The beneficiary may still cancel this booking until ${iso(suite.at(48))}: validate it after that`],
    });

    // Moved to tomorrow: the window closes with the beginning.
    expectStatus(await reschedule(iso(suite.at(24)), iso(suite.at(23))), 200);
    expect(await limitOf(old.id)).toBe(iso(suite.at(24)));
    const listed = await suite.list({ offerId: date.offerId, status: 'CONFIRMED' }, world.key);
    expectStatus(listed, 200);
    expect(listed.body.bookings.map((booking) => [booking.id, booking.confirmationDate])).toEqual([
      [old.id, iso(suite.at(24))],
    ]);
  });

  it('rescheduling a date more than 48 hours ahead makes its USED bookings CONFIRMED again; closer, they stay USED', async () => {
    const world = await suite.aWorld();
    const date = await suite.anEventDate(world, { hours: 24 * 10 });
    const reschedule = (hours: number) =>
      suite.api.call('PatchEventStock', {
        params: { event_id: date.offerId, stock_id: date.stockId },
        body: { beginningDatetime: iso(suite.at(hours)), bookingLimitDatetime: iso(suite.at(hours - 1)) },
        key: world.key,
      });
    const booking = await suite.book(world, date.stockId);
    suite.testApp.clock.advance(49 * HOUR);
    expect((await suite.countermark('use', booking.token, world.key)).status).toBe(204);
    expect((await suite.storedBooking(booking.id)).status).toBe('USED');

    // 48 hours ahead exactly: still USED, its limit moved all the same.
    expectStatus(await reschedule(48), 200);
    expect(await suite.storedBooking(booking.id)).toMatchObject({ status: 'USED' });
    expect((await suite.storedBooking(booking.id)).cancellationLimitDate?.toISOString()).toBe(iso(suite.at(48)));

    expectStatus(await reschedule(72), 200);
    const reopened = await suite.storedBooking(booking.id);
    expect([reopened.status, reopened.dateUsed, reopened.cancellationLimitDate?.toISOString()]).toEqual([
      'CONFIRMED',
      null,
      iso(suite.at(48)),
    ]);
    const lookup = await suite.byToken(booking.token, world.key);
    expect(lookup.status).toBe(403);
  });
});

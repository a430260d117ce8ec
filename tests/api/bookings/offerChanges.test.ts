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

  it("rescheduling a date recomputes its CONFIRMED bookings' cancellation limits", async () => {
    const world = await suite.aWorld();
    const date = await suite.anEventDate(world, { hours: 240 });
    const reschedule = (beginningDatetime: string, bookingLimitDatetime: string) =>
      suite.api.call('PatchEventStock', {
        params: { event_id: date.offerId, stock_id: date.stockId },
        body: { beginningDatetime, bookingLimitDatetime },
        key: world.key,
      });
    const early = await suite.book(world, date.stockId);
    suite.testApp.clock.advance(49 * HOUR);
    // Past its limit (booking + 48 h): validated.
    expect((await suite.countermark('use', early.token, world.key)).status).toBe(204);
    const bookedAt = suite.now();
    const late = await suite.book(world, date.stockId);
    expect(late.cancellationLimitDate).toBe(iso(suite.at(48)));

    // Moved to 72 hours from now: the limit becomes 48 hours before it.
    expectStatus(await reschedule(iso(suite.at(72)), iso(suite.at(71))), 200);
    expect((await suite.storedBooking(late.id)).cancellationLimitDate?.toISOString()).toBe(iso(suite.at(24)));
    expect((await suite.storedBooking(early.id)).cancellationLimitDate?.toISOString()).toBe(
      iso(new Date(bookedAt.getTime() - HOUR)),
    );
    const lookup = await suite.byToken(late.token, world.key);
    expect(lookup.status).toBe(403);
    expect(lookup.body).toEqual({
      global: [`The beneficiary may still cancel this booking until ${iso(suite.at(24))}: validate it after that`],
    });

    // Moved to tomorrow: the limit has passed (it is never before the booking), the booking can be
    // validated and no longer cancelled.
    expectStatus(await reschedule(iso(suite.at(24)), iso(suite.at(23))), 200);
    expect((await suite.storedBooking(late.id)).cancellationLimitDate?.toISOString()).toBe(iso(bookedAt));
    expect((await suite.countermark('cancel', late.token, world.key)).status).toBe(403);
    const listed = await suite.list({ offerId: date.offerId, status: 'CONFIRMED' }, world.key);
    expectStatus(listed, 200);
    expect(listed.body.bookings.map((booking) => [booking.id, booking.confirmationDate])).toEqual([
      [late.id, iso(bookedAt)],
    ]);

    // Moved far away: the limit is 48 hours after booking again.
    expectStatus(await reschedule(iso(suite.at(24 * 30)), iso(suite.at(24 * 29))), 200);
    expect((await suite.storedBooking(late.id)).cancellationLimitDate?.toISOString()).toBe(
      iso(new Date(bookedAt.getTime() + 48 * HOUR)),
    );
  });
});

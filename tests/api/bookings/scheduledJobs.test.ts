import { describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../graphql/providers/apiKeys.js';
import { CREDIT, DAY, HOUR, iso, refusalOf, useBookingWorld, type World } from '../../support/bookingWorld.js';

const suite = useBookingWorld();

describe('periodic transitions', () => {
  describe('through sandboxRunScheduledJobs', () => {
    it('marks an event booking USED 48 hours after the event, not a moment before; the next run reimburses it', async () => {
      const world = await suite.aWorld();
      const date = await suite.anEventDate(world, { hours: 24 });
      const beforeLimit = await suite.anEventDate(world, { hours: 240 });
      const booked = await suite.book(world, date.stockId);
      const later = await suite.book(world, beforeLimit.stockId);
      const due = new Date(date.beginning.getTime() + 48 * HOUR);

      expect(await suite.runScheduledJobs(world, new Date(due.getTime() - 1))).toEqual({
        used: 0,
        expired: 0,
        reimbursed: 0,
      });
      expect(await suite.stateOf(booked.id)).toMatchObject({ status: 'CONFIRMED', dateUsed: null });

      expect(await suite.runScheduledJobs(world, due)).toEqual({ used: 1, expired: 0, reimbursed: 0 });
      const stored = await suite.storedBooking(booked.id);
      expect(stored.dateUsed?.toISOString()).toBe(iso(due));
      // The reimbursement pays what was used before the run: the booking shows USED until the next one.
      expect(stored.status).toBe('USED');
      expect((await suite.storedBooking(later.id)).status).toBe('CONFIRMED');
      const next = new Date(due.getTime() + HOUR);
      expect(await suite.runScheduledJobs(world, next)).toEqual({ used: 0, expired: 0, reimbursed: 1 });
      const reimbursed = await suite.storedBooking(booked.id);
      expect(reimbursed.status).toBe('REIMBURSED');
      expect(reimbursed.reimbursementDate?.toISOString()).toBe(iso(next));
      // A second run at the same moment finds nothing left to do.
      expect(await suite.runScheduledJobs(world, next)).toEqual({ used: 0, expired: 0, reimbursed: 0 });
    });

    it('cancels a book not picked up after 10 days, any other product after 30, refunding them; events never expire', async () => {
      const world = await suite.aWorld();
      const beneficiaryId = await suite.aBeneficiaryOf(world);
      const paperBook = await suite.aProduct(world, { category: 'LIVRE_PAPIER', price: 1000 });
      const cd = await suite.aProduct(world, { category: 'SUPPORT_PHYSIQUE_MUSIQUE_CD', price: 2000 });
      const date = await suite.anEventDate(world, { hours: 24 * 60, price: 500 });
      const bookBooking = await suite.book(world, paperBook.stockId, { beneficiaryId });
      const cdBooking = await suite.book(world, cd.stockId, { beneficiaryId });
      const eventBooking = await suite.book(world, date.stockId, { beneficiaryId });
      const bookedAt = suite.now().getTime();
      expect(await suite.creditOf(beneficiaryId)).toBe(CREDIT - 3500);

      /** Nothing expires a moment before `due`; at `due`, the run cancels this booking, refunded, its place given back. */
      const expectExpiresAt = async (bookingId: number, due: Date, creditAfter: number) => {
        expect(await suite.runScheduledJobs(world, new Date(due.getTime() - 1))).toEqual({
          used: 0,
          expired: 0,
          reimbursed: 0,
        });
        expect(await suite.runScheduledJobs(world, due)).toEqual({ used: 0, expired: 1, reimbursed: 0 });
        expect(await suite.stateOf(bookingId)).toEqual({
          status: 'CANCELLED',
          dateUsed: null,
          cancellationDate: iso(due),
          cancellationReason: 'EXPIRED',
          reimbursementDate: null,
          credit: creditAfter,
          bookedQuantity: 0,
        });
      };

      await expectExpiresAt(bookBooking.id, new Date(bookedAt + 10 * DAY), CREDIT - 2500);
      expect(await suite.notificationsOf(bookBooking.id)).toEqual(['BOOK', 'CANCEL']);
      expect((await suite.storedBooking(cdBooking.id)).status).toBe('CONFIRMED');

      await expectExpiresAt(cdBooking.id, new Date(bookedAt + 30 * DAY), CREDIT - 500);
      expect((await suite.storedBooking(eventBooking.id)).status).toBe('CONFIRMED');
    });

    it('does not expire a product that was picked up (USED): it is reimbursed instead', async () => {
      const world = await suite.aWorld();
      const paperBook = await suite.aProduct(world, { category: 'LIVRE_PAPIER', price: 1000 });
      const pickedUp = await suite.book(world, paperBook.stockId);
      const forgotten = await suite.book(world, paperBook.stockId);
      expect((await suite.countermark('use', pickedUp.token, world.key)).status).toBe(204);
      const usedAt = iso(suite.now());
      const moment = new Date(suite.now().getTime() + 11 * DAY);
      expect(await suite.runScheduledJobs(world, moment)).toEqual({ used: 0, expired: 1, reimbursed: 1 });
      expect(await suite.stateOf(pickedUp.id)).toMatchObject({
        status: 'REIMBURSED',
        dateUsed: usedAt,
        reimbursementDate: iso(moment),
        cancellationDate: null,
      });
      expect(await suite.stateOf(forgotten.id)).toMatchObject({
        status: 'CANCELLED',
        cancellationReason: 'EXPIRED',
        bookedQuantity: 1,
      });
    });

    it('reimburses USED bookings only, keeping their validation date', async () => {
      const world = await suite.aWorld();
      const product = await suite.aProduct(world, { price: 1000 });
      const used = await suite.book(world, product.stockId);
      const confirmed = await suite.book(world, product.stockId);
      const cancelled = await suite.book(world, product.stockId);
      expect((await suite.countermark('use', used.token, world.key)).status).toBe(204);
      expect((await suite.countermark('cancel', cancelled.token, world.key)).status).toBe(204);
      const usedAt = iso(suite.now());
      const moment = suite.at(1);
      const before = { confirmed: await suite.stateOf(confirmed.id), cancelled: await suite.stateOf(cancelled.id) };
      expect(await suite.runScheduledJobs(world, moment)).toEqual({ used: 0, expired: 0, reimbursed: 1 });
      expect(await suite.stateOf(used.id)).toMatchObject({
        status: 'REIMBURSED',
        dateUsed: usedAt,
        reimbursementDate: iso(moment),
      });
      expect({ confirmed: await suite.stateOf(confirmed.id), cancelled: await suite.stateOf(cancelled.id) }).toEqual(
        before,
      );
      expect(await suite.runScheduledJobs(world, moment)).toEqual({ used: 0, expired: 0, reimbursed: 0 });
    });

    it("leaves another provider's bookings untouched", async () => {
      const world = await suite.aWorld();
      const other = await suite.aWorld();
      const setUp = async (owner: World) => {
        const date = await suite.anEventDate(owner, { hours: 24 });
        const paperBook = await suite.aProduct(owner, { category: 'LIVRE_PAPIER' });
        const cd = await suite.aProduct(owner);
        const event = await suite.book(owner, date.stockId);
        const unpicked = await suite.book(owner, paperBook.stockId);
        const used = await suite.book(owner, cd.stockId);
        expect((await suite.countermark('use', used.token, owner.key)).status).toBe(204);
        return [event.id, unpicked.id, used.id];
      };
      const own = await setUp(world);
      const foreign = await setUp(other);
      const foreignBefore = await Promise.all(foreign.map(suite.stateOf));
      expect(await suite.runScheduledJobs(world, new Date(suite.now().getTime() + 40 * DAY))).toEqual({
        used: 1,
        expired: 1,
        reimbursed: 1,
      });
      expect((await Promise.all(own.map(suite.stateOf))).map((state) => state.status)).toEqual([
        'USED',
        'CANCELLED',
        'REIMBURSED',
      ]);
      expect(await Promise.all(foreign.map(suite.stateOf))).toEqual(foreignBefore);
      expect(foreignBefore.map((state) => state.status)).toEqual(['CONFIRMED', 'CONFIRMED', 'USED']);
    });

    it('needs a provider key (FORBIDDEN otherwise)', async () => {
      const fork = suite.em();
      const internal = issueApiKey(fork, suite.testApp.clock, { env: 'test', internal: true, label: 'back office' });
      await fork.flush();
      const answer = await suite.runScheduledJobsAs(internal.key, suite.now());
      expect(refusalOf(answer).code).toBe('FORBIDDEN');
    });
  });

  describe('through the scheduler', () => {
    it('bookings.autoUse marks event bookings USED 48 hours after the event, and not before', async () => {
      const world = await suite.aWorld();
      const date = await suite.anEventDate(world, { hours: 24 });
      const product = await suite.aProduct(world);
      const booked = await suite.book(world, date.stockId);
      const productBooking = await suite.book(world, product.stockId);
      suite.testApp.clock.advance(72 * HOUR - 1);
      await suite.testApp.runtime.scheduler.runNow('bookings.autoUse');
      expect(await suite.stateOf(booked.id)).toMatchObject({ status: 'CONFIRMED', dateUsed: null });
      suite.testApp.clock.advance(1);
      await suite.testApp.runtime.scheduler.runNow('bookings.autoUse');
      expect(await suite.stateOf(booked.id)).toMatchObject({
        status: 'USED',
        dateUsed: iso(suite.now()),
        reimbursementDate: null,
      });
      expect((await suite.storedBooking(productBooking.id)).status).toBe('CONFIRMED');
    });

    it('bookings.expireProducts cancels a book after 10 days and a CD after 30, with a refund', async () => {
      const world = await suite.aWorld();
      const beneficiaryId = await suite.aBeneficiaryOf(world);
      const paperBook = await suite.aProduct(world, { category: 'LIVRE_PAPIER', price: 1000 });
      const cd = await suite.aProduct(world, { price: 2000 });
      const bookBooking = await suite.book(world, paperBook.stockId, { beneficiaryId });
      const cdBooking = await suite.book(world, cd.stockId, { beneficiaryId });
      suite.testApp.clock.advance(10 * DAY - 1);
      await suite.testApp.runtime.scheduler.runNow('bookings.expireProducts');
      expect((await suite.storedBooking(bookBooking.id)).status).toBe('CONFIRMED');
      suite.testApp.clock.advance(1);
      await suite.testApp.runtime.scheduler.runNow('bookings.expireProducts');
      expect(await suite.stateOf(bookBooking.id)).toMatchObject({
        status: 'CANCELLED',
        cancellationReason: 'EXPIRED',
        cancellationDate: iso(suite.now()),
        credit: CREDIT - 2000,
        bookedQuantity: 0,
      });
      expect((await suite.storedBooking(cdBooking.id)).status).toBe('CONFIRMED');
      suite.testApp.clock.advance(20 * DAY);
      await suite.testApp.runtime.scheduler.runNow('bookings.expireProducts');
      expect(await suite.stateOf(cdBooking.id)).toMatchObject({
        status: 'CANCELLED',
        cancellationReason: 'EXPIRED',
        cancellationDate: iso(suite.now()),
        credit: CREDIT,
        bookedQuantity: 0,
      });
    });

    it('bookings.reimburse marks USED bookings REIMBURSED, and only them', async () => {
      const world = await suite.aWorld();
      const product = await suite.aProduct(world);
      const used = await suite.book(world, product.stockId);
      const confirmed = await suite.book(world, product.stockId);
      expect((await suite.countermark('use', used.token, world.key)).status).toBe(204);
      suite.testApp.clock.advance(HOUR);
      await suite.testApp.runtime.scheduler.runNow('bookings.reimburse');
      expect(await suite.stateOf(used.id)).toMatchObject({ status: 'REIMBURSED', reimbursementDate: iso(suite.now()) });
      expect((await suite.storedBooking(confirmed.id)).status).toBe('CONFIRMED');
    });
  });
});

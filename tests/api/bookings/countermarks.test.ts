import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { VenueProvider } from '../../../graphql/providers/VenueProvider.js';
import { expectStatus } from '../../support/api.js';
import {
  type Booked,
  books,
  CREDIT,
  HOUR,
  iso,
  useBookingWorld,
  type Verb,
  type World,
} from '../../support/bookingWorld.js';

const suite = useBookingWorld();

describe('countermarks', () => {
  /** One way of reaching a state of the table: each operation is tried on a fresh booking made so. */
  interface Row {
    name: string;
    /** Makes a booking in the row's state, at `price` (one place) for its own beneficiary. */
    setUp: (world: World) => Promise<{ booking: Booked; price: number; beneficiaryId: number }>;
  }
  const KEEP_NOTHING = 'This booking has not been validated: there is nothing to undo';
  const PAST_LIMIT = 'This event booking is past its cancellation limit: it can no longer be cancelled';
  const NOT_FOUND = { global: ['This countermark matches none of your bookings'] };

  /** GET token, or one of the countermark operations. */
  type Operation = 'get' | Verb;
  const attempt = (operation: Operation, token: string, key: string) =>
    operation === 'get' ? suite.byToken(token, key) : suite.countermark(operation, token, key);

  /** Each operation is refused with this status and message, and leaves the booking, credit and places as they were. */
  async function expectRefused(
    world: World,
    booking: Booked,
    operations: Operation[],
    refusal: { status: number; message: string },
  ) {
    const before = await suite.stateOf(booking.id);
    for (const operation of operations) {
      const response = await attempt(operation, booking.token, world.key);
      expect(response.status, operation).toBe(refusal.status);
      expect(response.body, operation).toEqual({ global: [refusal.message] });
    }
    expect(await suite.stateOf(booking.id)).toEqual(before);
  }

  /** GET token answers the booking (200): its body. */
  async function lookedUp(world: World, booking: Booked) {
    const response = await suite.byToken(booking.token, world.key);
    expectStatus(response, 200);
    return response.body;
  }

  /** A booking of one place at `price`, used just now. */
  const usedNow = (price: number) => ({
    status: 'USED',
    dateUsed: iso(suite.now()),
    cancellationDate: null,
    cancellationReason: null,
    reimbursementDate: null,
    credit: CREDIT - price,
    bookedQuantity: 1,
  });
  /** A booking cancelled by the offerer just now: refunded, its place given back. */
  const cancelledNow = () => ({
    status: 'CANCELLED',
    dateUsed: null,
    cancellationDate: iso(suite.now()),
    cancellationReason: 'OFFERER',
    reimbursementDate: null,
    credit: CREDIT,
    bookedQuantity: 0,
  });

  async function confirmedProduct(world: World) {
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    const product = await suite.aProduct(world, { price: 1500 });
    return { booking: await suite.book(world, product.stockId, { beneficiaryId }), price: 1500, beneficiaryId };
  }
  /** An event tomorrow: its cancellation limit (48 hours before it) has already passed. */
  async function confirmedEventPastLimit(world: World) {
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    const date = await suite.anEventDate(world, { hours: 24, price: 2000 });
    return { booking: await suite.book(world, date.stockId, { beneficiaryId }), price: 2000, beneficiaryId };
  }
  /** An event in ten days: cancellable for 48 hours after booking. */
  async function confirmedEventBeforeLimit(world: World) {
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    const date = await suite.anEventDate(world, { hours: 240, price: 2000 });
    return { booking: await suite.book(world, date.stockId, { beneficiaryId }), price: 2000, beneficiaryId };
  }
  /** Every CONFIRMED booking, however made: use marks it USED now, its credit spent and its place kept. */
  function useMarksItUsed(setUp: Row['setUp']) {
    it('use marks it USED now (204): credit and places unchanged', async () => {
      const world = await suite.aWorld();
      const { booking, price } = await setUp(world);
      expect((await suite.countermark('use', booking.token, world.key)).status).toBe(204);
      expect(await suite.stateOf(booking.id)).toEqual(usedNow(price));
    });
  }
  /** Every CONFIRMED booking, however made: keep has nothing to undo. */
  function keepIsRefused(setUp: Row['setUp']) {
    it('keep is refused (403): there is nothing to undo', async () => {
      const world = await suite.aWorld();
      const { booking } = await setUp(world);
      await expectRefused(world, booking, ['keep'], { status: 403, message: KEEP_NOTHING });
    });
  }

  describe('a CONFIRMED product', () => {
    it('GET token answers the booking (200), and changes nothing', async () => {
      const world = await suite.aWorld();
      const beneficiaryId = await suite.aBeneficiaryOf(world, {
        email: 'noa@example.com',
        firstName: 'Noa',
        lastName: 'Bernard',
        birthDate: '2007-09-30',
        phoneNumber: '0612345678',
        postalCode: '69003',
      });
      const product = await suite.aProduct(world, { category: 'LIVRE_PAPIER', price: 1234, ean: books[0].ean });
      const booked = await suite.book(world, product.stockId, { beneficiaryId });
      const before = await suite.stateOf(booked.id);
      expect(await lookedUp(world, booked)).toEqual({
        id: booked.id,
        status: 'CONFIRMED',
        quantity: 1,
        price: 1234,
        creationDate: iso(suite.now()),
        confirmationDate: null,
        offerId: product.offerId,
        offerName: 'A paper book',
        offerEan: books[0].ean,
        offerAddress: '4 Place Bellecour, 69002 Lyon',
        offerDepartmentCode: '69',
        stockId: product.stockId,
        priceCategoryId: null,
        priceCategoryLabel: null,
        venueId: suite.bookshop(),
        venueName: 'Librairie de la Démo',
        userEmail: 'noa@example.com',
        userFirstName: 'Noa',
        userLastName: 'Bernard',
        userBirthDate: '2007-09-30',
        // Answered in E.164, as pass Culture answers its beneficiaries' numbers.
        userPhoneNumber: '+33612345678',
        userPostalCode: '69003',
      });
      // The token is read case-insensitively.
      expect((await suite.byToken(booked.token.toLowerCase(), world.key)).body.id).toBe(booked.id);
      expect(await suite.stateOf(booked.id)).toEqual(before);
    });

    useMarksItUsed(confirmedProduct);

    keepIsRefused(confirmedProduct);

    it('cancel marks it CANCELLED (204): the credit refunded, the place given back, a CANCEL notification queued', async () => {
      const world = await suite.aWorld();
      const { booking } = await confirmedProduct(world);
      const response = await suite.countermark('cancel', booking.token, world.key);
      expect(response.status).toBe(204);
      expect(await suite.stateOf(booking.id)).toEqual(cancelledNow());
      expect(await suite.notificationsOf(booking.id)).toEqual(['BOOK', 'CANCEL']);
    });

    it('cancel gives both places of a duo back and refunds both', async () => {
      const world = await suite.aWorld();
      const beneficiaryId = await suite.aBeneficiaryOf(world);
      const date = await suite.anEventDate(world, {
        hours: 240,
        price: 3000,
        quantity: 5,
        offer: { enableDoubleBookings: true },
      });
      const booked = await suite.book(world, date.stockId, { quantity: 2, beneficiaryId });
      expect((await suite.countermark('cancel', booked.token, world.key)).status).toBe(204);
      expect(await suite.creditOf(beneficiaryId)).toBe(CREDIT);
      expect(await suite.bookedQuantityOf(date.stockId)).toBe(0);
    });
  });

  describe('a CONFIRMED event past its cancellation limit', () => {
    it('GET token answers it (200), with its cancellation limit as confirmationDate', async () => {
      const world = await suite.aWorld();
      const date = await suite.anEventDate(world, { hours: 24, price: 2000, label: 'Balcony' });
      const beneficiaryId = await suite.aBeneficiaryOf(world, {
        email: 'sam@example.com',
        firstName: 'Sam',
        lastName: 'Petit',
        birthDate: '2008-01-15',
      });
      const booked = await suite.book(world, date.stockId, { beneficiaryId });
      expect(await lookedUp(world, booked)).toEqual({
        id: booked.id,
        status: 'CONFIRMED',
        quantity: 1,
        price: 2000,
        creationDate: iso(suite.now()),
        // Booked a day before the event: firm at once.
        confirmationDate: iso(suite.now()),
        offerId: date.offerId,
        offerName: 'Concert at the demo theatre',
        offerEan: null,
        offerAddress: '12 Rue de Rivoli, 75004 Paris',
        offerDepartmentCode: '75',
        stockId: date.stockId,
        priceCategoryId: date.priceCategoryId,
        priceCategoryLabel: 'Balcony',
        venueId: suite.theatre(),
        venueName: 'Théâtre de la Démo',
        userEmail: 'sam@example.com',
        userFirstName: 'Sam',
        userLastName: 'Petit',
        userBirthDate: '2008-01-15',
        userPhoneNumber: null,
        userPostalCode: null,
      });
    });

    useMarksItUsed(confirmedEventPastLimit);

    keepIsRefused(confirmedEventPastLimit);

    it('cancel is refused (403): the booking is due', async () => {
      const world = await suite.aWorld();
      const { booking } = await confirmedEventPastLimit(world);
      await expectRefused(world, booking, ['cancel'], { status: 403, message: PAST_LIMIT });
      expect(await suite.notificationsOf(booking.id)).toEqual(['BOOK']);
    });
  });

  describe('a CONFIRMED event before its cancellation limit', () => {
    it('GET token and use are refused (403), saying until when; from the limit on, both are allowed', async () => {
      const world = await suite.aWorld();
      const { booking } = await confirmedEventBeforeLimit(world);
      const limit = iso(suite.at(48));
      expect(booking.cancellationLimitDate).toBe(limit);
      await expectRefused(world, booking, ['get', 'use'], {
        status: 403,
        message: `The beneficiary may still cancel this booking until ${limit}: validate it after that`,
      });

      suite.testApp.clock.advance(48 * HOUR - 1);
      expect((await suite.countermark('use', booking.token, world.key)).status).toBe(403);
      suite.testApp.clock.advance(1);
      expect((await suite.byToken(booking.token, world.key)).status).toBe(200);
      expect((await suite.countermark('use', booking.token, world.key)).status).toBe(204);
      expect(await suite.stateOf(booking.id)).toMatchObject({ status: 'USED', dateUsed: limit });
    });

    keepIsRefused(confirmedEventBeforeLimit);

    it('cancel marks it CANCELLED (204), refunded, the place given back; from the limit on, cancel is refused', async () => {
      const world = await suite.aWorld();
      const { booking } = await confirmedEventBeforeLimit(world);
      suite.testApp.clock.advance(48 * HOUR - 1);
      expect((await suite.countermark('cancel', booking.token, world.key)).status).toBe(204);
      expect(await suite.stateOf(booking.id)).toEqual(cancelledNow());
      expect(await suite.notificationsOf(booking.id)).toEqual(['BOOK', 'CANCEL']);

      const late = await confirmedEventBeforeLimit(world);
      suite.testApp.clock.advance(48 * HOUR);
      await expectRefused(world, late.booking, ['cancel'], { status: 403, message: PAST_LIMIT });
      suite.testApp.clock.advance(1);
    });
  });

  describe('a USED booking', () => {
    const rows: Row[] = [
      { name: 'product', setUp: confirmedProduct },
      { name: 'event', setUp: confirmedEventPastLimit },
    ];
    async function used(world: World, row: Row) {
      const made = await row.setUp(world);
      expect((await suite.countermark('use', made.booking.token, world.key)).status).toBe(204);
      return { ...made, usedAt: iso(suite.now()) };
    }

    /** A USED booking: GET token and use are gone (410), and its validation date stays. */
    async function goneOnceUsed(row: Row) {
      const world = await suite.aWorld();
      const { booking } = await used(world, row);
      suite.testApp.clock.advance(HOUR);
      await expectRefused(world, booking, ['get', 'use'], {
        status: 410,
        message: 'This booking has already been validated',
      });
    }
    /** A USED booking: keep turns it back to CONFIRMED (204), its credit still spent; it can be used again. */
    async function keptBack(row: Row) {
      const world = await suite.aWorld();
      const { booking, price } = await used(world, row);
      expect((await suite.countermark('keep', booking.token, world.key)).status).toBe(204);
      expect(await suite.stateOf(booking.id)).toEqual({
        status: 'CONFIRMED',
        dateUsed: null,
        cancellationDate: null,
        cancellationReason: null,
        reimbursementDate: null,
        credit: CREDIT - price,
        bookedQuantity: 1,
      });
      expect((await suite.countermark('use', booking.token, world.key)).status).toBe(204);
      expect((await suite.storedBooking(booking.id)).status).toBe('USED');
    }
    /** A USED booking cannot be cancelled (410) until its validation is undone. */
    async function notCancelledOnceUsed(row: Row) {
      const world = await suite.aWorld();
      const { booking } = await used(world, row);
      await expectRefused(world, booking, ['cancel'], {
        status: 410,
        message: 'This booking has already been validated: undo it (keep) first',
      });
    }
    const [product, event] = rows;

    it('(product) GET token and use are gone (410), and the validation date stays', () => goneOnceUsed(product));
    it('(event) GET token and use are gone (410), and the validation date stays', () => goneOnceUsed(event));
    it('(product) keep turns it back to CONFIRMED (204), then it can be used again', () => keptBack(product));
    it('(event) keep turns it back to CONFIRMED (204), then it can be used again', () => keptBack(event));
    it('(product) cancel is gone (410): undo the validation first', () => notCancelledOnceUsed(product));
    it('(event) cancel is gone (410): undo the validation first', () => notCancelledOnceUsed(event));
  });

  describe('a CANCELLED booking', () => {
    it('GET token, use, keep and cancel are gone (410); nothing is refunded twice', async () => {
      const world = await suite.aWorld();
      const { booking } = await confirmedProduct(world);
      expect((await suite.countermark('cancel', booking.token, world.key)).status).toBe(204);
      expect(await suite.stateOf(booking.id)).toMatchObject({ status: 'CANCELLED', credit: CREDIT, bookedQuantity: 0 });
      suite.testApp.clock.advance(HOUR);
      await expectRefused(world, booking, ['get', 'use', 'keep'], {
        status: 410,
        message: 'This booking has been cancelled',
      });
      await expectRefused(world, booking, ['cancel'], {
        status: 410,
        message: 'This booking has already been cancelled',
      });
      expect(await suite.notificationsOf(booking.id)).toEqual(['BOOK', 'CANCEL']);
    });

    it('an event cancelled within its period is gone too (410)', async () => {
      const world = await suite.aWorld();
      const { booking } = await confirmedEventBeforeLimit(world);
      expect((await suite.countermark('cancel', booking.token, world.key)).status).toBe(204);
      for (const operation of ['use', 'keep', 'cancel', 'get'] as const)
        expect((await attempt(operation, booking.token, world.key)).status).toBe(410);
    });
  });

  describe('a REIMBURSED booking', () => {
    it('GET token, use, keep and cancel are refused (403), and nothing changes', async () => {
      const world = await suite.aWorld();
      const product = await confirmedProduct(world);
      const event = await confirmedEventPastLimit(world);
      for (const { booking } of [product, event])
        expect((await suite.countermark('use', booking.token, world.key)).status).toBe(204);
      expect(await suite.runScheduledJobs(world, suite.now())).toEqual({ used: 0, expired: 0, reimbursed: 2 });
      for (const { booking } of [product, event]) {
        expect(await suite.stateOf(booking.id)).toMatchObject({
          status: 'REIMBURSED',
          reimbursementDate: iso(suite.now()),
          dateUsed: iso(suite.now()),
        });
        await expectRefused(world, booking, ['get', 'use', 'keep', 'cancel'], {
          status: 403,
          message: 'This booking has been reimbursed',
        });
      }
    });
  });

  describe('an unknown token, or another provider’s', () => {
    it('is not found (404) by GET token, use, keep and cancel; the other provider’s booking is untouched', async () => {
      const world = await suite.aWorld();
      const other = await suite.aWorld();
      const foreign = await confirmedProduct(other);
      const before = await suite.stateOf(foreign.booking.id);
      for (const token of ['ZZZZZZ', foreign.booking.token, foreign.booking.token.toLowerCase()]) {
        for (const operation of ['get', 'use', 'keep', 'cancel'] as const) {
          const response = await attempt(operation, token, world.key);
          expect(response.status, operation).toBe(404);
          expect(response.body, operation).toEqual(NOT_FOUND);
        }
      }
      expect(await suite.stateOf(foreign.booking.id)).toEqual(before);
      // Its own provider still reaches it.
      expect((await suite.byToken(foreign.booking.token, other.key)).status).toBe(200);
    });

    it('is not found (404) once the provider’s link to the venue is deactivated: GET token, use, keep, cancel and the list', async () => {
      const world = await suite.aWorld();
      const product = await suite.aProduct(world, { price: 1500 });
      const { token, id } = await suite.book(world, product.stockId);
      const link = { provider: world.providerId, venue: suite.bookshop() };
      const before = await suite.stateOf(id);
      await suite.em().nativeUpdate(VenueProvider, link, { isActive: false });
      try {
        for (const operation of ['get', 'use', 'keep', 'cancel'] as const) {
          const response = await attempt(operation, token, world.key);
          expect(response.status, operation).toBe(404);
          expect(response.body, operation).toEqual(NOT_FOUND);
        }
        const list = await suite.list({ offerId: product.offerId }, world.key);
        expect(list.status).toBe(404);
        expect(list.body).toEqual({ global: ['Offer not found'] });
        expect(await suite.stateOf(id)).toEqual(before);
      } finally {
        await suite.em().nativeUpdate(VenueProvider, link, { isActive: true });
      }
      // Linked again, the provider reaches its booking again.
      expect((await suite.byToken(token, world.key)).status).toBe(200);
      expect((await suite.list({ offerId: product.offerId }, world.key)).status).toBe(200);
    });

    it('answers 404 to GET token, use, keep and cancel without a token in the path', async () => {
      const world = await suite.aWorld();
      const calls = [
        request(suite.testApp.app).get('/public/bookings/v1/token/'),
        request(suite.testApp.app).patch('/public/bookings/v1/use/token/'),
        request(suite.testApp.app).patch('/public/bookings/v1/keep/token/'),
        request(suite.testApp.app).patch('/public/bookings/v1/cancel/token/'),
      ];
      for (const call of calls) {
        const response = await call.set('Authorization', `Bearer ${world.key}`);
        expect(response.status).toBe(404);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
      }
    });

    it('is malformed (422 on token) when it holds NUL, which no database stores: once a 500 (fuzzer)', async () => {
      const world = await suite.aWorld();
      for (const operation of ['get', 'use', 'keep', 'cancel'] as const) {
        const response = await attempt(operation, 'AB\u0000CD', world.key);
        expect(response.status, operation).toBe(422);
        expect(response.body[0].loc, operation).toEqual(['token']);
      }
    });
  });

  describe('without an API key', () => {
    it('answers 401 without a key to GET token, use, keep, cancel and the list, and changes nothing', async () => {
      const world = await suite.aWorld();
      const product = await suite.aProduct(world, { price: 1500 });
      const booked = await suite.book(world, product.stockId);
      const before = await suite.stateOf(booked.id);
      for (const key of [null, 'test_unknown_key']) {
        const answers = [
          await suite.api.call('GetBookingByToken', { params: { token: booked.token }, key }),
          await suite.api.call('ValidateBookingByToken', { params: { token: booked.token }, key }),
          await suite.api.call('CancelBookingValidationByToken', { params: { token: booked.token }, key }),
          await suite.api.call('CancelBookingByToken', { params: { token: booked.token }, key }),
          await suite.api.call('GetBookingsByOffer', { query: { offerId: product.offerId }, key }),
        ];
        for (const answer of answers) {
          expect(answer.status).toBe(401);
          if (key === null) expect(answer.body).toEqual({ auth: 'API key required' });
        }
      }
      expect(await suite.stateOf(booked.id)).toEqual(before);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { Booking } from '../../../graphql/bookings/Booking.js';
import { ProviderMessage } from '../../../graphql/bookings/ProviderMessage.js';
import { Stock } from '../../../graphql/offers/Stock.js';
import { issueApiKey } from '../../../graphql/providers/apiKeys.js';
import { Offerer } from '../../../graphql/providers/Offerer.js';
import { Provider } from '../../../graphql/providers/Provider.js';
import { type Booked, CREDIT, refusalOf, useBookingWorld } from '../../support/bookingWorld.js';

const suite = useBookingWorld();

describe('concurrent operations on one booking', () => {
  it('concurrent cancellations cancel it once: one 204, the others 410, one place given back', async () => {
    const world = await suite.aWorld();
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    const product = await suite.aProduct(world, { price: 1000, quantity: 20 });
    const someoneElse = await suite.aBeneficiaryOf(world);
    for (let index = 0; index < 3; index += 1) await suite.book(world, product.stockId, { beneficiaryId: someoneElse });
    const booked = await suite.book(world, product.stockId, { beneficiaryId });
    expect(await suite.bookedQuantityOf(product.stockId)).toBe(4);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => suite.countermark('cancel', booked.token, world.key)),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([204, 410, 410, 410, 410]);
    expect(await suite.stateOf(booked.id)).toMatchObject({ status: 'CANCELLED', credit: CREDIT, bookedQuantity: 3 });
    expect(await suite.notificationsOf(booked.id)).toEqual(['BOOK', 'CANCEL']);
  });

  it('a validation racing a cancellation leaves one consistent outcome', async () => {
    const world = await suite.aWorld();
    for (let round = 0; round < 10; round += 1) {
      const beneficiaryId = await suite.aBeneficiaryOf(world);
      const product = await suite.aProduct(world, { price: 1000 });
      const booked = await suite.book(world, product.stockId, { beneficiaryId });
      const [use, cancel] = await Promise.all([
        suite.countermark('use', booked.token, world.key),
        suite.countermark('cancel', booked.token, world.key),
      ]);
      const state = await suite.stateOf(booked.id);
      const outcome = `${use.status}/${cancel.status}`;
      if (state.status === 'USED') {
        expect(outcome).toBe('204/410');
        expect(state, outcome).toMatchObject({ cancellationDate: null, credit: CREDIT - 1000, bookedQuantity: 1 });
      } else {
        expect(outcome).toBe('410/204');
        expect(state, outcome).toMatchObject({
          status: 'CANCELLED',
          dateUsed: null,
          credit: CREDIT,
          bookedQuantity: 0,
        });
      }
    }
  });

  it("a cancellation racing a new booking of the same beneficiary loses neither's credit change", async () => {
    const world = await suite.aWorld();
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    const product = await suite.aProduct(world, { price: 500, quantity: null });
    const toCancel: Booked[] = [];
    for (let index = 0; index < 20; index += 1)
      toCancel.push(await suite.book(world, product.stockId, { beneficiaryId }));
    await Promise.all(
      toCancel.map((booked) =>
        Promise.all([
          suite.countermark('cancel', booked.token, world.key),
          suite.bookRaw(world, product.stockId, { beneficiaryId }),
        ]),
      ),
    );
    const live = await suite.em().find(Booking, { beneficiary: beneficiaryId, status: 'CONFIRMED' });
    expect(await suite.creditOf(beneficiaryId)).toBe(
      CREDIT - live.reduce((total, booking) => total + booking.amount * booking.quantity, 0),
    );
  });
});

describe('scope and races found in review', () => {
  it("keeps a key on its own offerer's bookings: another offerer's key of the same provider gets 404", async () => {
    const world = await suite.aWorld();
    const { stockId } = await suite.aProduct(world);
    const booked = await suite.book(world, stockId);
    const fork = suite.em();
    const otherOfferer = fork.create(Offerer, {
      name: 'Another offerer of the provider',
      siren: '732829320',
      allowedOnAdage: false,
      createdDatetime: suite.now(),
    });
    const { key: otherKey } = issueApiKey(fork, suite.testApp.clock, {
      env: 'test',
      provider: fork.getReference(Provider, world.providerId),
      offerer: otherOfferer,
    });
    await fork.flush();

    expect((await suite.byToken(booked.token, otherKey)).status).toBe(404);
    expect((await suite.countermark('cancel', booked.token, otherKey)).status).toBe(404);
    expect(refusalOf(await suite.graph(otherKey, `query { booking(id: ${booked.id}) { id } }`)).code).toBe('NOT_FOUND');
    expect(refusalOf(await suite.bookRaw({ ...world, key: otherKey }, stockId)).code).toBe('NOT_FOUND');
    expect((await suite.storedBooking(booked.id)).status).toBe('CONFIRMED');
  });

  it('cancels and refunds a product not picked up once, however many expiry runs race', async () => {
    const world = await suite.aWorld();
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    const { stockId } = await suite.aProduct(world, { category: 'LIVRE_PAPIER', price: 1000 });
    const booked = await suite.book(world, stockId, { beneficiaryId });
    const runs = await Promise.all(Array.from({ length: 4 }, () => suite.runScheduledJobs(world, suite.at(11 * 24))));
    expect(runs.reduce((total, run) => total + run.expired, 0)).toBe(1);
    expect((await suite.storedBooking(booked.id)).status).toBe('CANCELLED');
    expect(await suite.creditOf(beneficiaryId)).toBe(CREDIT);
    expect((await suite.em().findOneOrFail(Stock, stockId)).bookedQuantity).toBe(0);
    const cancellations = await suite.em().find(ProviderMessage, {
      booking: booked.id,
      body: { $like: '%"action":"CANCEL"%' },
    });
    expect(cancellations).toHaveLength(1);
  });

  it('lets a use and an expiry run race into one consistent state', async () => {
    const world = await suite.aWorld();
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    const { stockId } = await suite.aProduct(world, { category: 'LIVRE_PAPIER', price: 1000 });
    const booked = await suite.book(world, stockId, { beneficiaryId });
    const [use] = await Promise.all([
      suite.countermark('use', booked.token, world.key),
      suite.runScheduledJobs(world, suite.at(11 * 24)),
    ]);
    const stored = await suite.storedBooking(booked.id);
    if (use.status === 204) {
      // Used before the run: the run may even reimburse it; never cancelled.
      expect(['USED', 'REIMBURSED']).toContain(stored.status);
      expect(await suite.creditOf(beneficiaryId)).toBe(CREDIT - 1000);
    } else {
      expect(use.status).toBe(410);
      expect(stored.status).toBe('CANCELLED');
      expect(await suite.creditOf(beneficiaryId)).toBe(CREDIT);
    }
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Beneficiary, INITIAL_CREDIT_CENTS } from '../../graphql/bookings/Beneficiary.js';
import { Booking } from '../../graphql/bookings/Booking.js';
import { BookingTicket } from '../../graphql/bookings/BookingTicket.js';
import { ProviderMessage } from '../../graphql/bookings/ProviderMessage.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { aBookableDate, drainJobs, graphqlAs } from '../support/builders.js';
import { isPostgresTestRun } from '../support/database.js';
import type { createSandbox } from '../support/fixtures.js';
import { aSandboxWithReceiver, type Receiver } from '../support/receiver.js';

let showCounter = 0;

const BOOK = `mutation Book($input: SandboxBookingInput!) {
  sandboxBook(input: $input) { id token status quantity }
}`;

interface BookAnswer {
  data: { sandboxBook: { id: number; token: string; status: string; quantity: number } } | null;
  errors?: { message: string; extensions: { code: string } }[];
}

/**
 * Many bookings at once, each its own request (and so its own transaction), on few places or
 * little credit: the conditional updates must let exactly as many through as there is room for.
 * On PostgreSQL the requests run on separate connections, truly at the same time; on SQLite
 * (one writer) they interleave between statements.
 */
describe(`Concurrent bookings (${isPostgresTestRun() ? 'PostgreSQL' : 'SQLite'})`, () => {
  let testApp: TestApp;
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  let receiver: Receiver;

  const em = () => testApp.database.orm.em.fork();
  const book = async (stockId: number, beneficiaryId: number, quantity = 1): Promise<BookAnswer> => {
    const response = await graphqlAs(testApp, sandbox.apiKey, BOOK, { input: { stockId, quantity, beneficiaryId } });
    expect(response.status).toBe(200);
    return response.body as BookAnswer;
  };

  /** Beneficiaries written directly: only the bookings go through the API. */
  async function beneficiaries(count: number, credit = INITIAL_CREDIT_CENTS): Promise<Beneficiary[]> {
    const fork = em();
    const created = Array.from({ length: count }, (_, index) =>
      fork.create(Beneficiary, {
        provider: sandbox.provider.id,
        email: `rush${showCounter}.${index}@example.com`,
        firstName: 'Rush',
        lastName: `Number ${index}`,
        birthDate: '2007-01-01',
        credit,
        createdAt: testApp.clock.now(),
      }),
    );
    await fork.flush();
    return created;
  }

  /** An event with `dates` dates of `places` places each (null: unlimited), at `price`. */
  async function anEventWithDates(options: {
    places: number | null;
    price: number;
    dates?: number;
    hasTicket?: boolean;
  }): Promise<{ stocks: Stock[] }> {
    const owner = { providerId: sandbox.provider.id, venueId: sandbox.venues[0].id };
    /** Date `index` begins in 10 + index days, and can be booked until the day before. */
    const dateAt = (index: number) => ({
      hours: (10 + index) * 24,
      bookingLimitHours: (9 + index) * 24,
      quantity: options.places,
    });
    const first = await aBookableDate(em(), testApp.clock, owner, {
      ...dateAt(0),
      price: options.price,
      label: 'Pit',
      offer: {
        name: 'Very popular concert',
        hasTicket: options.hasTicket ?? false,
        enableDoubleBookings: true,
        idAtProvider: `rush-${(showCounter += 1)}`,
      },
    });
    const stocks = [first.stock];
    for (let index = 1; index < (options.dates ?? 1); index += 1) {
      const more = { ...dateAt(index), offerId: first.offerId, priceCategoryId: first.category.id };
      stocks.push((await aBookableDate(em(), testApp.clock, owner, more)).stock);
    }
    return { stocks };
  }

  const succeeded = (answers: BookAnswer[]) => answers.filter((answer) => answer.data?.sandboxBook);
  const refused = (answers: BookAnswer[]) => answers.filter((answer) => !answer.data?.sandboxBook);

  beforeAll(async () => {
    testApp = await createTestApp();
    ({ sandbox, receiver } = await aSandboxWithReceiver(testApp));
  });
  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });
  beforeEach(() => receiver.reset());

  it('lets exactly 7 of 40 simultaneous bookings through on a stock of 7 places, and refuses the others clearly', async () => {
    const { stocks } = await anEventWithDates({ places: 7, price: 1_000 });
    const stock = stocks[0];
    const people = await beneficiaries(40);

    const answers = await Promise.all(people.map((beneficiary) => book(stock.id, beneficiary.id)));

    expect(succeeded(answers)).toHaveLength(7);
    expect(refused(answers)).toHaveLength(33);
    for (const answer of refused(answers)) {
      expect(answer.data).toBeNull();
      expect(answer.errors).toHaveLength(1);
      expect(answer.errors![0].extensions.code).toBe('BAD_REQUEST');
      expect(answer.errors![0].message).toBe('No places left on this stock');
    }

    const fork = em();
    const stored = await fork.findOneOrFail(Stock, stock.id);
    expect({ quantity: stored.quantity, bookedQuantity: stored.bookedQuantity }).toEqual({
      quantity: 7,
      bookedQuantity: 7,
    });
    const bookings = await fork.find(Booking, { stock: stock.id });
    expect(bookings).toHaveLength(7);
    expect(bookings.every((booking) => booking.status === 'CONFIRMED' && booking.quantity === 1)).toBe(true);
    expect(new Set(bookings.map((booking) => booking.token)).size).toBe(7);
    expect(new Set(bookings.map((booking) => booking.beneficiary.id)).size).toBe(7);
    expect(bookings.map((booking) => booking.id).sort()).toEqual(
      succeeded(answers)
        .map((answer) => answer.data!.sandboxBook.id)
        .sort(),
    );

    // Only the winners paid, and each once.
    const winners = new Set(bookings.map((booking) => booking.beneficiary.id));
    for (const beneficiary of await fork.find(Beneficiary, { id: { $in: people.map((person) => person.id) } })) {
      expect(beneficiary.credit).toBe(
        winners.has(beneficiary.id) ? INITIAL_CREDIT_CENTS - 1_000 : INITIAL_CREDIT_CENTS,
      );
    }
    // One BOOK notification per booking made, none for a refusal.
    const messages = await fork.find(ProviderMessage, { booking: { $in: bookings.map((booking) => booking.id) } });
    expect(messages.map((message) => message.booking!.id).sort()).toEqual(bookings.map((booking) => booking.id).sort());
    expect(await fork.count(ProviderMessage, { booking: null })).toBe(0);

    // Sold out now: one more is refused the same way.
    const late = await book(stock.id, people[0].id);
    expect(late.errors![0].message).toBe('No places left on this stock');
  });

  it('never oversells duo bookings either: 3 duos of 20 on 7 places, then the last single place', async () => {
    const { stocks } = await anEventWithDates({ places: 7, price: 500 });
    const stock = stocks[0];
    const people = await beneficiaries(21);

    const answers = await Promise.all(people.slice(0, 20).map((beneficiary) => book(stock.id, beneficiary.id, 2)));

    expect(succeeded(answers)).toHaveLength(3);
    expect(refused(answers).map((answer) => answer.errors![0].message)).toEqual(
      Array(17).fill('No places left on this stock'),
    );
    expect((await em().findOneOrFail(Stock, stock.id)).bookedQuantity).toBe(6);

    const last = await book(stock.id, people[20].id, 1);
    expect(last.errors).toBeUndefined();
    const stored = await em().findOneOrFail(Stock, stock.id);
    expect({ quantity: stored.quantity, bookedQuantity: stored.bookedQuantity }).toEqual({
      quantity: 7,
      bookedQuantity: 7,
    });
    expect(await em().count(Booking, { stock: stock.id })).toBe(4);
  });

  it('never makes a credit negative: 20 simultaneous bookings of one beneficiary on 20 dates, 7 affordable', async () => {
    // 300 euros of credit, 40 euros a place: 7 places (280 euros) and 20 euros left.
    const { stocks } = await anEventWithDates({ places: null, price: 4_000, dates: 20 });
    const [beneficiary] = await beneficiaries(1);

    const answers = await Promise.all(stocks.map((stock) => book(stock.id, beneficiary.id)));

    expect(succeeded(answers)).toHaveLength(7);
    expect(refused(answers)).toHaveLength(13);
    for (const answer of refused(answers)) {
      expect(answer.errors![0].extensions.code).toBe('BAD_REQUEST');
      // Refused before the transaction (the credit already read too low) or in it (the conditional update).
      expect(answer.errors![0].message).toMatch(/^Not enough credit/);
    }
    const fork = em();
    expect((await fork.findOneOrFail(Beneficiary, beneficiary.id)).credit).toBe(INITIAL_CREDIT_CENTS - 7 * 4_000);
    const bookings = await fork.find(Booking, { beneficiary: beneficiary.id });
    expect(bookings).toHaveLength(7);
    expect(bookings.reduce((total, booking) => total + booking.amount * booking.quantity, 0)).toBe(7 * 4_000);
    const booked = await fork.find(Stock, { id: { $in: stocks.map((stock) => stock.id) } });
    expect(booked.reduce((total, stock) => total + stock.bookedQuantity, 0)).toBe(7);
  });

  it('never overspends when duo and single bookings of one beneficiary race on one unlimited date', async () => {
    // 300 euros; duos of 2 x 35 and singles of 35 euros: at most 8 places (280 euros).
    const { stocks } = await anEventWithDates({ places: null, price: 3_500 });
    const [beneficiary] = await beneficiaries(1);

    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, index) => book(stocks[0].id, beneficiary.id, index % 2 === 0 ? 2 : 1)),
    );

    const fork = em();
    const credit = (await fork.findOneOrFail(Beneficiary, beneficiary.id)).credit;
    const bookings = await fork.find(Booking, { beneficiary: beneficiary.id });
    const spent = bookings.reduce((total, booking) => total + booking.amount * booking.quantity, 0);
    expect(credit).toBeGreaterThanOrEqual(0);
    expect(credit).toBeLessThan(3_500);
    expect(credit + spent).toBe(INITIAL_CREDIT_CENTS);
    expect(succeeded(answers)).toHaveLength(bookings.length);
    expect((await fork.findOneOrFail(Stock, stocks[0].id)).bookedQuantity).toBe(
      bookings.reduce((total, booking) => total + booking.quantity, 0),
    );
  });

  it('with tickets: 12 simultaneous bookings, each issued there with "none left after this one": keep 1 and cancel the 11 others’ tickets', async () => {
    const { stocks } = await anEventWithDates({ places: 3, price: 1_500, hasTicket: true });
    const stock = stocks[0];
    const people = await beneficiaries(12);
    let issued = 0;
    // Each answer says nothing is left: the first booking recorded closes the date to the others.
    receiver.answer('/booking', () => {
      issued += 1;
      const barcode = `RUSH-${String(issued).padStart(2, '0')}`;
      return { status: 200, json: { tickets: [{ barcode, seat: null }], remainingQuantity: 0 } };
    });

    const answers = await Promise.all(people.map((beneficiary) => book(stock.id, beneficiary.id)));

    expect(receiver.to('/booking')).toHaveLength(12);
    expect(receiver.to('/booking').every((received) => received.signatureValid)).toBe(true);
    expect(succeeded(answers)).toHaveLength(1);
    expect(refused(answers).map((answer) => answer.errors![0].message)).toEqual(
      Array(11).fill('No places left on this stock'),
    );
    const fork = em();
    const stored = await fork.findOneOrFail(Stock, stock.id);
    expect([stored.bookedQuantity, stored.quantity]).toEqual([1, 1]);
    const bookings = await fork.find(Booking, { stock: stock.id });
    const kept = (await fork.find(BookingTicket, { booking: { $in: bookings.map((booking) => booking.id) } })).map(
      (ticket) => ticket.barcode,
    );
    expect(kept).toHaveLength(1);

    await drainJobs(testApp);

    // Every ticket issued is either kept by a booking or cancelled at the ticketing system, never both.
    const cancellations = receiver.to('/cancel');
    expect(cancellations).toHaveLength(11);
    expect(cancellations.every((received) => received.signatureValid)).toBe(true);
    const cancelled = cancellations.flatMap((received) => received.body.barcodes as string[]);
    const allIssued = Array.from({ length: 12 }, (_, index) => `RUSH-${String(index + 1).padStart(2, '0')}`);
    expect([...kept, ...cancelled].sort()).toEqual(allIssued);
  });
});

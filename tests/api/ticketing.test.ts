import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Beneficiary } from '../../graphql/bookings/Beneficiary.js';
import { Booking } from '../../graphql/bookings/Booking.js';
import { BookingTicket } from '../../graphql/bookings/BookingTicket.js';
import { SEND_MESSAGE_JOB } from '../../graphql/bookings/messages.js';
import { ProviderMessage } from '../../graphql/bookings/ProviderMessage.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { Job } from '../../platform/jobs/Job.js';
import { hasValidSignature } from '../../platform/messaging/signature.js';
import { PROVIDER_CALL_TIMEOUT_MS } from '../../platform/messaging/signedPost.js';
import { apiClient, type ApiClient } from '../support/api.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { aBeneficiary, aBookableDate, drainJobs, graphqlAs } from '../support/builders.js';
import type { createSandbox } from '../support/fixtures.js';
import { aSandboxWithReceiver, expectedSignature, expectSigned, type Receiver } from '../support/receiver.js';

const DAY = 86_400_000;
let showCounter = 0;
const PRICE = 2_500;
/** A datetime as pass Culture's messages carry it: UTC, to the second, no zone. */
const asSent = (date: Date) => date.toISOString().slice(0, 19);

const BOOK = `mutation Book($input: SandboxBookingInput!) {
  sandboxBook(input: $input) { id token status quantity amount stockId tickets { barcode seat } }
}`;

describe('Ticketing: booking an event with tickets at the provider’s system', () => {
  let testApp: TestApp;
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  let receiver: Receiver;
  let api: ApiClient;

  const em = () => testApp.database.orm.em.fork();
  const graphql = (key: string, query: string, variables?: Record<string, unknown>) =>
    graphqlAs(testApp, key, query, variables);
  const book = async (stockId: number, beneficiaryId: number, quantity = 1) => {
    const response = await graphql(sandbox.apiKey, BOOK, { input: { stockId, quantity, beneficiaryId } });
    expect(response.status).toBe(200);
    return response.body as {
      data: { sandboxBook: any } | null;
      errors?: { message: string; extensions: { code: string } }[];
    };
  };
  const runJobs = () => drainJobs(testApp);
  const aSandboxBeneficiary = () =>
    aBeneficiary(testApp, sandbox.apiKey, {
      firstName: 'Léa',
      lastName: 'Billet',
      birthDate: '2007-03-09',
      phoneNumber: '+33 6 12 34 56 78',
      postalCode: '75011',
    });

  /** A published duo event with tickets at a venue of the sandbox, one price category and one date, in 10 days. */
  async function aTicketedDate(options: { places: number; booked?: number; venueIndex?: number }) {
    const idAtProvider = `show-${(showCounter += 1)}`;
    const { offerId, category, stock } = await aBookableDate(
      em(),
      testApp.clock,
      { providerId: sandbox.provider.id, venueId: sandbox.venues[options.venueIndex ?? 0].id },
      {
        hours: 10 * 24,
        bookingLimitHours: 9 * 24,
        price: PRICE,
        quantity: options.places,
        bookedQuantity: options.booked,
        categoryIdAtProvider: 'cat-orchestra',
        idAtProvider: 'date-at-provider',
        offer: { name: 'Ticketed concert', hasTicket: true, enableDoubleBookings: true, idAtProvider },
      },
    );
    return { event: { id: offerId, idAtProvider }, category, stock };
  }
  const cancel = (token: string) => api.call('CancelBookingByToken', { params: { token } });

  /** Everything a booking attempt could write, to compare before and after a refusal. */
  async function written(stockId: number, beneficiaryId: number) {
    const fork = em();
    const stock = await fork.findOneOrFail(Stock, stockId);
    const beneficiary = await fork.findOneOrFail(Beneficiary, beneficiaryId);
    return {
      stock: { quantity: stock.quantity, bookedQuantity: stock.bookedQuantity },
      credit: beneficiary.credit,
      bookings: await fork.count(Booking, {}),
      tickets: await fork.count(BookingTicket, {}),
      // Queued messages: the ticketing calls a request made are recorded too, as synchronous ones.
      messages: await fork.count(ProviderMessage, { synchronous: false }),
      jobs: await fork.count(Job, { type: SEND_MESSAGE_JOB }),
    };
  }

  const tickets = (...barcodes: string[]) => barcodes.map((barcode, index) => ({ barcode, seat: `A${index + 1}` }));

  beforeAll(async () => {
    testApp = await createTestApp();
    ({ sandbox, receiver } = await aSandboxWithReceiver(testApp));
    api = apiClient(testApp.app, sandbox.apiKey);
  });
  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });
  beforeEach(() => receiver.reset());

  it('books at the ticketing system: tickets stored and shown as the countermark, stock set to what is left there, credit debited', async () => {
    const { event, category, stock } = await aTicketedDate({ places: 50 });
    const beneficiary = await aSandboxBeneficiary();
    receiver.answer('/booking', {
      status: 200,
      json: { tickets: tickets('TKT-0001', 'TKT-0002'), remainingQuantity: 40 },
    });

    const answer = await book(stock.id, beneficiary.id, 2);

    expect(answer.errors).toBeUndefined();
    const booked = answer.data!.sandboxBook;
    expect(booked).toMatchObject({ status: 'CONFIRMED', quantity: 2, amount: PRICE, stockId: stock.id });
    expect(booked.token).toMatch(/^[A-Z2-9]{6}$/);
    expect(booked.tickets).toEqual([
      { barcode: 'TKT-0001', seat: 'A1' },
      { barcode: 'TKT-0002', seat: 'A2' },
    ]);

    // One signed call, with what the ticketing system needs to issue the tickets.
    expect(receiver.requests.map((received) => received.path)).toEqual(['/booking']);
    expectSigned(receiver.requests);
    const now = testApp.clock.now();
    // pass Culture's flat message, key for key: no more, no less.
    expect(receiver.requests[0].body).toEqual({
      booking_confirmation_date: asSent(new Date(now.getTime() + 2 * DAY)),
      booking_creation_date: asSent(now),
      booking_quantity: 2,
      offer_ean: null,
      offer_id: event.id,
      offer_id_at_provider: event.idAtProvider,
      offer_name: 'Ticketed concert',
      offer_price: PRICE,
      price_category_id: category.id,
      price_category_id_at_provider: 'cat-orchestra',
      price_category_label: 'Orchestra',
      stock_id: stock.id,
      stock_id_at_provider: 'date-at-provider',
      user_birth_date: '2007-03-09',
      user_email: beneficiary.email,
      user_first_name: 'Léa',
      user_last_name: 'Billet',
      user_phone: '+33612345678',
      venue_address: '12 Rue de Rivoli',
      venue_department_code: '75',
      venue_id: sandbox.venues[0].id,
      venue_name: 'Demo Theatre',
    });
    expect(receiver.requests[0].body.booking_creation_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);

    // The countermark of a ticketing booking is its tickets, read back through the graph.
    const read = await graphql(
      sandbox.apiKey,
      'query ($id: Int!) { booking(id: $id) { id token tickets { barcode seat } } }',
      { id: booked.id },
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.booking).toEqual({ id: booked.id, token: booked.token, tickets: booked.tickets });

    const fork = em();
    const stored = await fork.findOneOrFail(Stock, stock.id);
    expect({ quantity: stored.quantity, bookedQuantity: stored.bookedQuantity }).toEqual({
      quantity: 42,
      bookedQuantity: 2,
    });
    expect(
      (await fork.find(BookingTicket, { booking: booked.id }, { orderBy: { id: 'asc' } })).map((ticket) => [
        ticket.barcode,
        ticket.seat,
      ]),
    ).toEqual([
      ['TKT-0001', 'A1'],
      ['TKT-0002', 'A2'],
    ]);
    expect((await fork.findOneOrFail(Beneficiary, beneficiary.id)).credit).toBe(beneficiary.credit - 2 * PRICE);
    // A ticketing booking is told to the provider by its booking call: no BOOK notification besides.
    expect(await fork.count(ProviderMessage, { booking: booked.id, synchronous: false })).toBe(0);
    await runJobs();
    expect(receiver.requests).toHaveLength(1);
  });

  it('makes the date unlimited when the answer’s remainingQuantity is null, and stores a ticket without a seat', async () => {
    const { event, stock } = await aTicketedDate({ places: 12 });
    const beneficiary = await aSandboxBeneficiary();
    receiver.answer('/booking', {
      status: 200,
      json: { tickets: [{ barcode: 'NO-SEAT-1' }], remainingQuantity: null },
    });

    const answer = await book(stock.id, beneficiary.id);

    expect(answer.errors).toBeUndefined();
    expect(answer.data!.sandboxBook.tickets).toEqual([{ barcode: 'NO-SEAT-1', seat: null }]);
    const stored = await em().findOneOrFail(Stock, stock.id);
    expect({ quantity: stored.quantity, bookedQuantity: stored.bookedQuantity }).toEqual({
      quantity: null,
      bookedQuantity: 1,
    });
    const dates = await api.call('GetEventStocks', { params: { event_id: event.id } });
    expect(dates.status).toBe(200);
    expect(dates.body.dates.map((date: any) => [date.id, date.quantity, date.bookedQuantity])).toEqual([
      [stock.id, 'unlimited', 1],
    ]);
  });

  it('accepts any 2xx answer with tickets: a 201 Created books', async () => {
    const { stock } = await aTicketedDate({ places: 30 });
    const beneficiary = await aSandboxBeneficiary();
    receiver.answer('/booking', { status: 201, json: { tickets: tickets('CREATED-1'), remainingQuantity: 8 } });

    const answer = await book(stock.id, beneficiary.id);

    expect(answer.errors).toBeUndefined();
    expect(answer.data!.sandboxBook).toMatchObject({
      status: 'CONFIRMED',
      tickets: [{ barcode: 'CREATED-1', seat: 'A1' }],
    });
    const stored = await em().findOneOrFail(Stock, stock.id);
    expect({ quantity: stored.quantity, bookedQuantity: stored.bookedQuantity }).toEqual({
      quantity: 9,
      bookedQuantity: 1,
    });
  });

  it('keeps the second of two tickets issued for one place, and cancels the first there', async () => {
    const { stock } = await aTicketedDate({ places: 30 });
    const beneficiary = await aSandboxBeneficiary();
    receiver.answer('/booking', {
      status: 200,
      json: { tickets: tickets('EXTRA-1', 'KEPT-2'), remainingQuantity: 10 },
    });

    const answer = await book(stock.id, beneficiary.id, 1);

    expect(answer.errors).toBeUndefined();
    const booked = answer.data!.sandboxBook;
    expect(booked.tickets).toEqual([{ barcode: 'KEPT-2', seat: 'A2' }]);
    const fork = em();
    expect((await fork.find(BookingTicket, { booking: booked.id })).map((ticket) => ticket.barcode)).toEqual([
      'KEPT-2',
    ]);
    const stored = await fork.findOneOrFail(Stock, stock.id);
    expect({ quantity: stored.quantity, bookedQuantity: stored.bookedQuantity }).toEqual({
      quantity: 11,
      bookedQuantity: 1,
    });
    expect((await fork.findOneOrFail(Beneficiary, beneficiary.id)).credit).toBe(beneficiary.credit - PRICE);

    await runJobs();

    expect(receiver.to('/cancel').map((request) => request.body)).toEqual([{ barcodes: ['EXTRA-1'] }]);
    expectSigned(receiver.to('/cancel'));
  });

  it('refuses on 409 sold_out: no booking, credit unchanged, the stock set to no place left', async () => {
    const { stock } = await aTicketedDate({ places: 30, booked: 3 });
    const beneficiary = await aSandboxBeneficiary();
    const before = await written(stock.id, beneficiary.id);
    receiver.answer('/booking', { status: 409, json: { error: 'sold_out' } });

    const answer = await book(stock.id, beneficiary.id);

    expect(answer.data).toBeNull();
    expect(answer.errors![0].extensions.code).toBe('BAD_REQUEST');
    expect(answer.errors![0].message).toBe('The ticketing system has no places left');
    expect(receiver.to('/booking')).toHaveLength(1);
    expectSigned(receiver.requests);
    expect(await written(stock.id, beneficiary.id)).toEqual({ ...before, stock: { quantity: 3, bookedQuantity: 3 } });

    // The offer now reads as sold out.
    const status = await graphql(sandbox.apiKey, 'query ($id: Int!) { offer(id: $id) { id status } }', {
      id: stock.offer.id,
    });
    expect(status.body.data.offer.status).toBe('SOLD_OUT');
  });

  it('refuses on 409 not_enough_seats: no booking, credit unchanged, the stock set to the places left there', async () => {
    const { stock } = await aTicketedDate({ places: 30, booked: 4 });
    const beneficiary = await aSandboxBeneficiary();
    const before = await written(stock.id, beneficiary.id);
    receiver.answer('/booking', { status: 409, json: { error: 'not_enough_seats', remainingQuantity: 1 } });

    const answer = await book(stock.id, beneficiary.id, 2);

    expect(answer.data).toBeNull();
    expect(answer.errors![0].extensions.code).toBe('BAD_REQUEST');
    expect(answer.errors![0].message).toBe('The ticketing system has not enough places left (1)');
    expectSigned(receiver.requests);
    expect(await written(stock.id, beneficiary.id)).toEqual({ ...before, stock: { quantity: 5, bookedQuantity: 4 } });
  });

  it('refuses when the ticketing system does not answer within 8 seconds, and writes nothing', async () => {
    const { stock } = await aTicketedDate({ places: 30, booked: 2 });
    const beneficiary = await aSandboxBeneficiary();
    const before = await written(stock.id, beneficiary.id);
    receiver.answer('/booking', {
      slow: {
        afterMs: PROVIDER_CALL_TIMEOUT_MS + 5_000,
        status: 200,
        json: { tickets: tickets('LATE-1'), remainingQuantity: 9 },
      },
    });

    // Only the timers are faked (fetch itself is real): the 8 seconds pass at once, and only then.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    let answer: Awaited<ReturnType<typeof book>>;
    try {
      let settled = false;
      const pending = book(stock.id, beneficiary.id).finally(() => {
        settled = true;
      });
      await receiver.waitForRequests(1, '/booking');
      await vi.advanceTimersByTimeAsync(PROVIDER_CALL_TIMEOUT_MS - 500);
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      expect(receiver.requests[0].abandoned).toBe(false);
      await vi.advanceTimersByTimeAsync(1_000);
      answer = await pending;
    } finally {
      vi.useRealTimers();
    }

    expect(answer.data).toBeNull();
    expect(answer.errors![0].extensions.code).toBe('BAD_REQUEST');
    expect(answer.errors![0].message).toBe(
      'The ticketing system did not confirm the booking (no answer within 8 seconds)',
    );
    expect(receiver.to('/booking')).toHaveLength(1);
    expectSigned(receiver.requests);
    await vi.waitFor(() => expect(receiver.requests[0].abandoned).toBe(true));
    expect(await written(stock.id, beneficiary.id)).toEqual(before);
  });

  it('refuses when the ticketing system answers 500, and writes nothing', async () => {
    const { stock } = await aTicketedDate({ places: 30, booked: 2 });
    const beneficiary = await aSandboxBeneficiary();
    const before = await written(stock.id, beneficiary.id);
    receiver.answer('/booking', { status: 500, json: { error: 'internal' } });

    const answer = await book(stock.id, beneficiary.id);

    expect(answer.data).toBeNull();
    expect(answer.errors![0].extensions.code).toBe('BAD_REQUEST');
    expect(answer.errors![0].message).toBe('The ticketing system did not confirm the booking (it answered 500)');
    expectSigned(receiver.requests);
    expect(await written(stock.id, beneficiary.id)).toEqual(before);
  });

  it('refuses when the ticketing system closes the connection, and writes nothing', async () => {
    const { stock } = await aTicketedDate({ places: 30 });
    const beneficiary = await aSandboxBeneficiary();
    const before = await written(stock.id, beneficiary.id);
    receiver.answer('/booking', { close: true });

    const answer = await book(stock.id, beneficiary.id);

    expect(answer.data).toBeNull();
    expect(answer.errors![0].extensions.code).toBe('BAD_REQUEST');
    expect(answer.errors![0].message).toBe('The ticketing system did not confirm the booking (unreachable)');
    expectSigned(receiver.requests);
    expect(await written(stock.id, beneficiary.id)).toEqual(before);
  });

  it('refuses a 2xx without one ticket per place, a barcode of 100 characters at most and a remainingQuantity, or a 409 of another kind; only the stray barcodes are cancelled', async () => {
    const { stock } = await aTicketedDate({ places: 30 });
    const beneficiary = await aSandboxBeneficiary();
    const before = await written(stock.id, beneficiary.id);
    const longBarcode = 'L'.repeat(101);
    const answers = [
      { status: 200, json: { tickets: tickets('ONLY-ONE'), remainingQuantity: 3 } },
      { status: 200, json: { tickets: [{ barcode: '' }, { barcode: 'B' }], remainingQuantity: 3 } },
      { status: 200, json: { remainingQuantity: 3 } },
      { status: 200, json: 'not json at all' },
      { status: 201, json: { tickets: tickets('C1', 'C2') } },
      { status: 200, json: { tickets: tickets(longBarcode, 'OK-2'), remainingQuantity: 3 } },
      { status: 200, json: { tickets: tickets('D1', 'D2'), remainingQuantity: 'many' } },
      { status: 409, json: { error: 'something_else', remainingQuantity: 0 } },
    ];
    receiver.answerNext('/booking', ...answers);

    for (const _ of answers) {
      const answer = await book(stock.id, beneficiary.id, 2);
      expect(answer.data).toBeNull();
      expect(answer.errors![0].extensions.code).toBe('BAD_REQUEST');
      expect(answer.errors![0].message).toMatch(
        /^The ticketing system did not confirm the booking \(it answered (200|201|409)\)$/,
      );
    }
    expect(receiver.to('/booking')).toHaveLength(answers.length);
    expectSigned(receiver.requests);
    // No booking, ticket, credit or stock change; the barcodes of the refused 2xx are cancelled there.
    expect(await written(stock.id, beneficiary.id)).toEqual({
      ...before,
      messages: before.messages + 5,
      jobs: before.jobs + 5,
    });
    await runJobs();
    expect(receiver.to('/cancel').map((request) => request.body)).toEqual([
      { barcodes: ['ONLY-ONE'] },
      { barcodes: ['B'] },
      { barcodes: ['C1', 'C2'] },
      { barcodes: [longBarcode, 'OK-2'] },
      { barcodes: ['D1', 'D2'] },
    ]);
    expectSigned(receiver.to('/cancel'));
  });

  it('signs every call over its exact bytes with the provider’s secret, and only with it', async () => {
    const { stock } = await aTicketedDate({ places: 30 });
    const beneficiary = await aSandboxBeneficiary();
    receiver.answerNext(
      '/booking',
      { status: 200, json: { tickets: tickets('SIG-1'), remainingQuantity: 5 } },
      { status: 500 },
    );
    await book(stock.id, beneficiary.id);
    await book(stock.id, beneficiary.id);

    expect(receiver.requests).toHaveLength(2);
    for (const received of receiver.requests) {
      const signature = received.headers['passculture-signature'] as string;
      expect(signature).toBe(expectedSignature(received.raw, sandbox.messagingSecret));
      expect(hasValidSignature(received.raw, sandbox.messagingSecret, signature)).toBe(true);
      expect(signature).not.toBe(expectedSignature(received.raw, `${sandbox.messagingSecret}x`));
      // A byte more or less is another signature: the receiver checks the very bytes sent.
      expect(signature).not.toBe(
        expectedSignature(Buffer.concat([received.raw, Buffer.from(' ')]), sandbox.messagingSecret),
      );
    }
  });

  it('calls the venue’s booking URL where it has one, rather than the provider’s', async () => {
    const venue = sandbox.venues[1];
    await em().nativeUpdate(
      VenueProvider,
      { venue: venue.id, provider: sandbox.provider.id },
      { bookingUrl: receiver.url('/venue/booking') },
    );
    try {
      const { stock } = await aTicketedDate({ places: 30, venueIndex: 1 });
      const beneficiary = await aSandboxBeneficiary();
      receiver.answer('/venue/booking', { status: 200, json: { tickets: tickets('VENUE-1'), remainingQuantity: 7 } });
      receiver.answer('/booking', { status: 500 });

      const answer = await book(stock.id, beneficiary.id);

      expect(answer.errors).toBeUndefined();
      expect(answer.data!.sandboxBook.tickets).toEqual([{ barcode: 'VENUE-1', seat: 'A1' }]);
      expect(receiver.requests.map((received) => received.path)).toEqual(['/venue/booking']);
      expectSigned(receiver.requests);
      expect(receiver.requests[0].body.venue_id).toBe(venue.id);

      // The other venues keep the provider's URL.
      const elsewhere = await aTicketedDate({ places: 30, venueIndex: 0 });
      receiver.answer('/booking', { status: 200, json: { tickets: tickets('PROVIDER-1'), remainingQuantity: 7 } });
      expect((await book(elsewhere.stock.id, beneficiary.id)).errors).toBeUndefined();
      expect(receiver.requests.map((received) => received.path)).toEqual(['/venue/booking', '/booking']);
    } finally {
      await em().nativeUpdate(VenueProvider, { venue: venue.id, provider: sandbox.provider.id }, { bookingUrl: null });
    }
  });

  it('cancels the tickets issued when the stock has no place left here: a signed TICKET_CANCELLATION to the cancellation URL', async () => {
    // Every place is booked here, but the ticketing system still issues tickets.
    const { stock } = await aTicketedDate({ places: 3, booked: 3 });
    const beneficiary = await aSandboxBeneficiary();
    const before = await written(stock.id, beneficiary.id);
    receiver.answer('/booking', {
      status: 200,
      json: { tickets: tickets('ISSUED-1', 'ISSUED-2'), remainingQuantity: 10 },
    });

    const answer = await book(stock.id, beneficiary.id, 2);

    expect(answer.data).toBeNull();
    expect(answer.errors![0].extensions.code).toBe('BAD_REQUEST');
    expect(answer.errors![0].message).toBe('No places left on this stock');
    const messages = await em().find(ProviderMessage, {}, { orderBy: { id: 'asc' } });
    const compensation = messages.filter(
      (message) => message.kind === 'TICKET_CANCELLATION' && message.body.includes('ISSUED-1'),
    );
    expect(compensation).toHaveLength(1);
    expect(compensation[0]).toMatchObject({ url: receiver.url('/cancel'), status: 'PENDING', attempts: 0 });
    expect(compensation[0].booking).toBeNull();
    // Nothing else was written: no booking, no ticket, the credit and the stock (the answer's remainingQuantity too) untouched.
    expect(await written(stock.id, beneficiary.id)).toEqual({
      ...before,
      messages: before.messages + 1,
      jobs: before.jobs + 1,
    });
    expect(receiver.to('/cancel')).toHaveLength(0);

    await runJobs();

    expect(receiver.to('/cancel')).toHaveLength(1);
    const cancellation = receiver.to('/cancel')[0];
    expectSigned([cancellation]);
    expect(cancellation.raw.toString('utf8')).toBe(compensation[0].body);
    // The barcodes, and nothing else.
    expect(cancellation.body).toEqual({ barcodes: ['ISSUED-1', 'ISSUED-2'] });
    expect(await em().findOneOrFail(ProviderMessage, compensation[0].id)).toMatchObject({
      status: 'SENT',
      attempts: 1,
      lastStatusCode: 200,
    });
  });

  it('cancels the tickets issued when the credit ran out meanwhile (found only in the transaction); 409 already_cancelled is a delivery', async () => {
    const { stock } = await aTicketedDate({ places: 20 });
    const beneficiary = await aSandboxBeneficiary();
    // While the ticketing system issues the tickets, another booking spends the credit.
    receiver.answer('/booking', async () => {
      await em().nativeUpdate(Beneficiary, { id: beneficiary.id }, { credit: 100 });
      return { status: 200, json: { tickets: tickets('SPENT-1'), remainingQuantity: 12 } };
    });
    receiver.answer('/cancel', { status: 409, json: { error: 'already_cancelled', remainingQuantity: 12 } });

    const answer = await book(stock.id, beneficiary.id);

    expect(answer.data).toBeNull();
    expect(answer.errors![0].extensions.code).toBe('BAD_REQUEST');
    expect(answer.errors![0].message).toBe('Not enough credit left');
    const after = await written(stock.id, beneficiary.id);
    expect(after.credit).toBe(100);
    // The places reserved in the refused transaction are back: it rolled back whole.
    expect(after.stock).toEqual({ quantity: 20, bookedQuantity: 0 });

    await runJobs();

    const cancellations = receiver.to('/cancel');
    expect(cancellations).toHaveLength(1);
    expectSigned(cancellations);
    expect(cancellations[0].body).toEqual({ barcodes: ['SPENT-1'] });
    // The ticketing system had cancelled them already: that is a delivery, not a failure to retry.
    const sent = await em().find(ProviderMessage, {
      kind: 'TICKET_CANCELLATION',
      body: cancellations[0].raw.toString('utf8'),
    });
    expect(sent.map((message) => [message.status, message.attempts, message.lastStatusCode])).toEqual([
      ['SENT', 1, 409],
    ]);
  });

  it('cancels the tickets at the cancellation URL before the booking: only their barcodes, signed; the date takes the places left there', async () => {
    const { stock } = await aTicketedDate({ places: 30, booked: 3 });
    const beneficiary = await aSandboxBeneficiary();
    receiver.answer('/booking', { status: 200, json: { tickets: tickets('KEEP-1', 'KEEP-2'), remainingQuantity: 20 } });
    const booked = (await book(stock.id, beneficiary.id, 2)).data!.sandboxBook;
    testApp.clock.advance(3_600_000);
    let bookingWhenCalled: string | undefined;
    receiver.answer('/cancel', async () => {
      bookingWhenCalled = (await em().findOneOrFail(Booking, booked.id)).status;
      return { status: 200, json: { remainingQuantity: 22 } };
    });

    const cancelled = await cancel(booked.token);

    expect(cancelled.status).toBe(204);
    // Called during the request, while the booking was still CONFIRMED: the cancellation waited for it.
    expect(bookingWhenCalled).toBe('CONFIRMED');
    const calls = receiver.to('/cancel');
    expect(calls).toHaveLength(1);
    expectSigned(calls);
    expect(calls[0].body).toEqual({ barcodes: ['KEEP-1', 'KEEP-2'] });
    const fork = em();
    const booking = await fork.findOneOrFail(Booking, booked.id);
    expect(booking).toMatchObject({ status: 'CANCELLED', cancellationReason: 'OFFERER' });
    expect((await fork.findOneOrFail(Beneficiary, beneficiary.id)).credit).toBe(beneficiary.credit);
    // 3 places booked before, 22 left at the ticketing system.
    const stored = await fork.findOneOrFail(Stock, stock.id);
    expect({ quantity: stored.quantity, bookedQuantity: stored.bookedQuantity }).toEqual({
      quantity: 25,
      bookedQuantity: 3,
    });
    // Nothing queued: no second cancellation, no CANCEL notification.
    expect(await fork.count(ProviderMessage, { booking: booked.id, synchronous: false })).toBe(0);
    await runJobs();
    expect(receiver.to('/cancel')).toHaveLength(1);
    expect(receiver.to('/notify')).toHaveLength(0);
  });

  it('refuses the cancellation (400) when the ticketing system does not cancel the tickets: the booking stays CONFIRMED', async () => {
    const { stock } = await aTicketedDate({ places: 30 });
    const beneficiary = await aSandboxBeneficiary();
    receiver.answer('/booking', { status: 200, json: { tickets: tickets('HOLD-1'), remainingQuantity: 20 } });
    const booked = (await book(stock.id, beneficiary.id)).data!.sandboxBook;
    const before = await written(stock.id, beneficiary.id);
    const refusals = [
      { reply: { status: 500, json: { error: 'internal' } }, reason: 'it answered 500' },
      { reply: { status: 409, json: { error: 'sold_out', remainingQuantity: 0 } }, reason: 'it answered 409' },
      { reply: { close: true as const }, reason: 'unreachable' },
    ];
    receiver.answerNext('/cancel', ...refusals.map((refusal) => refusal.reply));

    for (const refusal of refusals) {
      const answer = await cancel(booked.token);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ global: [`The ticketing system did not cancel the tickets (${refusal.reason})`] });
    }

    expect(receiver.to('/cancel').map((request) => request.body)).toEqual(
      refusals.map(() => ({ barcodes: ['HOLD-1'] })),
    );
    expect((await em().findOneOrFail(Booking, booked.id)).status).toBe('CONFIRMED');
    expect(await written(stock.id, beneficiary.id)).toEqual(before);
    // The booking can still be cancelled once the ticketing system agrees.
    receiver.answer('/cancel', { status: 200, json: { remainingQuantity: 29 } });
    expect((await cancel(booked.token)).status).toBe(204);
    expect((await em().findOneOrFail(Booking, booked.id)).status).toBe('CANCELLED');
  });

  it('makes the date unlimited when the cancellation answer’s remainingQuantity is null; leaves its places when it gives none', async () => {
    const first = await aTicketedDate({ places: 30 });
    const second = await aTicketedDate({ places: 30 });
    const beneficiary = await aSandboxBeneficiary();
    receiver.answer('/booking', { status: 200, json: { tickets: tickets('U-1'), remainingQuantity: 20 } });
    const unlimited = (await book(first.stock.id, beneficiary.id)).data!.sandboxBook;
    const unsaid = (await book(second.stock.id, beneficiary.id)).data!.sandboxBook;
    receiver.answerNext('/cancel', { status: 200, json: { remainingQuantity: null } }, { status: 204 });

    expect((await cancel(unlimited.token)).status).toBe(204);
    expect((await cancel(unsaid.token)).status).toBe(204);

    const fork = em();
    const [one, two] = await Promise.all([
      fork.findOneOrFail(Stock, first.stock.id),
      fork.findOneOrFail(Stock, second.stock.id),
    ]);
    expect([one.quantity, one.bookedQuantity]).toEqual([null, 0]);
    // 21 after the booking (1 booked + 20 left there); the place comes back here, the quantity stays.
    expect([two.quantity, two.bookedQuantity]).toEqual([21, 0]);
    const dates = await api.call('GetEventStocks', { params: { event_id: first.event.id } });
    expect(dates.body.dates.map((date: any) => date.quantity)).toEqual(['unlimited']);
  });

  it('cancels the booking when the ticketing system answers 409 already_cancelled, with the places it gives', async () => {
    const { stock } = await aTicketedDate({ places: 30, booked: 2 });
    const beneficiary = await aSandboxBeneficiary();
    receiver.answer('/booking', { status: 200, json: { tickets: tickets('GONE-1'), remainingQuantity: 20 } });
    const booked = (await book(stock.id, beneficiary.id)).data!.sandboxBook;
    receiver.answer('/cancel', { status: 409, json: { error: 'already_cancelled', remainingQuantity: 6 } });

    const cancelled = await cancel(booked.token);

    expect(cancelled.status).toBe(204);
    const fork = em();
    expect((await fork.findOneOrFail(Booking, booked.id)).status).toBe('CANCELLED');
    expect((await fork.findOneOrFail(Beneficiary, beneficiary.id)).credit).toBe(beneficiary.credit);
    const stored = await fork.findOneOrFail(Stock, stock.id);
    expect({ quantity: stored.quantity, bookedQuantity: stored.bookedQuantity }).toEqual({
      quantity: 8,
      bookedQuantity: 2,
    });
    expect(await fork.count(ProviderMessage, { booking: booked.id, synchronous: false })).toBe(0);
  });

  it('calls no ticketing system for a booking the venue may not cancel', async () => {
    const { stock } = await aTicketedDate({ places: 30 });
    const beneficiary = await aSandboxBeneficiary();
    receiver.answer('/booking', { status: 200, json: { tickets: tickets('USED-1'), remainingQuantity: 20 } });
    const booked = (await book(stock.id, beneficiary.id)).data!.sandboxBook;
    receiver.answer('/cancel', { status: 200, json: { remainingQuantity: 20 } });
    expect((await cancel(booked.token)).status).toBe(204);

    const again = await cancel(booked.token);

    expect(again.status).toBe(410);
    expect(receiver.to('/cancel')).toHaveLength(1);
  });

  it('cancels the bookings of a deleted date on the platform only: no call to the cancellation URL, no CANCEL', async () => {
    const { event, stock } = await aTicketedDate({ places: 30 });
    const beneficiary = await aSandboxBeneficiary();
    receiver.answer('/booking', { status: 200, json: { tickets: tickets('GONE-1'), remainingQuantity: 29 } });
    const booked = (await book(stock.id, beneficiary.id, 1)).data!.sandboxBook;
    await runJobs();
    receiver.reset();

    const deleted = await api.call('DeleteEventStock', { params: { event_id: event.id, stock_id: stock.id } });

    expect(deleted.status).toBe(204);
    const fork = em();
    expect(await fork.findOneOrFail(Booking, booked.id)).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'STOCK_DELETED',
    });
    expect((await fork.findOneOrFail(Beneficiary, beneficiary.id)).credit).toBe(beneficiary.credit);
    // The provider deleted the date itself: nothing is queued for it, nothing reaches its system.
    expect(await fork.count(ProviderMessage, { booking: booked.id, synchronous: false })).toBe(0);
    await runJobs();
    expect(receiver.to('/cancel')).toHaveLength(0);
    expect(receiver.to('/notify')).toHaveLength(0);
  });

  it('sends the cancellation of a venue’s tickets to the venue’s cancellation URL', async () => {
    const venue = sandbox.venues[1];
    await em().nativeUpdate(
      VenueProvider,
      { venue: venue.id, provider: sandbox.provider.id },
      { bookingUrl: receiver.url('/venue/booking'), cancelUrl: receiver.url('/venue/cancel') },
    );
    try {
      const { stock } = await aTicketedDate({ places: 30, venueIndex: 1 });
      const beneficiary = await aSandboxBeneficiary();
      receiver.answer('/venue/booking', { status: 200, json: { tickets: tickets('V-1'), remainingQuantity: 20 } });
      receiver.answer('/venue/cancel', { status: 200, json: { remainingQuantity: 20 } });
      receiver.answer('/cancel', { status: 500 });
      const booked = (await book(stock.id, beneficiary.id)).data!.sandboxBook;
      const cancelled = await cancel(booked.token);
      expect(cancelled.status).toBe(204);

      expect(receiver.requests.map((received) => received.path)).toEqual(['/venue/booking', '/venue/cancel']);
      expectSigned(receiver.requests);
      expect(receiver.requests[1].body).toEqual({ barcodes: ['V-1'] });
    } finally {
      await em().nativeUpdate(
        VenueProvider,
        { venue: venue.id, provider: sandbox.provider.id },
        { bookingUrl: null, cancelUrl: null },
      );
    }
  });
});

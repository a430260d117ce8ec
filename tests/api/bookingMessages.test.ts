import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Beneficiary } from '../../graphql/bookings/Beneficiary.js';
import { Booking } from '../../graphql/bookings/Booking.js';
import { SEND_MESSAGE_JOB } from '../../graphql/bookings/messages.js';
import { ProviderMessage } from '../../graphql/bookings/ProviderMessage.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { ForbiddenError } from '../../graphql/shared/errors.js';
import { Job } from '../../platform/jobs/Job.js';
import { PROVIDER_CALL_TIMEOUT_MS } from '../../platform/messaging/signedPost.js';
import { retryDelayMs } from '../../platform/jobs/backoff.js';
import { type Answer, apiClient, type ApiClient, expectStatus } from '../support/api.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { aBeneficiary, aBookableDate, drainJobs, graphqlAs } from '../support/builders.js';
import type { createSandbox } from '../support/fixtures.js';
import { aSandboxWithReceiver, expectSigned, type Receiver } from '../support/receiver.js';

const DAY = 86_400_000;
const PRICE = 1_800;
/** Who books here, as the notifications describe them. */
const NOE = { firstName: 'Noé', lastName: 'Message', birthDate: '2006-11-30', postalCode: '69002' };
let showCounter = 0;

const BOOK = `mutation Book($input: SandboxBookingInput!) {
  sandboxBook(input: $input) { id token status quantity amount stockId }
}`;
const DELIVERIES = `query Deliveries($id: Int!) {
  bookingMessages(bookingId: $id) { id kind url body status attempts lastStatusCode lastError createdAt sentAt }
}`;

interface Delivery {
  id: number;
  kind: string;
  url: string;
  body: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

describe('Booking messages: notifications to the provider, delivered by a job after commit', () => {
  let testApp: TestApp;
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  let receiver: Receiver;
  let internalKey: string;
  let api: ApiClient;
  /** A handler of `offers.stockDeleted` refuses (after the bookings' own handler) while this is set. */
  let refuseStockDeletion = false;

  const em = () => testApp.database.orm.em.fork();
  const graphql = (key: string, query: string, variables?: Record<string, unknown>) =>
    graphqlAs(testApp, key, query, variables);
  const runJobs = () => drainJobs(testApp);
  const aSandboxBeneficiary = () => aBeneficiary(testApp, sandbox.apiKey, NOE);

  /** A published event without tickets, one price category and one date, in 20 days (100 places unless told). */
  async function aDate(options: { places?: number | null; venueIndex?: number } = {}) {
    const idAtProvider = `jazz-${(showCounter += 1)}`;
    const { offerId, category, stock } = await aBookableDate(
      em(),
      testApp.clock,
      { providerId: sandbox.provider.id, venueId: sandbox.venues[options.venueIndex ?? 0].id },
      {
        hours: 20 * 24,
        bookingLimitHours: 19 * 24,
        price: PRICE,
        quantity: options.places,
        label: 'Free seating',
        categoryIdAtProvider: 'cat-free',
        idAtProvider: 'jazz-date',
        offer: { name: 'Jazz evening', hasTicket: false, idAtProvider },
      },
    );
    return { event: { id: offerId, idAtProvider }, category, stock };
  }
  const bookingsOfTheOffer = (offerId: number) => api.call('GetBookingsByOffer', { query: { offerId } });
  const deleteDate = (offerId: number, stockId: number) =>
    api.call('DeleteEventStock', { params: { event_id: offerId, stock_id: stockId } });

  async function book(stockId: number, beneficiaryId: number, quantity = 1) {
    const response = await graphql(sandbox.apiKey, BOOK, { input: { stockId, quantity, beneficiaryId } });
    expect(response.status).toBe(200);
    return response.body as {
      data: { sandboxBook: { id: number; token: string; status: string } } | null;
      errors?: { message: string; extensions: { code: string } }[];
    };
  }
  async function booked(stockId: number, beneficiaryId: number, quantity = 1) {
    const answer = await book(stockId, beneficiaryId, quantity);
    expect(answer.errors).toBeUndefined();
    return answer.data!.sandboxBook;
  }
  const cancel = (token: string) => api.call('CancelBookingByToken', { params: { token } });

  async function deliveries(bookingId: number): Promise<Delivery[]> {
    const response = await graphql(internalKey, DELIVERIES, { id: bookingId });
    expect(response.body.errors).toBeUndefined();
    return response.body.data.bookingMessages;
  }
  const sendingJobs = () => em().find(Job, { type: SEND_MESSAGE_JOB }, { orderBy: { id: 'asc' } });
  /** The jobs sending the messages of a booking. */
  async function jobsOf(bookingId: number): Promise<Job[]> {
    const messageIds = (await em().find(ProviderMessage, { booking: bookingId })).map((message) => message.id);
    return (await sendingJobs()).filter((job) => messageIds.includes(Number(job.payload.messageId)));
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    ({ sandbox, receiver } = await aSandboxWithReceiver(testApp));
    const fork = em();
    const internal = issueApiKey(fork, testApp.clock, { env: 'test', internal: true, label: 'back office' });
    await fork.flush();
    internalKey = internal.key;
    api = apiClient(testApp.app, sandbox.apiKey);
    testApp.runtime.events.on('offers.stockDeleted', () => {
      if (refuseStockDeletion) throw new ForbiddenError('The deletion is refused by another handler');
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });
  beforeEach(() => receiver.reset());
  afterEach(async () => {
    // A test that failed half-way leaves no delivery behind for the next one to run.
    await em().nativeUpdate(
      Job,
      { type: SEND_MESSAGE_JOB, status: { $in: ['pending', 'running'] } },
      { status: 'failed' },
    );
  });

  it('queues a BOOK notification with the booking, and sends it signed after the booking committed', async () => {
    const { event, category, stock } = await aDate();
    const beneficiary = await aSandboxBeneficiary();

    const booking = await booked(stock.id, beneficiary.id, 2);

    // Written with the booking, sent later: nothing reached the provider during the request.
    expect(receiver.requests).toHaveLength(0);
    const [queued] = await deliveries(booking.id);
    expect(queued).toMatchObject({
      kind: 'BOOKING_NOTIFICATION',
      url: receiver.url('/notify'),
      status: 'PENDING',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      sentAt: null,
    });
    expect((await jobsOf(booking.id)).map((job) => [job.status, job.payload])).toEqual([
      ['pending', { messageId: queued.id }],
    ]);

    receiver.answer('/notify', { status: 200, json: { ok: true } });
    await runJobs();

    expect(receiver.requests.map((received) => received.path)).toEqual(['/notify']);
    expectSigned(receiver.requests);
    const notification = receiver.requests[0];
    expect(notification.raw.toString('utf8')).toBe(queued.body);
    expect(notification.headers['passculture-message-id']).toBe(String(queued.id));
    const now = testApp.clock.now();
    // pass Culture's flat message, key for key, with the action last.
    expect(notification.body).toEqual({
      booking_confirmation_date: new Date(now.getTime() + 2 * DAY).toISOString().slice(0, 19),
      booking_creation_date: now.toISOString().slice(0, 19),
      booking_quantity: 2,
      offer_ean: null,
      offer_id: event.id,
      offer_id_at_provider: event.idAtProvider,
      offer_name: 'Jazz evening',
      offer_price: PRICE,
      price_category_id: category.id,
      price_category_id_at_provider: 'cat-free',
      price_category_label: 'Free seating',
      stock_id: stock.id,
      stock_id_at_provider: 'jazz-date',
      user_birth_date: '2006-11-30',
      user_email: beneficiary.email,
      user_first_name: 'Noé',
      user_last_name: 'Message',
      user_phone: null,
      venue_address: '12 Rue de Rivoli',
      venue_department_code: '75',
      venue_id: sandbox.venues[0].id,
      venue_name: 'Demo Theatre',
      action: 'BOOK',
    });
    expect(Object.keys(notification.body).at(-1)).toBe('action');

    expect(await deliveries(booking.id)).toEqual([
      { ...queued, status: 'SENT', attempts: 1, lastStatusCode: 200, lastError: null, sentAt: now.toISOString() },
    ]);
    expect((await jobsOf(booking.id)).map((job) => job.status)).toEqual(['done']);
  });

  it('lets the provider read the booking back through the API while it is being notified of it', async () => {
    const { event, stock } = await aDate();
    const beneficiary = await aSandboxBeneficiary();
    const booking = await booked(stock.id, beneficiary.id);
    const readBack: { page?: Answer<'GetBookingsByOffer'> } = {};
    receiver.answer('/notify', async () => {
      readBack.page = await bookingsOfTheOffer(event.id);
      return { status: 200, json: {} };
    });
    const started = Date.now();

    await runJobs();

    // Answered at once, not after the call gave up: the delivery holds no database resource the API needs.
    expect(Date.now() - started).toBeLessThan(PROVIDER_CALL_TIMEOUT_MS / 2);
    const { page } = readBack;
    expect(page).toBeDefined();
    expectStatus(page!, 200);
    expect(page.body.bookings.map((row) => [row.id, row.status])).toEqual([[booking.id, 'CONFIRMED']]);
    expect(
      (await deliveries(booking.id)).map((delivery) => [delivery.status, delivery.attempts, delivery.lastStatusCode]),
    ).toEqual([['SENT', 1, 200]]);
  });

  it('keeps the API answering while a delivery waits for a slow provider', async () => {
    const { event, stock } = await aDate();
    const beneficiary = await aSandboxBeneficiary();
    const booking = await booked(stock.id, beneficiary.id);
    receiver.answer('/notify', { slow: { afterMs: 2_000, status: 200, json: {} } });

    const run = runJobs();
    await receiver.waitForRequests(1, '/notify');
    const read = await bookingsOfTheOffer(event.id);

    // Answered while the provider has not answered yet: the delivery holds nothing the API needs.
    expect(receiver.requests[0].answered).toBe(false);
    expectStatus(read, 200);
    expect(read.body.bookings.map((row) => row.id)).toEqual([booking.id]);
    await run;
    expect((await deliveries(booking.id)).map((delivery) => delivery.status)).toEqual(['SENT']);
  });

  it('queues a CANCEL notification with the cancelled booking, sent after the cancellation committed', async () => {
    const { stock } = await aDate();
    const beneficiary = await aSandboxBeneficiary();
    receiver.answer('/notify', { status: 204 });
    const booking = await booked(stock.id, beneficiary.id);
    await runJobs();
    testApp.clock.advance(3_600_000);

    const response = await cancel(booking.token);

    expect(response.status).toBe(204);
    expect(receiver.requests.map((received) => received.body.action)).toEqual(['BOOK']);
    const [book, cancellation] = await deliveries(booking.id);
    expect(book.status).toBe('SENT');
    expect(cancellation).toMatchObject({
      kind: 'BOOKING_NOTIFICATION',
      url: receiver.url('/notify'),
      status: 'PENDING',
      attempts: 0,
    });

    await runJobs();

    expect(receiver.requests.map((received) => received.body.action)).toEqual(['BOOK', 'CANCEL']);
    expectSigned(receiver.requests);
    const sent = receiver.requests[1];
    expect(sent.raw.toString('utf8')).toBe(cancellation.body);
    // The same details as the BOOK notification, with the other action.
    expect(sent.body).toEqual({ ...receiver.requests[0].body, action: 'CANCEL' });
    expect(sent.body).toMatchObject({ booking_quantity: 1, offer_price: PRICE, stock_id: stock.id });
    expect(sent.body.user_email).toBe(beneficiary.email);
    expect(
      (await deliveries(booking.id)).map((delivery) => [delivery.status, delivery.attempts, delivery.lastStatusCode]),
    ).toEqual([
      ['SENT', 1, 204],
      ['SENT', 1, 204],
    ]);
    // No ticket: no ticket cancellation.
    expect(receiver.to('/cancel')).toHaveLength(0);
  });

  it('sends a CANCEL notification for each booking of a deleted date, once the deletion committed', async () => {
    const { event, stock } = await aDate();
    const beneficiary = await aSandboxBeneficiary();
    const first = await booked(stock.id, beneficiary.id);
    const second = await booked(stock.id, beneficiary.id);
    await runJobs();
    receiver.reset();

    const response = await deleteDate(event.id, stock.id);

    expect(response.status).toBe(204);
    expect(receiver.requests).toHaveLength(0);
    await runJobs();
    expectSigned(receiver.requests);
    expect(receiver.requests.map((received) => [received.body.action, received.body.stock_id])).toEqual([
      ['CANCEL', stock.id],
      ['CANCEL', stock.id],
    ]);
    for (const booking of [first, second]) {
      expect(
        (await deliveries(booking.id)).map((delivery) => [JSON.parse(delivery.body).action, delivery.status]),
      ).toEqual([
        ['BOOK', 'SENT'],
        ['CANCEL', 'SENT'],
      ]);
    }
  });

  it('sends nothing when the transaction that queued a notification rolls back', async () => {
    const { event, stock } = await aDate();
    const beneficiary = await aSandboxBeneficiary();
    const booking = await booked(stock.id, beneficiary.id);
    await runJobs();
    receiver.reset();
    const messagesBefore = await em().count(ProviderMessage, {});
    const jobsBefore = (await sendingJobs()).length;

    // The bookings' handler cancels the booking and queues its CANCEL; a later handler refuses: all rolls back.
    refuseStockDeletion = true;
    let response: Awaited<ReturnType<typeof deleteDate>>;
    try {
      response = await deleteDate(event.id, stock.id);
    } finally {
      refuseStockDeletion = false;
    }

    expect(response.status).toBe(403);
    const fork = em();
    expect((await fork.findOneOrFail(Booking, booking.id)).status).toBe('CONFIRMED');
    expect((await fork.findOneOrFail(Stock, stock.id)).isDeleted).toBe(false);
    expect(await fork.count(ProviderMessage, {})).toBe(messagesBefore);
    expect((await sendingJobs()).length).toBe(jobsBefore);
    await runJobs();
    expect(receiver.requests).toHaveLength(0);
  });

  it('queues nothing for a refused booking', async () => {
    const { stock } = await aDate({ places: 1 });
    const [first, second] = [await aSandboxBeneficiary(), await aSandboxBeneficiary()];
    await booked(stock.id, first.id);
    await runJobs();
    receiver.reset();
    const messagesBefore = await em().count(ProviderMessage, {});

    const refused = await book(stock.id, second.id);

    expect(refused.data).toBeNull();
    expect(refused.errors![0].message).toBe('No places left on this stock');
    expect(await em().count(ProviderMessage, {})).toBe(messagesBefore);
    await runJobs();
    expect(receiver.requests).toHaveLength(0);
  });

  it('retries with backoff after a 500, a 409, a timeout and a closed connection, signing the same bytes, until it is accepted', async () => {
    const { stock } = await aDate();
    const beneficiary = await aSandboxBeneficiary();
    const booking = await booked(stock.id, beneficiary.id);
    receiver.answerNext(
      '/notify',
      { status: 500, json: { error: 'down' } },
      { status: 409, json: { error: 'conflict' } },
      { hang: true },
      { close: true },
    );
    receiver.answer('/notify', { status: 200, json: {} });

    const attempt = async (expected: Partial<Delivery>) => {
      await runJobs();
      const [delivery] = await deliveries(booking.id);
      expect(delivery).toMatchObject(expected);
      return delivery;
    };
    /** The job waits its backoff: not a millisecond less. */
    const waitBackoff = async (afterAttempt: number) => {
      testApp.clock.advance(retryDelayMs(afterAttempt) - 1);
      expect((await testApp.runtime.worker.runDueJobs()).claimed).toBe(0);
      testApp.clock.advance(1);
    };

    await attempt({ status: 'PENDING', attempts: 1, lastStatusCode: 500, lastError: 'answered 500', sentAt: null });
    expect(receiver.requests).toHaveLength(1);
    const [job] = await jobsOf(booking.id);
    expect(job.status).toBe('pending');
    expect(job.runAt.getTime()).toBe(testApp.clock.now().getTime() + retryDelayMs(1));

    await waitBackoff(1);
    await attempt({ status: 'PENDING', attempts: 2, lastStatusCode: 409, lastError: 'answered 409' });

    await waitBackoff(2);
    // The provider does not answer: the call gives up after 8 seconds (timers faked, fetch real).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    try {
      const run = runJobs();
      await receiver.waitForRequests(3, '/notify');
      await vi.advanceTimersByTimeAsync(PROVIDER_CALL_TIMEOUT_MS + 100);
      await run;
    } finally {
      vi.useRealTimers();
    }
    await attempt({
      status: 'PENDING',
      attempts: 3,
      lastStatusCode: null,
      lastError: 'no answer within the time limit',
    });
    expect(receiver.requests[2].abandoned).toBe(true);

    await waitBackoff(3);
    const closed = await attempt({ status: 'PENDING', attempts: 4, lastStatusCode: null });
    expect(closed.lastError).toMatch(/^unreachable: /);

    await waitBackoff(4);
    const sent = await attempt({ status: 'SENT', attempts: 5, lastStatusCode: 200, lastError: null });
    expect(sent.sentAt).toBe(testApp.clock.now().toISOString());

    // Five deliveries of the very same bytes, each signed, each with the message's id to drop duplicates by.
    expect(receiver.requests).toHaveLength(5);
    expectSigned(receiver.requests);
    for (const received of receiver.requests) {
      expect(received.raw.toString('utf8')).toBe(sent.body);
      expect(received.headers['passculture-message-id']).toBe(String(sent.id));
    }
    expect((await jobsOf(booking.id)).map((row) => [row.status, row.attempts])).toEqual([['done', 5]]);
    testApp.clock.advance(DAY);
    await runJobs();
    expect(receiver.requests).toHaveLength(5);
  });

  it('marks the message FAILED after the job’s last attempt, and sends it no more', async () => {
    const { stock } = await aDate();
    const beneficiary = await aSandboxBeneficiary();
    const booking = await booked(stock.id, beneficiary.id);
    receiver.answer('/notify', { status: 500, json: { error: 'still down' } });
    const [job] = await jobsOf(booking.id);

    for (let attempt = 1; attempt <= job.maxAttempts; attempt += 1) {
      await runJobs();
      expect(receiver.requests).toHaveLength(attempt);
      const [delivery] = await deliveries(booking.id);
      expect(delivery).toMatchObject({
        attempts: attempt,
        lastStatusCode: 500,
        lastError: 'answered 500',
        status: attempt < job.maxAttempts ? 'PENDING' : 'FAILED',
      });
      testApp.clock.advance(retryDelayMs(attempt));
    }

    expect(job.maxAttempts).toBe(8);
    const [failed] = await jobsOf(booking.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 8 });
    testApp.clock.advance(7 * DAY);
    await runJobs();
    expect(receiver.requests).toHaveLength(8);
    expectSigned(receiver.requests);
    expect((await deliveries(booking.id))[0]).toMatchObject({ status: 'FAILED', attempts: 8, sentAt: null });
  });

  it('notifies the venue’s notification URL where it has one, rather than the provider’s', async () => {
    const venue = sandbox.venues[1];
    await em().nativeUpdate(
      VenueProvider,
      { venue: venue.id, provider: sandbox.provider.id },
      { notificationUrl: receiver.url('/venue/notify') },
    );
    try {
      const { stock } = await aDate({ venueIndex: 1 });
      const beneficiary = await aSandboxBeneficiary();
      const booking = await booked(stock.id, beneficiary.id);
      await runJobs();

      expect(receiver.requests.map((received) => received.path)).toEqual(['/venue/notify']);
      expectSigned(receiver.requests);
      expect(receiver.requests[0].body).toMatchObject({ action: 'BOOK', stock_id: stock.id, venue_id: venue.id });
      expect((await deliveries(booking.id)).map((delivery) => [delivery.url, delivery.status])).toEqual([
        [receiver.url('/venue/notify'), 'SENT'],
      ]);
    } finally {
      await em().nativeUpdate(
        VenueProvider,
        { venue: venue.id, provider: sandbox.provider.id },
        { notificationUrl: null },
      );
    }
  });

  it('sends no notification where neither the venue nor the provider has a notification URL', async () => {
    await em().nativeUpdate(Provider, { id: sandbox.provider.id }, { notificationUrl: null });
    try {
      const { stock } = await aDate();
      const beneficiary = await aSandboxBeneficiary();
      const jobsBefore = (await sendingJobs()).length;
      const booking = await booked(stock.id, beneficiary.id);
      expect((await cancel(booking.token)).status).toBe(204);

      expect(await deliveries(booking.id)).toEqual([]);
      expect((await sendingJobs()).length).toBe(jobsBefore);
      expect((await em().findOneOrFail(Beneficiary, beneficiary.id)).credit).toBe(beneficiary.credit);
      await runJobs();
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await em().nativeUpdate(Provider, { id: sandbox.provider.id }, { notificationUrl: receiver.url('/notify') });
    }
  });

  it('shows deliveries to internal tools only', async () => {
    const { stock } = await aDate();
    const beneficiary = await aSandboxBeneficiary();
    const booking = await booked(stock.id, beneficiary.id);
    await runJobs();

    const asProvider = await graphql(sandbox.apiKey, DELIVERIES, { id: booking.id });
    expect(asProvider.body.data).toBeUndefined();
    expect(asProvider.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const unknown = await graphql(internalKey, DELIVERIES, { id: booking.id + 10_000 });
    expect(unknown.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await deliveries(booking.id)).map((delivery) => delivery.status)).toEqual(['SENT']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Booking } from '../../graphql/bookings/Booking.js';
import type { CreatedSandbox } from '../../graphql/providers/sandbox.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { graphqlAs } from '../support/builders.js';
import { type GraphAnswer, pathOf, refusalOf, useBookingWorld } from '../support/bookingWorld.js';
import { createSandbox } from '../support/fixtures.js';
import { expectedSignature } from '../support/receiver.js';

const CHECK = `mutation Check($stockId: Int!) {
  checkTicketing(stockId: $stockId) {
    passed bookingId
    steps {
      step called statusCode expectedShape shapeProblems outcome succeeded
      message { id kind url body status synchronous deliveryAttempts { statusCode answerBody error signature } }
    }
  }
}`;

interface Step {
  step: string;
  called: boolean;
  statusCode: number | null;
  expectedShape: boolean | null;
  shapeProblems: string[];
  outcome: string;
  succeeded: boolean;
  message: {
    id: number;
    kind: string;
    url: string;
    body: string;
    status: string;
    synchronous: boolean;
    deliveryAttempts: {
      statusCode: number | null;
      answerBody: string | null;
      error: string | null;
      signature: string;
    }[];
  } | null;
}
interface Check {
  passed: boolean;
  bookingId: number | null;
  steps: Step[];
}

describe('Check my ticketing system: the real booking call, then the cancellation call, step by step', () => {
  const world = useBookingWorld();

  async function check(key: string, stockId: number): Promise<Check> {
    const answer = await world.graph(key, CHECK, { stockId });
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return answer.data!.checkTicketing as Check;
  }
  async function aTicketedDate() {
    const owner = await world.aWorld({ ticketing: true });
    const { stockId } = await world.anEventDate(owner, { quantity: 20, offer: { hasTicket: true } });
    return { owner, stockId };
  }

  it('reports both calls against a system that answers well: sent, answered, of the expected shape, and what was done', async () => {
    const { owner, stockId } = await aTicketedDate();
    world.receiver.answer(pathOf(owner, 'booking'), {
      status: 200,
      json: { tickets: [{ barcode: 'CHECK-1', seat: 'A1' }], remainingQuantity: 9 },
    });
    world.receiver.answer(pathOf(owner, 'cancel'), { status: 200, json: { remainingQuantity: 10 } });

    const report = await check(owner.key, stockId);

    const [bookingCall] = world.receiver.to(pathOf(owner, 'booking'));
    const [cancellationCall] = world.receiver.to(pathOf(owner, 'cancel'));
    expect(bookingCall.body).toMatchObject({ stock_id: stockId, booking_quantity: 1 });
    expect(cancellationCall.body).toEqual({ barcodes: ['CHECK-1'] });
    expect(report.passed).toBe(true);
    const [booking, cancellation] = report.steps;
    expect(booking).toMatchObject({
      step: 'BOOKING',
      called: true,
      statusCode: 200,
      expectedShape: true,
      shapeProblems: [],
      succeeded: true,
      outcome: `Booking ${report.bookingId} recorded (countermark ${(await world.storedBooking(report.bookingId!)).token}) with the ticket(s) CHECK-1; the date now has 9 place(s) left`,
    });
    expect(booking.message).toMatchObject({
      kind: 'TICKET_BOOKING',
      url: world.receiver.url(pathOf(owner, 'booking')),
      body: bookingCall.raw.toString('utf8'),
      status: 'SENT',
      synchronous: true,
    });
    expect(booking.message!.deliveryAttempts).toEqual([
      {
        statusCode: 200,
        answerBody: '{"tickets":[{"barcode":"CHECK-1","seat":"A1"}],"remainingQuantity":9}',
        error: null,
        signature: expectedSignature(bookingCall.raw, owner.secret),
      },
    ]);
    expect(cancellation).toMatchObject({
      step: 'CANCELLATION',
      called: true,
      statusCode: 200,
      expectedShape: true,
      succeeded: true,
      outcome: `Booking ${report.bookingId} cancelled, its beneficiary refunded; the date now has 10 place(s) left`,
    });
    expect(cancellation.message).toMatchObject({ kind: 'TICKET_CANCELLATION', body: '{"barcodes":["CHECK-1"]}' });
    expect(cancellation.message!.deliveryAttempts[0].signature).toBe(
      expectedSignature(cancellationCall.raw, owner.secret),
    );
    // The sandbox booking made, then cancelled.
    expect((await world.storedBooking(report.bookingId!)).status).toBe('CANCELLED');
  });

  it('says what is wrong with a 2xx booking answer of another shape, and cancels nothing it did not book', async () => {
    const { owner, stockId } = await aTicketedDate();
    world.receiver.answer(pathOf(owner, 'booking'), { status: 200, json: { tickets: [], remaining: 3 } });

    const report = await check(owner.key, stockId);

    expect(report).toMatchObject({ passed: false, bookingId: null });
    const [booking, cancellation] = report.steps;
    expect(booking).toMatchObject({
      called: true,
      statusCode: 200,
      expectedShape: false,
      shapeProblems: [
        '`remainingQuantity` is missing (an integer, or null for no limit)',
        '`tickets` holds 0 ticket(s) for 1 place(s)',
      ],
      succeeded: false,
      outcome: 'No booking was recorded: The ticketing system did not confirm the booking (it answered 200)',
    });
    expect(booking.message).toMatchObject({ kind: 'TICKET_BOOKING', status: 'FAILED' });
    expect(booking.message!.deliveryAttempts[0]).toMatchObject({
      statusCode: 200,
      answerBody: '{"tickets":[],"remaining":3}',
      error:
        'answered 200: `remainingQuantity` is missing (an integer, or null for no limit); `tickets` holds 0 ticket(s) for 1 place(s)',
    });
    expect(cancellation).toMatchObject({
      called: false,
      message: null,
      succeeded: false,
      outcome: 'Not run: there is no booking to cancel',
    });
    expect(world.receiver.to(pathOf(owner, 'cancel'))).toEqual([]);
    expect(await world.bookingsOf(owner)).toBe(0);
  });

  it('reports a cancellation refused by the system: the error answered, and the sandbox booking kept', async () => {
    const { owner, stockId } = await aTicketedDate();
    world.receiver.answer(pathOf(owner, 'booking'), {
      status: 201,
      json: { tickets: [{ barcode: 'KEPT-1' }], remainingQuantity: null },
    });
    world.receiver.answer(pathOf(owner, 'cancel'), { status: 500, json: { error: 'cannot cancel' } });

    const report = await check(owner.key, stockId);

    expect(report.passed).toBe(false);
    expect(report.steps[0]).toMatchObject({ succeeded: true, expectedShape: true, statusCode: 201 });
    expect(report.steps[0].outcome).toMatch(/with the ticket\(s\) KEPT-1; the date now has no limit of places$/);
    expect(report.steps[1]).toMatchObject({
      called: true,
      statusCode: 500,
      expectedShape: null,
      succeeded: false,
      outcome: `The booking was not cancelled: The ticketing system did not cancel the tickets (it answered 500); sandbox booking ${report.bookingId} stays CONFIRMED`,
    });
    expect(report.steps[1].message!.deliveryAttempts[0]).toMatchObject({
      statusCode: 500,
      answerBody: '{"error":"cannot cancel"}',
      error: 'answered 500',
    });
    expect((await world.storedBooking(report.bookingId!)).status).toBe('CONFIRMED');
  });

  it('reports a system that does not answer at all', async () => {
    const { owner, stockId } = await aTicketedDate();
    world.receiver.answer(pathOf(owner, 'booking'), { close: true });

    const [booking] = (await check(owner.key, stockId)).steps;

    expect(booking).toMatchObject({ called: true, statusCode: null, expectedShape: null, succeeded: false });
    expect(booking.outcome).toMatch(
      /^No booking was recorded: The ticketing system did not confirm the booking \(unreachable\)$/,
    );
    expect(booking.message!.deliveryAttempts[0].error).toMatch(/^unreachable: /);
  });

  it('checks a provider’s own dates only: another’s is not found and its system not called; internal keys are refused', async () => {
    const { owner, stockId } = await aTicketedDate();
    const stranger = await world.aWorld({ ticketing: true });

    expect(refusalOf(await world.graph(stranger.key, CHECK, { stockId })).code).toBe('NOT_FOUND');

    expect(world.receiver.to(pathOf(owner, 'booking'))).toEqual([]);
    expect(world.receiver.to(pathOf(stranger, 'booking'))).toEqual([]);
    expect(await world.em().count(Booking, { stock: stockId })).toBe(0);
    const fork = world.em();
    const internal = issueApiKey(fork, world.testApp.clock, { env: 'test', internal: true, label: 'tools' }).key;
    await fork.flush();
    expect(refusalOf(await world.graph(internal, CHECK, { stockId })).code).toBe('FORBIDDEN');
  });

  it('refuses a date of an offer without tickets, which calls no ticketing system', async () => {
    const owner = await world.aWorld({ ticketing: true });
    const { stockId } = await world.anEventDate(owner);

    const refused = refusalOf(await world.graph(owner.key, CHECK, { stockId }));

    expect(refused.code).toBe('BAD_REQUEST');
    expect(await world.bookingsOf(owner)).toBe(0);
  });
});

describe('The ticketing check in production', () => {
  let testApp: TestApp;
  let sandbox: CreatedSandbox;

  beforeAll(async () => {
    testApp = await createTestApp({ env: { APP_ENV: 'production' } });
    sandbox = await createSandbox(testApp.database.orm.em.fork(), testApp.clock, 'test');
  });
  afterAll(() => testApp?.close());

  it('is refused: it would make a sandbox booking', async () => {
    const answer = (await graphqlAs(testApp, sandbox.apiKey, CHECK, { stockId: 1 })).body as GraphAnswer;

    expect(refusalOf(answer)).toMatchObject({
      code: 'FORBIDDEN',
      message: 'The ticketing check makes a sandbox booking: it runs outside production only',
    });
    expect(await testApp.database.orm.em.fork().count(Booking, {})).toBe(0);
  });
});

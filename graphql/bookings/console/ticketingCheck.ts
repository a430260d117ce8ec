import { hasSandboxFeatures } from '../../../platform/appEnv.js';
import { bookableStock } from '../../offers/stockReservation.js';
import { Stock } from '../../offers/Stock.js';
import type { GraphContext } from '../../shared/context.js';
import { BadRequestError, DomainError, ForbiddenError } from '../../shared/errors.js';
import type { Booking } from '../Booking.js';
import { bookStock, issueProblems } from '../bookingSaga.js';
import { BookingTicket } from '../BookingTicket.js';
import { cancelByVenue } from '../countermarks.js';
import { isAlreadyCancelled, remainingPlacesOf } from '../messages.js';
import type { ProviderMessage } from '../ProviderMessage.js';
import { sandboxBeneficiary } from '../sandboxBeneficiaries.js';
import { isSuccess, type TicketingCall } from '../ticketingCalls.js';
import { messagesOwner } from './providerMessages.js';

export type TicketingCheckStepName = 'BOOKING' | 'CANCELLATION';

/** One call of the check, as the integrator needs it to fix their system. */
export interface TicketingCheckStep {
  step: TicketingCheckStepName;
  /** Whether the platform called the ticketing system (it does not without a URL, or after a failed booking). */
  called: boolean;
  /** The call as recorded among the messages: what was sent, signed, and what came back. */
  message: ProviderMessage | null;
  statusCode: number | null;
  /** Whether the answer has the shape expected of a success; null when there was no 2xx answer to judge. */
  expectedShape: boolean | null;
  shapeProblems: string[];
  /** What the platform did with the answer, in words. */
  outcome: string;
  succeeded: boolean;
}

export interface TicketingCheck {
  passed: boolean;
  bookingId: number | null;
  steps: TicketingCheckStep[];
}

/** What keeps a 2xx cancellation answer from being the expected one: `remainingQuantity`, an integer or null. */
export function cancellationAnswerProblems(answer: unknown): string[] {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return ['the answer is not a JSON object'];
  if (!('remainingQuantity' in answer))
    return ['`remainingQuantity` is missing: the platform gives the places back on its own count'];
  if (remainingPlacesOf(answer.remainingQuantity) === undefined)
    return ['`remainingQuantity` is not an integer from 0 up, nor null: the platform ignores it'];
  return [];
}

/** The places a date has left, in words. */
async function placesLeft(context: GraphContext, stockId: number): Promise<string> {
  const stock = await context.em.fork().findOneOrFail(Stock, stockId);
  if (stock.quantity === null) return 'the date now has no limit of places';
  return `the date now has ${stock.quantity - stock.bookedQuantity} place(s) left`;
}

function shapeOf(call: TicketingCall | null, problemsOf: (body: unknown) => string[]) {
  if (!call || !isSuccess(call.outcome)) return { expectedShape: null, shapeProblems: [] };
  const shapeProblems = problemsOf(call.outcome.body);
  return { expectedShape: shapeProblems.length === 0, shapeProblems };
}

function stepOf(
  step: TicketingCheckStepName,
  call: TicketingCall | null,
  shape: { expectedShape: boolean | null; shapeProblems: string[] },
  outcome: string,
  succeeded: boolean,
): TicketingCheckStep {
  return {
    step,
    called: call !== null,
    message: call?.message ?? null,
    statusCode: call?.outcome.kind === 'answered' ? call.outcome.status : null,
    ...shape,
    outcome,
    succeeded,
  };
}

/** Runs a step, answering what it made or the domain's refusal (any other error is the platform's own). */
async function attempt<T>(run: () => Promise<T>): Promise<{ done: T } | { refusal: string }> {
  try {
    return { done: await run() };
  } catch (error) {
    if (error instanceof DomainError) return { refusal: error.message };
    throw error;
  }
}

/**
 * "Check my ticketing system": books one place of a date of the caller's (an event with tickets)
 * for their test beneficiary, by the real booking call to their booking URL, then cancels that
 * booking by the real cancellation call to their cancellation URL, and reports each step. Outside
 * production only: it makes a sandbox booking.
 */
export async function checkTicketing(context: GraphContext, stockId: number): Promise<TicketingCheck> {
  if (!hasSandboxFeatures(context.appEnv))
    throw new ForbiddenError('The ticketing check makes a sandbox booking: it runs outside production only');
  messagesOwner(context, 'checks its ticketing system');
  const stock = await bookableStock(context, stockId, context.clock.now());
  if (!stock.offer.hasTicket)
    throw BadRequestError.on(
      'stockId',
      'This date is of an offer without tickets: the platform calls no ticketing system for it',
    );

  let bookingCall: TicketingCall | null = null;
  const booked = await attempt(() =>
    bookStock(
      context,
      { stockId, quantity: 1 },
      (owner) => sandboxBeneficiary(context, owner, null),
      (call) => (bookingCall = call),
    ),
  );
  const bookingShape = shapeOf(bookingCall, (body) => issueProblems(body, 1));
  if ('refusal' in booked) {
    const steps = [
      stepOf('BOOKING', bookingCall, bookingShape, `No booking was recorded: ${booked.refusal}`, false),
      stepOf(
        'CANCELLATION',
        null,
        { expectedShape: null, shapeProblems: [] },
        'Not run: there is no booking to cancel',
        false,
      ),
    ];
    return { passed: false, bookingId: null, steps };
  }
  const booking: Booking = booked.done;
  const barcodes = (
    await context.em.fork().find(BookingTicket, { booking: booking.id }, { orderBy: { id: 'asc' } })
  ).map((ticket) => ticket.barcode);
  const bookingOutcome =
    `Booking ${booking.id} recorded (countermark ${booking.token}) with the ticket(s) ${barcodes.join(', ')}; ` +
    (await placesLeft(context, stockId));

  let cancellationCall: TicketingCall | null = null;
  const cancelled = await attempt(() => cancelByVenue(context, booking.token, (call) => (cancellationCall = call)));
  const cancellationShape = shapeOf(cancellationCall, cancellationAnswerProblems);
  const called = cancellationCall as TicketingCall | null;
  let cancellationOutcome: string;
  if ('refusal' in cancelled)
    cancellationOutcome = `The booking was not cancelled: ${cancelled.refusal}; sandbox booking ${booking.id} stays CONFIRMED`;
  else if (!called) cancellationOutcome = `No cancellation URL: booking ${booking.id} was cancelled here only`;
  else
    cancellationOutcome =
      `Booking ${booking.id} cancelled${isAlreadyCancelled(called.outcome) ? ' (your system had cancelled the tickets already)' : ''}` +
      `, its beneficiary refunded; ${await placesLeft(context, stockId)}`;
  const cancellationSucceeded = !('refusal' in cancelled) && called !== null;
  const steps = [
    stepOf('BOOKING', bookingCall, bookingShape, bookingOutcome, true),
    stepOf('CANCELLATION', called, cancellationShape, cancellationOutcome, cancellationSucceeded),
  ];
  const passed = steps.every((step) => step.succeeded && step.expectedShape !== false);
  return { passed, bookingId: booking.id, steps };
}

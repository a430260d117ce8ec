/**
 * The booking saga: a booking recorded here (places, credit, tickets) and, for an event with
 * tickets, the ticketing system's call before it and the cancellation of its tickets when the
 * booking is refused after all.
 */
import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/core';
import { callerProviderId } from '../offers/access.js';
import type { Stock } from '../offers/Stock.js';
import { DATE_QUANTITY_MAX } from '../offers/limits.js';
import { bookableStock, reservePlaces, setRemainingPlaces } from '../offers/stockReservation.js';
import type { GraphContext } from '../shared/context.js';
import { BadRequestError } from '../shared/errors.js';
import { failureReason, type SignedPostOutcome } from '../../platform/messaging/signedPost.js';
import { Beneficiary } from './Beneficiary.js';
import { Booking } from './Booking.js';
import { BARCODE_MAX_LENGTH, SEAT_MAX_LENGTH, STRAY_BARCODE_MAX_LENGTH } from './limits.js';
import { bookingDetailsOf, type ProviderEndpoints, providerEndpoints } from './bookingDetails.js';
import { BookingTicket } from './BookingTicket.js';
import { queueBookingNotification, queueTicketCancellation, remainingPlacesOf } from './messages.js';
import { cancellationLimitOf, newToken } from './rules.js';
import { callTicketing, isSuccess, type TicketingCallObserver } from './ticketingCalls.js';

/** Takes the price from the credit with one conditional UPDATE: concurrent bookings never overspend it. */
async function debitCredit(em: EntityManager, beneficiaryId: number, total: number): Promise<boolean> {
  const updated = await em.nativeUpdate(
    Beneficiary,
    { id: beneficiaryId, credit: { $gte: total } },
    { credit: raw('credit - ?', [total]) },
  );
  return updated === 1;
}

export interface BookingRequest {
  stockId: number;
  quantity: number;
}

interface Ticket {
  barcode: string;
  seat: string | null;
}

/** What a ticketing system issued for a booking of `quantity` places, as this platform keeps it. */
interface Issue {
  /** One per place: the booking's tickets. */
  tickets: Ticket[];
  /** Tickets issued beyond the places booked, to be cancelled there. */
  surplus: Ticket[];
  /** The places it has left: null for no limit. */
  remainingQuantity: number | null;
}

/**
 * What keeps a 2xx answer from being a valid issue of tickets for `quantity` places, in words;
 * none when it is one. It must hold `tickets`, each with a barcode of 1 to BARCODE_MAX_LENGTH
 * characters, one per place (or two for one place: pass Culture keeps the second and cancels the
 * first), and `remainingQuantity` (an integer, or null for no limit).
 */
export function issueProblems(answer: unknown, quantity: number): string[] {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return ['the answer is not a JSON object'];
  const problems: string[] = [];
  const { tickets, remainingQuantity } = answer as { tickets?: unknown; remainingQuantity?: unknown };
  if (!('remainingQuantity' in answer))
    problems.push('`remainingQuantity` is missing (an integer, or null for no limit)');
  else if (remainingPlacesOf(remainingQuantity) === undefined)
    problems.push(`\`remainingQuantity\` is not an integer from 0 to ${DATE_QUANTITY_MAX}, nor null`);
  if (!Array.isArray(tickets)) {
    problems.push('`tickets` is missing (a list, one ticket per place)');
    return problems;
  }
  tickets.forEach((ticket, index) => {
    const { barcode } = (ticket ?? {}) as { barcode?: unknown };
    if (typeof barcode !== 'string' || barcode.length === 0 || barcode.length > BARCODE_MAX_LENGTH)
      problems.push(`\`tickets[${index}].barcode\` is not a string of 1 to ${BARCODE_MAX_LENGTH} characters`);
  });
  if (tickets.length !== quantity && !(tickets.length === 2 && quantity === 1))
    problems.push(`\`tickets\` holds ${tickets.length} ticket(s) for ${quantity} place(s)`);
  return problems;
}

/** The tickets of a 2xx answer, or null when it is not a valid issue of tickets (see issueProblems). */
function issueOf(answer: unknown, quantity: number): Issue | null {
  if (issueProblems(answer, quantity).length > 0) return null;
  const { tickets, remainingQuantity } = answer as {
    tickets: { barcode: string; seat?: unknown }[];
    remainingQuantity: unknown;
  };
  const parsed: Ticket[] = tickets.map(({ barcode, seat }) => ({
    barcode,
    seat: typeof seat === 'string' ? seat.slice(0, SEAT_MAX_LENGTH) : null,
  }));
  const remaining = remainingPlacesOf(remainingQuantity) ?? null;
  if (parsed.length === quantity) return { tickets: parsed, surplus: [], remainingQuantity: remaining };
  return { tickets: [parsed[1]], surplus: [parsed[0]], remainingQuantity: remaining };
}

/** The barcodes of an answer that is not a valid issue of tickets, if it holds any. */
function strayBarcodes(answer: unknown): string[] {
  const tickets = (answer as { tickets?: unknown } | null)?.tickets;
  if (!Array.isArray(tickets)) return [];
  return tickets
    .map((ticket) => (ticket as { barcode?: unknown } | null)?.barcode)
    .filter(
      (barcode): barcode is string =>
        typeof barcode === 'string' && barcode.length > 0 && barcode.length <= STRAY_BARCODE_MAX_LENGTH,
    );
}

/** Why a ticketing system refused, from its answer. */
function ticketingRefusal(outcome: SignedPostOutcome): { message: string; remaining: number | null } {
  if (outcome.kind !== 'answered')
    return { message: `The ticketing system did not confirm the booking (${failureReason(outcome)})`, remaining: null };
  // Here null is no count at all: a refusal never makes a date unlimited.
  const placesOrNull = (value: unknown) => remainingPlacesOf(value) ?? null;
  const body = (outcome.body ?? {}) as { error?: unknown; remainingQuantity?: unknown };
  if (outcome.status === 409 && body.error === 'sold_out')
    return { message: 'The ticketing system has no places left', remaining: 0 };
  if (outcome.status === 409 && body.error === 'not_enough_seats') {
    const remaining = placesOrNull(body.remainingQuantity);
    return {
      message: `The ticketing system has not enough places left${remaining !== null ? ` (${remaining})` : ''}`,
      remaining,
    };
  }
  return {
    message: `The ticketing system did not confirm the booking (it answered ${outcome.status})`,
    remaining: null,
  };
}

/**
 * Books a stock for a beneficiary, by every real rule: a bookable offer, places left (never
 * oversold), enough credit, duo only where allowed. An event with tickets is first booked at
 * the provider's ticketing system, outside any transaction; tickets issued there for a booking
 * refused here are cancelled there (the compensation). `beneficiaryOf` names who books, once
 * the stock is known to be bookable; `observeTicketing` is shown the ticketing call, if one is made.
 */
export async function bookStock(
  context: GraphContext,
  input: BookingRequest,
  beneficiaryOf: (providerId: number) => Promise<Beneficiary>,
  observeTicketing?: TicketingCallObserver,
): Promise<Booking> {
  const providerId = callerProviderId(context);
  if (input.quantity !== 1 && input.quantity !== 2)
    throw BadRequestError.on('quantity', 'A booking is of 1 place, or 2 for a duo');
  const now = context.clock.now();
  const stock = await bookableStock(context, input.stockId, now);
  const beneficiary = await beneficiaryOf(providerId);
  if (input.quantity === 2 && !stock.offer.enableDoubleBookings)
    throw BadRequestError.on('quantity', 'This offer does not allow duo bookings');
  const total = stock.price * input.quantity;
  if (beneficiary.credit < total)
    throw BadRequestError.on('quantity', `Not enough credit: ${beneficiary.credit} cents left for ${total}`);
  const draft = {
    quantity: input.quantity,
    amount: stock.price,
    creationDate: now,
    cancellationLimitDate: cancellationLimitOf(stock.beginningDatetime, now),
    status: 'CONFIRMED' as const,
  };
  const endpoints = await providerEndpoints(context.em, providerId, stock.offer.venue.id);
  if (!stock.offer.hasTicket) {
    return context.em.transactional(async (em) => {
      const booking = await recordBooking(em, stock, beneficiary, draft, []);
      await queueBookingNotification(
        em,
        context.clock,
        endpoints,
        { providerId, bookingId: booking.id },
        'BOOK',
        bookingDetailsOf(stock, beneficiary, booking),
      );
      return booking;
    });
  }

  if (!endpoints.bookingUrl) throw BadRequestError.on('stockId', 'The provider has no booking URL for this venue');
  const details = bookingDetailsOf(stock, beneficiary, draft);
  const outcome = await callTicketing(
    context,
    {
      providerId,
      bookingId: null,
      kind: 'TICKET_BOOKING',
      url: endpoints.bookingUrl,
      body: JSON.stringify(details),
      secret: endpoints.secret,
    },
    {
      delivered: (answer) => isSuccess(answer) && issueOf(answer.body, input.quantity) !== null,
      problems: (body) => issueProblems(body, input.quantity),
    },
    observeTicketing,
  );
  const succeeded = isSuccess(outcome);
  const issued = succeeded ? issueOf(outcome.body, input.quantity) : null;
  if (!issued) {
    // A 2xx that is not a valid issue of tickets is refused; whatever barcodes it carried are cancelled.
    const stray = succeeded ? strayBarcodes(outcome.body) : [];
    if (stray.length > 0) await compensateTickets(context, providerId, endpoints, stray);
    const { message, remaining } = ticketingRefusal(outcome);
    if (remaining !== null) await context.em.transactional((em) => setRemainingPlaces(em, stock.id, remaining));
    throw BadRequestError.on('stockId', message);
  }
  try {
    return await context.em.transactional(async (em) => {
      const booking = await recordBooking(em, stock, beneficiary, draft, issued.tickets);
      await setRemainingPlaces(em, stock.id, issued.remainingQuantity);
      await queueTicketCancellation(
        em,
        context.clock,
        endpoints,
        { providerId, bookingId: null },
        issued.surplus.map((ticket) => ticket.barcode),
      );
      return booking;
    });
  } catch (error) {
    // Refused here after the ticketing system issued tickets: they are cancelled there, by a job.
    const all = [...issued.surplus, ...issued.tickets].map((ticket) => ticket.barcode);
    await compensateTickets(context, providerId, endpoints, all);
    throw error;
  }
}

/** Queues the cancellation of tickets no booking here holds, in a transaction of its own. */
async function compensateTickets(
  context: GraphContext,
  providerId: number,
  endpoints: ProviderEndpoints,
  barcodes: string[],
): Promise<void> {
  await context.em
    .fork()
    .transactional((em) =>
      queueTicketCancellation(em, context.clock, endpoints, { providerId, bookingId: null }, barcodes),
    );
}

/** Places reserved, credit debited, booking and tickets written: all in the caller's transaction. */
async function recordBooking(
  em: EntityManager,
  stock: Stock,
  beneficiary: Beneficiary,
  draft: Pick<Booking, 'quantity' | 'amount' | 'creationDate' | 'cancellationLimitDate' | 'status'>,
  tickets: Ticket[],
): Promise<Booking> {
  if (!(await reservePlaces(em, stock.id, draft.quantity)))
    throw BadRequestError.on('stockId', 'No places left on this stock');
  if (!(await debitCredit(em, beneficiary.id, draft.amount * draft.quantity)))
    throw BadRequestError.on('quantity', 'Not enough credit left');
  const booking = em.create(Booking, {
    ...draft,
    offer: stock.offer.id,
    stock: stock.id,
    provider: stock.offer.provider.id,
    beneficiary: beneficiary.id,
    token: await freeToken(em),
  });
  for (const ticket of tickets) em.create(BookingTicket, { booking, barcode: ticket.barcode, seat: ticket.seat });
  await em.flush();
  return booking;
}

async function freeToken(em: EntityManager): Promise<string> {
  for (;;) {
    const token = newToken();
    if (!(await em.findOne(Booking, { token }))) return token;
  }
}

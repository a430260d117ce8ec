import { LockMode } from '@mikro-orm/core';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { reachableOffers } from '../offers/access.js';
import { hasActiveVenueLink } from '../providers/access.js';
import type { GraphContext } from '../shared/context.js';
import { BadRequestError, NotFoundError } from '../shared/errors.js';
import { failureReason } from '../../platform/messaging/signedPost.js';
import { Booking } from './Booking.js';
import { providerEndpoints } from './bookingDetails.js';
import { BookingTicket } from './BookingTicket.js';
import { changesOf, checkMove, type VenueAction } from './bookingTransitions.js';
import { cancelBooking, type TicketsCancelled } from './lifecycle.js';
import { isAlreadyCancelled, remainingPlacesOf, ticketCancellationBody } from './messages.js';
import { callTicketing, isSuccess, type TicketingCallObserver } from './ticketingCalls.js';

/** A countermark none of the calling provider's bookings has: 404, whether it exists or not. */
export const COUNTERMARK_NOT_FOUND = 'This countermark matches none of your bookings';

/**
 * The booking behind a countermark, if it is one of the calling provider's; 404 otherwise.
 * `forUpdate` (inside a transaction) locks its row on PostgreSQL, so that two operations on one
 * countermark run one after the other and the second sees what the first did (SQLite has a
 * single writer already).
 */
export async function bookingByToken(
  context: GraphContext,
  token: string,
  { forUpdate = false } = {},
): Promise<Booking> {
  const lock = forUpdate && context.em.getPlatform() instanceof PostgreSqlPlatform;
  const booking = await context.em.findOne(
    Booking,
    // Scoped through its offer: a key reaches its provider's bookings on its own offerer's venues only.
    { token: token.toUpperCase(), offer: reachableOffers(context) },
    // Only the booking's row (`FOR UPDATE OF b0`): locking the joined offer would serialise, and
    // deadlock, every booking of the offer.
    { ...(lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, lockTableAliases: ['b0'] } : {}), refresh: forUpdate },
  );
  if (!booking) throw new NotFoundError(COUNTERMARK_NOT_FOUND);
  await context.em.populate(booking, ['offer']);
  await requireActiveVenueLink(context, booking.offer.venue.id, COUNTERMARK_NOT_FOUND);
  return booking;
}

/** The bookings of a venue the calling provider is no longer linked to are out of reach (hasActiveVenueLink). */
export async function requireActiveVenueLink(context: GraphContext, venueId: number, notFound: string): Promise<void> {
  if (!(await hasActiveVenueLink(context, venueId))) throw new NotFoundError(notFound);
}

/**
 * Moves the booking behind a countermark as the venue asks, or refuses as the transition table
 * says. Its row is locked first, so that the status checked is the status changed.
 */
function moveByToken(
  context: GraphContext,
  token: string,
  action: VenueAction,
  ticketsCancelled?: TicketsCancelled,
): Promise<Booking> {
  return context.em.transactional(async (em) => {
    const booking = await bookingByToken({ ...context, em }, token, { forUpdate: true });
    const now = context.clock.now();
    checkMove(booking, action, now);
    if (action === 'cancelByVenue') await cancelBooking(em, context.clock, booking, action, { ticketsCancelled });
    else em.assign(booking, changesOf(action, now));
    await em.flush();
    return booking;
  });
}

/** CONFIRMED -> USED. */
export function useBooking(context: GraphContext, token: string): Promise<Booking> {
  return moveByToken(context, token, 'use');
}

/** USED -> CONFIRMED: a validation made by mistake is undone. */
export function keepBooking(context: GraphContext, token: string): Promise<Booking> {
  return moveByToken(context, token, 'keep');
}

/**
 * CONFIRMED -> CANCELLED by the venue: the beneficiary is refunded and the provider told. A
 * booking with tickets is cancelled at the ticketing system first, and only if it agrees.
 */
export async function cancelByVenue(
  context: GraphContext,
  token: string,
  observeTicketing?: TicketingCallObserver,
): Promise<Booking> {
  const ticketsCancelled = await cancelTicketsFirst(context, token, observeTicketing);
  return moveByToken(context, token, 'cancelByVenue', ticketsCancelled);
}

/**
 * For a booking with tickets, asks the ticketing system to cancel them, outside any transaction
 * (it may take up to the call's time limit), before the booking is cancelled here: a 2xx, or a 409
 * `already_cancelled`, lets the cancellation go on with the places the system says it has left;
 * anything else refuses it (400), and the booking stays as it was. Undefined for a booking
 * without tickets (or without a cancellation URL), which is cancelled here alone.
 */
async function cancelTicketsFirst(
  context: GraphContext,
  token: string,
  observeTicketing?: TicketingCallObserver,
): Promise<TicketsCancelled | undefined> {
  const booking = await bookingByToken(context, token);
  // Refused here already (used, cancelled, too late): the ticketing system is not bothered.
  checkMove(booking, 'cancelByVenue', context.clock.now());
  const tickets = await context.em.find(BookingTicket, { booking: booking.id }, { orderBy: { id: 'asc' } });
  if (tickets.length === 0) return undefined;
  const endpoints = await providerEndpoints(context.em, booking.provider.id, booking.offer.venue.id);
  if (!endpoints.cancelUrl) return undefined;
  const body = ticketCancellationBody(tickets.map((ticket) => ticket.barcode));
  const outcome = await callTicketing(
    context,
    {
      providerId: booking.provider.id,
      bookingId: booking.id,
      kind: 'TICKET_CANCELLATION',
      url: endpoints.cancelUrl,
      body,
      secret: endpoints.secret,
    },
    { delivered: (answer) => isSuccess(answer) || isAlreadyCancelled(answer) },
    observeTicketing,
  );
  const succeeded = isSuccess(outcome);
  if (!succeeded && !isAlreadyCancelled(outcome)) {
    throw BadRequestError.on('global', `The ticketing system did not cancel the tickets (${failureReason(outcome)})`);
  }
  // Without a usable remainingQuantity the places are only given back here, as for any cancellation.
  const answer = outcome.kind === 'answered' ? outcome.body : null;
  const given = answer !== null && typeof answer === 'object' && 'remainingQuantity' in answer;
  return { remaining: given ? remainingPlacesOf(answer.remainingQuantity) : undefined };
}

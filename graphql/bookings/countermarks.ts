import { LockMode } from '@mikro-orm/core';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { reachableOffers } from '../offers/access.js';
import type { GraphContext } from '../shared/context.js';
import { NotFoundError } from '../shared/errors.js';
import { Booking } from './Booking.js';
import { changesOf, checkMove, type VenueAction } from './bookingTransitions.js';
import { cancelBooking } from './lifecycle.js';

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
  if (!booking) throw new NotFoundError('This countermark matches none of your bookings');
  await context.em.populate(booking, ['offer']);
  return booking;
}

/**
 * Moves the booking behind a countermark as the venue asks, or refuses as the transition table
 * says. Its row is locked first, so that the status checked is the status changed.
 */
function moveByToken(context: GraphContext, token: string, action: VenueAction): Promise<Booking> {
  return context.em.transactional(async (em) => {
    const booking = await bookingByToken({ ...context, em }, token, { forUpdate: true });
    const now = context.clock.now();
    checkMove(booking, action, now);
    if (action === 'cancelByVenue') await cancelBooking(em, context.clock, booking, action);
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

/** CONFIRMED -> CANCELLED by the venue: the beneficiary is refunded and the provider told. */
export function cancelByVenue(context: GraphContext, token: string): Promise<Booking> {
  return moveByToken(context, token, 'cancelByVenue');
}

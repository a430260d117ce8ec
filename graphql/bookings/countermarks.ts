import { LockMode } from '@mikro-orm/core';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { reachableOffers } from '../offers/access.js';
import type { GraphContext } from '../shared/context.js';
import { ForbiddenError, GoneError, NotFoundError } from '../shared/errors.js';
import { Booking } from './Booking.js';
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

function isBeforeCancellationLimit(booking: Booking, now: Date): boolean {
  return booking.cancellationLimitDate !== null && now.getTime() < booking.cancellationLimitDate.getTime();
}

/**
 * Whether the booking may be handed over now (the answers of `use`, shared by a lookup):
 * USED and CANCELLED are gone (410), REIMBURSED is closed (403), and an event booking still
 * within its cancellation period may not be validated yet (403, saying until when).
 */
export function checkUsable(booking: Booking, now: Date): void {
  if (booking.status === 'USED') throw new GoneError('This booking has already been validated');
  if (booking.status === 'CANCELLED') throw new GoneError('This booking has been cancelled');
  if (booking.status === 'REIMBURSED') throw new ForbiddenError('This booking has been reimbursed');
  if (isBeforeCancellationLimit(booking, now)) {
    throw new ForbiddenError(
      `The beneficiary may still cancel this booking until ${booking.cancellationLimitDate!.toISOString()}: validate it after that`,
    );
  }
}

/** CONFIRMED -> USED. */
export function useBooking(context: GraphContext, token: string): Promise<Booking> {
  return context.em.transactional(async (em) => {
    const booking = await bookingByToken({ ...context, em }, token, { forUpdate: true });
    const now = context.clock.now();
    checkUsable(booking, now);
    booking.status = 'USED';
    booking.dateUsed = now;
    await em.flush();
    return booking;
  });
}

/** USED -> CONFIRMED: a validation made by mistake is undone. */
export function keepBooking(context: GraphContext, token: string): Promise<Booking> {
  return context.em.transactional(async (em) => {
    const booking = await bookingByToken({ ...context, em }, token, { forUpdate: true });
    if (booking.status === 'CANCELLED') throw new GoneError('This booking has been cancelled');
    if (booking.status === 'REIMBURSED') throw new ForbiddenError('This booking has been reimbursed');
    if (booking.status !== 'USED')
      throw new ForbiddenError('This booking has not been validated: there is nothing to undo');
    booking.status = 'CONFIRMED';
    booking.dateUsed = null;
    await em.flush();
    return booking;
  });
}

/**
 * CONFIRMED -> CANCELLED by the venue: a product at any time, an event only while its
 * beneficiary may still cancel (afterwards the booking is due).
 */
export async function cancelByVenue(context: GraphContext, token: string): Promise<Booking> {
  return context.em.transactional(async (em) => {
    const booking = await bookingByToken({ ...context, em }, token, { forUpdate: true });
    if (booking.status === 'USED') throw new GoneError('This booking has already been validated: undo it (keep) first');
    if (booking.status === 'CANCELLED') throw new GoneError('This booking has already been cancelled');
    if (booking.status === 'REIMBURSED') throw new ForbiddenError('This booking has been reimbursed');
    if (booking.offer.isEvent && !isBeforeCancellationLimit(booking, context.clock.now())) {
      throw new ForbiddenError('This event booking is past its cancellation limit: it can no longer be cancelled');
    }
    await cancelBooking(em, context.clock, booking, 'OFFERER');
    await em.flush();
    return booking;
  });
}

import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../platform/time/clock.js';
import { Booking } from './Booking.js';
import { changesOf, statusBefore } from './bookingTransitions.js';
import { cancelBooking } from './lifecycle.js';
import { AUTO_USE_DELAY_MS, BOOK_PICKUP_DAYS, CANCELLATION_WINDOW_MS } from './limits.js';
import { pickupDaysOf, rescheduledCancellationLimitOf } from './rules.js';

const DAY_MS = 86_400_000;

export interface TransitionRun {
  used: number;
  expired: number;
  reimbursed: number;
}

/** All providers, or one (the sandbox runs a provider's transitions only). */
function ofProvider(providerId: number | undefined): { provider?: number } {
  return providerId === undefined ? {} : { provider: providerId };
}

/** An event booking the venue did not validate counts as used 48 hours after the event. */
export async function autoUseEventBookings(em: EntityManager, now: Date, providerId?: number): Promise<number> {
  const due = await em.find(
    Booking,
    {
      ...ofProvider(providerId),
      status: statusBefore('autoUse'),
      stock: { beginningDatetime: { $lte: new Date(now.getTime() - AUTO_USE_DELAY_MS) } },
    },
    { fields: ['id'] },
  );
  if (due.length === 0) return 0;
  // Conditional: a booking cancelled or used meanwhile is left as it is.
  return em.nativeUpdate(
    Booking,
    { id: { $in: due.map((booking) => booking.id) }, status: statusBefore('autoUse') },
    changesOf('autoUse', now),
  );
}

/** A product not picked up is cancelled (and its credit refunded) after 10 days for a book, 30 otherwise. */
export async function expireUnpickedProducts(em: EntityManager, clock: Clock, providerId?: number): Promise<number> {
  const now = clock.now();
  const candidates = await em.find(
    Booking,
    {
      ...ofProvider(providerId),
      status: statusBefore('expire'),
      offer: { isEvent: false },
      // The shortest delay first; each booking is then held to its category's own.
      creationDate: { $lte: new Date(now.getTime() - BOOK_PICKUP_DAYS * DAY_MS) },
    },
    { populate: ['offer'] },
  );
  let expired = 0;
  for (const booking of candidates) {
    if (booking.creationDate.getTime() > now.getTime() - pickupDaysOf(booking.offer.category) * DAY_MS) continue;
    // One transaction per booking: a crash in the middle of a run leaves no half-cancelled booking.
    if (await em.transactional((tx) => cancelBooking(tx, clock, tx.merge(booking), 'expire'))) expired += 1;
  }
  return expired;
}

/** The reimbursement run (every two weeks): used bookings are paid to the venue. */
export async function reimburseUsedBookings(em: EntityManager, now: Date, providerId?: number): Promise<number> {
  return em.nativeUpdate(
    Booking,
    { ...ofProvider(providerId), status: statusBefore('reimburse') },
    changesOf('reimburse', now),
  );
}

/**
 * Every periodic transition as at `clock.now()`. The reimbursement comes first: it pays what was
 * used before this run, so a booking marked used by this run shows USED until the next one.
 */
export async function runBookingTransitions(
  em: EntityManager,
  clock: Clock,
  providerId?: number,
): Promise<TransitionRun> {
  const now = clock.now();
  const reimbursed = await reimburseUsedBookings(em, now, providerId);
  const used = await autoUseEventBookings(em, now, providerId);
  const expired = await expireUnpickedProducts(em, clock, providerId);
  return { used, expired, reimbursed };
}

/**
 * A deleted stock (a date, a product's stock) cancels its unused bookings, on the platform's
 * side only: the provider deleted it, so its ticketing system is not called to cancel tickets.
 */
export async function cancelBookingsOfStock(em: EntityManager, clock: Clock, stockId: number): Promise<number> {
  const bookings = await em.find(Booking, { stock: stockId, status: statusBefore('cancelWithStock') });
  let cancelled = 0;
  for (const booking of bookings) {
    if (await cancelBooking(em, clock, booking, 'cancelWithStock', { callTicketing: false })) cancelled += 1;
  }
  await em.flush();
  return cancelled;
}

/**
 * A rescheduled date restarts its bookings' cancellation window (see
 * rescheduledCancellationLimitOf); moved more than 48 hours ahead, its USED bookings are
 * unused again (CONFIRMED): the event they were used for has not taken place. Answers how many
 * bookings it changed.
 */
export async function rescheduleBookingsOfStock(
  em: EntityManager,
  clock: Clock,
  stockId: number,
  beginning: Date,
): Promise<number> {
  const now = clock.now();
  if (beginning.getTime() > now.getTime() + CANCELLATION_WINDOW_MS) {
    await em.nativeUpdate(Booking, { stock: stockId, status: statusBefore('keep') }, changesOf('keep', now));
  }
  return em.nativeUpdate(
    Booking,
    { stock: stockId, status: { $in: ['CONFIRMED', 'USED'] } },
    { cancellationLimitDate: rescheduledCancellationLimitOf(beginning, now) },
  );
}

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

/**
 * Bookings a run reads and moves at a time. Read oldest first through the partial index that
 * holds them, a batch ends the read early instead of the planner reading whole tables on an
 * estimate (decision 035).
 */
const TRANSITION_BATCH = 1_000;

/** An event booking the venue did not validate counts as used 48 hours after the event. */
export async function autoUseEventBookings(em: EntityManager, now: Date, providerId?: number): Promise<number> {
  const cutoff = new Date(now.getTime() - AUTO_USE_DELAY_MS);
  let used = 0;
  for (;;) {
    const due = await em.find(
      Booking,
      {
        ...ofProvider(providerId),
        status: statusBefore('autoUse'),
        // Implied by the event's condition, since a booking's cancellation limit never comes after
        // its event: said, so that the run reads the confirmed bookings past their limit, few, by
        // their index (decision 035).
        cancellationLimitDate: { $lte: cutoff },
        stock: { beginningDatetime: { $lte: cutoff } },
      },
      { fields: ['id'], orderBy: { cancellationLimitDate: 'asc' }, limit: TRANSITION_BATCH },
    );
    if (due.length === 0) return used;
    // Conditional: a booking cancelled or used meanwhile is left as it is. Either way it leaves the
    // confirmed bookings, so the next batch reads others.
    used += await em.nativeUpdate(
      Booking,
      { id: { $in: due.map((booking) => booking.id) }, status: statusBefore('autoUse') },
      changesOf('autoUse', now),
    );
    if (due.length < TRANSITION_BATCH) return used;
  }
}

/** A product not picked up is cancelled (and its credit refunded) after 10 days for a book, 30 otherwise. */
export async function expireUnpickedProducts(em: EntityManager, clock: Clock, providerId?: number): Promise<number> {
  const now = clock.now();
  // Only a product's booking has no cancellation limit: the partial index holds the confirmed ones
  // alone. Their offers are read apart (select-in): joined, the planner read every offer (decision 035).
  const candidates = await em.find(
    Booking,
    {
      ...ofProvider(providerId),
      status: statusBefore('expire'),
      cancellationLimitDate: null,
      // The shortest delay first; each booking is then held to its category's own.
      creationDate: { $lte: new Date(now.getTime() - BOOK_PICKUP_DAYS * DAY_MS) },
    },
    { populate: ['offer'], strategy: 'select-in' },
  );
  let expired = 0;
  for (const booking of candidates) {
    if (booking.offer.isEvent) continue;
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

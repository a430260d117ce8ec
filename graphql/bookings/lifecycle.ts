import { raw, type EntityManager } from '@mikro-orm/core';
import { releasePlaces, setRemainingPlaces } from '../offers/stockReservation.js';
import { Stock } from '../offers/Stock.js';
import type { Clock } from '../../platform/time/clock.js';
import { Beneficiary } from './Beneficiary.js';
import { Booking } from './Booking.js';
import { type CancellingAction, changesOf, statusBefore } from './bookingTransitions.js';
import { bookingDetailsOf, providerEndpoints } from './bookingDetails.js';
import { BookingTicket } from './BookingTicket.js';
import { queueBookingNotification, queueTicketCancellation } from './messages.js';

/**
 * What the ticketing system answered when the caller had it cancel the booking's tickets before
 * this cancellation: the places it has left (null: unlimited; undefined: it did not say).
 */
export interface TicketsCancelled {
  remaining: number | null | undefined;
}

/**
 * Cancels a CONFIRMED booking inside the caller's transaction, for the reason `action` gives
 * (false, and nothing done, when it is no longer CONFIRMED): the credit goes back to the beneficiary,
 * the places back to the stock (unless the stock is gone), and the provider is told: its
 * tickets cancelled at its cancellation URL for a ticketing booking (queued, unless the caller
 * cancelled them already: `ticketsCancelled`, whose remaining places the stock then takes), a
 * CANCEL notification otherwise. `callTicketing: false` cancels on the platform's side only (the
 * provider deleted the date itself): its ticketing system is not called, and a ticketing booking
 * gets no message.
 */
export async function cancelBooking(
  em: EntityManager,
  clock: Clock,
  booking: Booking,
  action: CancellingAction,
  { callTicketing = true, ticketsCancelled }: { callTicketing?: boolean; ticketsCancelled?: TicketsCancelled } = {},
): Promise<boolean> {
  // Only a CONFIRMED booking is cancelled, by one conditional UPDATE: of two cancellations (an
  // expiry run and the venue, a deleted stock and a use), one changes the row, the other nothing.
  const changes = changesOf(action, clock.now());
  const cancelled = await em.nativeUpdate(Booking, { id: booking.id, status: statusBefore(action) }, changes);
  if (cancelled !== 1) return false;
  Object.assign(booking, changes);
  // The stock's row before the beneficiary's, as a booking takes them: the same order never deadlocks.
  const stock = await em.findOneOrFail(Stock, booking.stock.id, {
    populate: ['offer', 'offer.address', 'offer.venue', 'offer.venue.address', 'priceCategory'],
  });
  if (!stock.isDeleted) await releasePlaces(em, stock.id, booking.quantity);
  if (ticketsCancelled && ticketsCancelled.remaining !== undefined && !stock.isDeleted)
    await setRemainingPlaces(em, stock.id, ticketsCancelled.remaining);
  // An atomic increment: a refund racing a new booking of the same beneficiary loses neither.
  await em.nativeUpdate(
    Beneficiary,
    { id: booking.beneficiary.id },
    { credit: raw('credit + ?', [booking.amount * booking.quantity]) },
  );
  const beneficiary = await em.findOneOrFail(Beneficiary, booking.beneficiary.id, { refresh: true });
  await em.flush();
  const endpoints = await providerEndpoints(em, booking.provider.id, stock.offer.venue.id);
  const details = bookingDetailsOf(stock, beneficiary, booking);
  const tickets = await em.find(BookingTicket, { booking: booking.id });
  const target = { providerId: booking.provider.id, bookingId: booking.id };
  if (tickets.length > 0 && endpoints.cancelUrl) {
    if (!callTicketing) return true;
    if (!ticketsCancelled)
      await queueTicketCancellation(
        em,
        clock,
        endpoints,
        target,
        tickets.map((ticket) => ticket.barcode),
      );
  } else {
    await queueBookingNotification(em, clock, endpoints, target, 'CANCEL', details);
  }
  return true;
}

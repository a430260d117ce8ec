import type { CollectiveBookingStatus, CollectiveCancellationReason } from './CollectiveBooking.js';
import type { CollectiveValidation } from './CollectiveOffer.js';
import { graphEnum } from '../shared/graphEnums.js';

export const COLLECTIVE_DISPLAYED_STATUSES = [
  'PUBLISHED',
  'UNDER_REVIEW',
  'REJECTED',
  'PREBOOKED',
  'BOOKED',
  'HIDDEN',
  'EXPIRED',
  'ENDED',
  'CANCELLED',
  'REIMBURSED',
  'ARCHIVED',
  'DRAFT',
] as const;
export type CollectiveDisplayedStatus = (typeof COLLECTIVE_DISPLAYED_STATUSES)[number];
export const CollectiveDisplayedStatusEnum = graphEnum(
  'CollectiveOfferDisplayedStatus',
  COLLECTIVE_DISPLAYED_STATUSES,
  'The status of a collective offer as its provider sees it.',
);

/** The deprecated `status` of the contract, still answered beside the displayed status. */
export const COLLECTIVE_LEGACY_STATUSES = [
  'ACTIVE',
  'PENDING',
  'EXPIRED',
  'REJECTED',
  'SOLD_OUT',
  'INACTIVE',
  'DRAFT',
  'ARCHIVED',
] as const;
export type CollectiveLegacyStatus = (typeof COLLECTIVE_LEGACY_STATUSES)[number];
export const CollectiveLegacyStatusEnum = graphEnum(
  'CollectiveOfferStatus',
  COLLECTIVE_LEGACY_STATUSES,
  'The deprecated status of a collective offer, derived from its displayed status.',
);

export interface OfferStatusFacts {
  archivedAt: Date | null;
  validation: CollectiveValidation;
  isActive: boolean;
  startDatetime: Date;
  endDatetime: Date;
  bookingLimitDatetime: Date;
}

export interface BookingStatusFacts {
  status: CollectiveBookingStatus;
  cancellationReason: CollectiveCancellationReason | null;
}

/**
 * What a collective offer shows, from the offer, its dates and its latest booking. The order
 * matters: an archived offer is archived whatever else is true; the compliance review comes
 * next; a school's live booking shows whether or not the offer is hidden (hiding only stops new
 * bookings); then the booking's life and the clock decide.
 */
export function collectiveDisplayedStatus(
  offer: OfferStatusFacts,
  lastBooking: BookingStatusFacts | null,
  now: Date,
): CollectiveDisplayedStatus {
  if (offer.archivedAt) return 'ARCHIVED';
  if (offer.validation === 'DRAFT') return 'DRAFT';
  if (offer.validation === 'PENDING') return 'UNDER_REVIEW';
  if (offer.validation === 'REJECTED') return 'REJECTED';
  const live = lastBooking !== null && lastBooking.status !== 'CANCELLED';
  if (!offer.isActive && !live) return 'HIDDEN';
  const bookingLimitPassed = now.getTime() > offer.bookingLimitDatetime.getTime();
  switch (lastBooking?.status) {
    case undefined:
      return bookingLimitPassed ? 'EXPIRED' : 'PUBLISHED';
    case 'PENDING':
      // A pre-booking the school did not confirm in time lapses with the offer.
      return bookingLimitPassed ? 'EXPIRED' : 'PREBOOKED';
    case 'CONFIRMED':
      return now.getTime() > offer.endDatetime.getTime() ? 'ENDED' : 'BOOKED';
    case 'USED':
      return 'ENDED';
    case 'REIMBURSED':
      return 'REIMBURSED';
    case 'CANCELLED':
      return lastBooking.cancellationReason === 'EXPIRED' ? 'EXPIRED' : 'CANCELLED';
  }
}

/** The deprecated status, derived from the displayed one: one source of truth. */
export function collectiveLegacyStatus(displayed: CollectiveDisplayedStatus): CollectiveLegacyStatus {
  switch (displayed) {
    case 'PUBLISHED':
      return 'ACTIVE';
    case 'UNDER_REVIEW':
      return 'PENDING';
    case 'REJECTED':
      return 'REJECTED';
    case 'PREBOOKED':
    case 'BOOKED':
      return 'SOLD_OUT';
    case 'HIDDEN':
    case 'CANCELLED':
      return 'INACTIVE';
    case 'EXPIRED':
    case 'ENDED':
    case 'REIMBURSED':
      return 'EXPIRED';
    case 'ARCHIVED':
      return 'ARCHIVED';
    case 'DRAFT':
      return 'DRAFT';
  }
}

/** The booking that decides an offer's state: the latest one. */
export function lastBookingOf<Booking extends { id: number }>(bookings: Iterable<Booking>): Booking | null {
  let last: Booking | null = null;
  for (const booking of bookings) if (!last || booking.id > last.id) last = booking;
  return last;
}

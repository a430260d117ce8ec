import { type DomainError, ForbiddenError, GoneError } from '../shared/errors.js';
import type { Booking, BookingStatus, CancellationReason } from './Booking.js';

/**
 * An individual booking's life: CONFIRMED when booked -> USED when the venue validates its
 * countermark (or 48 hours after an event) -> REIMBURSED by the fortnightly run. A validation
 * made by mistake goes back to CONFIRMED; only a CONFIRMED booking is cancelled (by the venue,
 * because it was not picked up, or because its stock is gone).
 */
export type BookingAction = 'use' | 'keep' | 'cancelByVenue' | 'autoUse' | 'expire' | 'cancelWithStock' | 'reimburse';

type Refusal = () => DomainError;

/** What the rules of a move read of a booking: a booking, or a view of one (bookingViews.ts). */
export type MoveSubject = Pick<Booking, 'status' | 'cancellationLimitDate'> & {
  offer: Pick<Booking['offer'], 'isEvent'>;
};

function gone(message: string): Refusal {
  return () => new GoneError(message);
}

function forbidden(message: string): Refusal {
  return () => new ForbiddenError(message);
}

const reimbursed = forbidden('This booking has been reimbursed');

/** Events only: while the beneficiary may still cancel, the venue may not validate, and may still cancel. */
function isBeforeCancellationLimit(booking: MoveSubject, now: Date): boolean {
  return booking.cancellationLimitDate !== null && now.getTime() < booking.cancellationLimitDate.getTime();
}

type Move<From extends BookingStatus, To extends BookingStatus> = {
  from: From;
  to: To;
  /**
   * What the venue is told when the booking is in another status. Without refusals the action
   * is the system's (a periodic run, a deleted stock): a booking in another status is left as it is.
   */
  refusals?: Record<Exclude<BookingStatus, From>, Refusal>;
  /** A refusal that depends on the moment rather than the status, checked once the status allows the move. */
  refuseAt?: (booking: MoveSubject, now: Date) => DomainError | null;
} & (To extends 'CANCELLED' ? { reason: CancellationReason } : { reason?: never });

type AnyMove = {
  [From in BookingStatus]: { [To in Exclude<BookingStatus, From>]: Move<From, To> }[Exclude<BookingStatus, From>];
}[BookingStatus];

/** Which status each action moves from and to, and what it answers otherwise. */
const BOOKING_TRANSITIONS = {
  use: {
    from: 'CONFIRMED',
    to: 'USED',
    refusals: {
      USED: gone('This booking has already been validated'),
      CANCELLED: gone('This booking has been cancelled'),
      REIMBURSED: reimbursed,
    },
    refuseAt: (booking, now) =>
      isBeforeCancellationLimit(booking, now)
        ? new ForbiddenError(
            `The beneficiary may still cancel this booking until ${booking.cancellationLimitDate!.toISOString()}: validate it after that`,
          )
        : null,
  },
  keep: {
    from: 'USED',
    to: 'CONFIRMED',
    refusals: {
      CONFIRMED: forbidden('This booking has not been validated: there is nothing to undo'),
      CANCELLED: gone('This booking has been cancelled'),
      REIMBURSED: reimbursed,
    },
  },
  // A product at any time; an event only while its beneficiary may still cancel (afterwards it is due).
  cancelByVenue: {
    from: 'CONFIRMED',
    to: 'CANCELLED',
    reason: 'OFFERER',
    refusals: {
      USED: gone('This booking has already been validated: undo it (keep) first'),
      CANCELLED: gone('This booking has already been cancelled'),
      REIMBURSED: reimbursed,
    },
    refuseAt: (booking, now) =>
      booking.offer.isEvent && !isBeforeCancellationLimit(booking, now)
        ? new ForbiddenError('This event booking is past its cancellation limit: it can no longer be cancelled')
        : null,
  },
  autoUse: { from: 'CONFIRMED', to: 'USED' },
  expire: { from: 'CONFIRMED', to: 'CANCELLED', reason: 'EXPIRED' },
  cancelWithStock: { from: 'CONFIRMED', to: 'CANCELLED', reason: 'STOCK_DELETED' },
  reimburse: { from: 'USED', to: 'REIMBURSED' },
} satisfies Record<BookingAction, AnyMove>;

/** The actions the venue takes on a countermark: they answer with a refusal rather than doing nothing. */
export type VenueAction = {
  [Action in BookingAction]: (typeof BOOKING_TRANSITIONS)[Action] extends { refusals: object } ? Action : never;
}[BookingAction];

/** The actions that cancel: each refunds the beneficiary and tells the provider (lifecycle.ts). */
export type CancellingAction = {
  [Action in BookingAction]: (typeof BOOKING_TRANSITIONS)[Action]['to'] extends 'CANCELLED' ? Action : never;
}[BookingAction];

/** The status `action` moves a booking from: the condition of its UPDATE, so that of two concurrent moves one applies. */
export function statusBefore(action: BookingAction): BookingStatus {
  return BOOKING_TRANSITIONS[action].from;
}

/** Throws what the venue is told if `action` may not apply to the booking now: its status first, then the moment. */
export function checkMove(booking: MoveSubject, action: VenueAction, now: Date): void {
  const move: AnyMove = BOOKING_TRANSITIONS[action];
  // A venue action refuses every status but the one it moves from, so a refusal found means the status is wrong.
  const refusals: Partial<Record<BookingStatus, Refusal>> = BOOKING_TRANSITIONS[action].refusals;
  const refusal = refusals[booking.status];
  if (refusal) throw refusal();
  const late = move.refuseAt?.(booking, now);
  if (late) throw late;
}

type BookingChanges = Pick<Booking, 'status'> &
  Partial<Pick<Booking, 'dateUsed' | 'cancellationDate' | 'cancellationReason' | 'reimbursementDate'>>;

/** The columns `action` writes: the new status, and when it was entered (or, for a validation undone, left). */
export function changesOf(action: BookingAction, now: Date): BookingChanges {
  const move: AnyMove = BOOKING_TRANSITIONS[action];
  switch (move.to) {
    case 'USED':
      return { status: 'USED', dateUsed: now };
    case 'CONFIRMED':
      return { status: 'CONFIRMED', dateUsed: null };
    case 'CANCELLED':
      return { status: 'CANCELLED', cancellationDate: now, cancellationReason: move.reason };
    case 'REIMBURSED':
      return { status: 'REIMBURSED', reimbursementDate: now };
  }
}

import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { GraphContext } from '../shared/context.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import { hasActiveVenueLink } from '../providers/access.js';
import {
  collectiveBookingForCaller,
  lockCollectiveOffers,
  OFFER_OUT_OF_REACH,
  withLockedCollectiveOffer,
} from './access.js';
import { cancellationLimitFor } from './bookingRules.js';
import type { CollectiveOffer } from './CollectiveOffer.js';
import { CollectiveBooking, type CollectiveBookingStatus } from './CollectiveBooking.js';
import { BOOKABLE_STATUS, CANCELLABLE_BY_PROVIDER } from './actionRules.js';
import { collectiveDisplayedStatus, lastBookingOf } from './displayedStatus.js';
import { EducationalInstitution } from './reference/entities.js';

/**
 * A collective booking's life: PENDING (pre-booked by a teacher) -> CONFIRMED (by the head of
 * school) -> USED (48 hours after the event) -> REIMBURSED; cancelled from PENDING or CONFIRMED
 * (by the school, from USED too, as pass Culture's mock does).
 * The school platform drives it; outside production its mock operations stand in for it.
 */
export type CollectiveTransition =
  'confirm' | 'cancelBySchool' | 'cancelByProvider' | 'use' | 'reimburse' | 'resetToPending';

const ALLOWED_FROM: Record<CollectiveTransition, readonly CollectiveBookingStatus[]> = {
  // A booking already confirmed stays so: the move is a no-op, as on the school platform.
  confirm: ['PENDING', 'CONFIRMED'],
  // The school platform cancels a used booking too (it is then no longer used), not a reimbursed one.
  cancelBySchool: ['PENDING', 'CONFIRMED', 'USED'],
  cancelByProvider: ['PENDING', 'CONFIRMED'],
  use: ['CONFIRMED'],
  reimburse: ['USED'],
  // A booking already pending stays so: the move is a no-op, as on the school platform.
  resetToPending: ['PENDING', 'CONFIRMED', 'CANCELLED'],
};

/** "A", "A or B", "A, B or C". */
function either(states: readonly string[]): string {
  return states.length < 2 ? states.join('') : `${states.slice(0, -1).join(', ')} or ${states[states.length - 1]}`;
}

function changesOf(transition: CollectiveTransition, now: Date): Partial<CollectiveBooking> {
  switch (transition) {
    case 'confirm':
      return { status: 'CONFIRMED', confirmationDate: now };
    case 'cancelBySchool':
      return {
        status: 'CANCELLED',
        cancellationDate: now,
        cancellationReason: 'EDUCATIONAL_INSTITUTION',
        dateUsed: null,
      };
    case 'cancelByProvider':
      return { status: 'CANCELLED', cancellationDate: now, cancellationReason: 'OFFERER' };
    case 'use':
      return { status: 'USED', dateUsed: now };
    case 'reimburse':
      return { status: 'REIMBURSED', reimbursementDate: now };
    case 'resetToPending':
      return {
        status: 'PENDING',
        confirmationDate: null,
        cancellationDate: null,
        cancellationReason: null,
        dateUsed: null,
      };
  }
}

/**
 * Moves one of the caller's bookings, if its state allows (403 otherwise). The update is
 * conditional on the state read, so two concurrent moves never both apply.
 */
export async function moveCollectiveBooking(
  context: GraphContext,
  bookingId: number,
  transition: CollectiveTransition,
): Promise<CollectiveBooking> {
  return context.em.transactional(async (em) => {
    const scoped = { ...context, em };
    const [row] = (await em
      .getConnection()
      .execute(
        'select offer_id from collective_booking where id = ?',
        [bookingId],
        'all',
        em.getTransactionContext(),
      )) as { offer_id: number }[];
    // The offer is locked first, as an edit or the archive locks it: they see the move, or it sees them.
    if (row) await lockCollectiveOffers(em, [row.offer_id]);
    return applyMove(scoped, bookingId, transition);
  });
}

async function applyMove(
  context: GraphContext,
  bookingId: number,
  transition: CollectiveTransition,
): Promise<CollectiveBooking> {
  const booking = await collectiveBookingForCaller(context, bookingId);
  await requireActiveVenueLink(context, booking.offer, 'Collective booking not found');
  const allowed = ALLOWED_FROM[transition];
  const refuse = (status: string) =>
    new ForbiddenError(`This booking is ${status}: it can only be moved this way from ${either(allowed)}`);
  if (!allowed.includes(booking.status)) throw refuse(booking.status);
  if (transition === 'resetToPending' && booking.status === 'PENDING') return booking;
  if (transition === 'confirm' && booking.status === 'CONFIRMED') return booking;
  const now = context.clock.now();
  if (transition === 'cancelByProvider') {
    const status = collectiveDisplayedStatus(booking.offer, lastBookingOf(booking.offer.bookings.getItems()), now);
    if (!CANCELLABLE_BY_PROVIDER.has(status))
      throw new ForbiddenError(`The offer is ${status}: its booking can no longer be cancelled`);
  }
  if ((transition === 'confirm' || transition === 'resetToPending') && booking.offer.archivedAt) {
    throw new ForbiddenError('The offer is archived: its booking can no longer be confirmed or reopened');
  }
  if (transition === 'confirm' && now.getTime() > booking.confirmationLimitDate.getTime()) {
    throw new ForbiddenError('The pre-booking lapsed at the booking limit: it can no longer be confirmed');
  }
  const changes = changesOf(transition, now);
  try {
    const moved = await context.em.nativeUpdate(CollectiveBooking, { id: booking.id, status: booking.status }, changes);
    if (moved === 0) throw refuse('no longer in the state read');
  } catch (error) {
    // Back to PENDING while another booking of the offer is live: the one-live-booking index says no.
    if (error instanceof UniqueConstraintViolationException)
      throw new ForbiddenError('The offer already has a live booking');
    throw error;
  }
  context.em.assign(booking, changes);
  return booking;
}

/**
 * What the school platform does when a teacher pre-books: a PENDING booking for the offer's
 * institution, if the offer is open to booking.
 */
export async function bookCollectiveOffer(context: GraphContext, offerId: number): Promise<CollectiveBooking> {
  try {
    return await withLockedCollectiveOffer(context, offerId, bookLockedOffer);
  } catch (error) {
    // As pass Culture's mock: an offer the key does not reach is not found, whoever created it.
    if (error instanceof ForbiddenError && error.message === OFFER_OUT_OF_REACH)
      throw new NotFoundError(OFFER_NOT_FOUND);
    throw error;
  }
}

const OFFER_NOT_FOUND = 'Collective offer not found';

/**
 * The school-platform operations and the provider's cancellation reach a booking only through an
 * active link between the offer's venue and the key's provider, as in pass Culture's API: once the
 * link is deactivated, the booking and its offer are not found (404).
 */
async function requireActiveVenueLink(context: GraphContext, offer: CollectiveOffer, notFound: string): Promise<void> {
  if (!(await hasActiveVenueLink(context, offer.venue.id))) throw new NotFoundError(notFound);
}

async function bookLockedOffer(context: GraphContext, offer: CollectiveOffer): Promise<CollectiveBooking> {
  await requireActiveVenueLink(context, offer, OFFER_NOT_FOUND);
  const now = context.clock.now();
  const status = collectiveDisplayedStatus(offer, lastBookingOf(offer.bookings.getItems()), now);
  if (status !== BOOKABLE_STATUS)
    throw new ForbiddenError(`The offer is ${status}: only a ${BOOKABLE_STATUS} offer can be booked`);
  // Offers are created for an institution; one stored without (older data) has no school to book it.
  if (!offer.institution) throw new ForbiddenError('The offer names no educational institution: no school can book it');
  const institution = await context.em.findOneOrFail(EducationalInstitution, offer.institution.id);
  if (!institution.isActive) throw new ForbiddenError(`The educational institution ${institution.uai} is not active`);
  const booking = context.em.create(CollectiveBooking, {
    offer,
    institution,
    status: 'PENDING',
    dateCreated: now,
    confirmationLimitDate: offer.bookingLimitDatetime,
    cancellationLimitDate: cancellationLimitFor(offer.startDatetime, now),
  });
  try {
    await context.em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw new ForbiddenError('The offer is already booked');
    throw error;
  }
  return booking;
}

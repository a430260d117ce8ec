import type { GraphContext } from '../shared/context.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import { Offerer } from '../providers/Offerer.js';
import type { Venue } from '../providers/Venue.js';
import { CollectiveBooking } from './CollectiveBooking.js';
import { CollectiveOffer } from './CollectiveOffer.js';

/** Whether the caller may act on this offer: its provider's, at a venue of the key's offerer. */
function reaches(context: GraphContext, offer: CollectiveOffer): boolean {
  const { caller } = context;
  if (caller.kind === 'internal') return true;
  return offer.provider.id === caller.providerId && (caller.offererId == null || offer.venue.offerer.id === caller.offererId);
}

/**
 * A collective offer by id with its bookings. Absent: 404. Another provider's: 403, as the
 * contract says for collective offers (the one exception to "unreachable is not found").
 */
export async function collectiveOfferForCaller(context: GraphContext, id: number): Promise<CollectiveOffer> {
  const offer = await context.em.findOne(CollectiveOffer, id, { populate: ['bookings', 'venue', 'institution', 'nationalProgram', 'address'] });
  if (!offer) throw new NotFoundError('Collective offer not found');
  if (!reaches(context, offer)) throw new ForbiddenError('You are not allowed to access this collective offer');
  return offer;
}

/** A booking of one of the caller's collective offers, or 404. */
export async function collectiveBookingForCaller(context: GraphContext, id: number): Promise<CollectiveBooking> {
  const booking = await context.em.findOne(CollectiveBooking, id, { populate: ['offer', 'offer.venue', 'offer.bookings'] });
  if (!booking || !reaches(context, booking.offer)) throw new NotFoundError('Collective booking not found');
  return booking;
}

/** Collective offers are published on the school platform only for offerers it admitted: 403 otherwise. */
export async function requireSchoolPlatformRights(context: GraphContext, venue: Venue): Promise<void> {
  const offerer = await context.em.findOneOrFail(Offerer, venue.offerer.id);
  if (!offerer.allowedOnAdage) {
    throw new ForbiddenError('The offerer of this venue is not allowed to publish collective offers on the school platform');
  }
}

import { BadRequestError } from '../shared/errors.js';
import type { Offer } from './Offer.js';
import { parseAwareDatetime } from './datetimes.js';
import { checkFuture } from './events/rules.js';

/** The start of the minute: pass Culture records a publication to the minute, and so do we. */
function toTheMinute(moment: Date): Date {
  const minute = new Date(moment);
  minute.setUTCSeconds(0, 0);
  return minute;
}

/**
 * Applies a requested publication (`now`, a future datetime, or null for never) and a
 * requested opening of bookings to an offer: what is due now is applied at once, what lies
 * ahead is left to the publication job.
 */
export function requestPublication(
  offer: Offer,
  now: Date,
  change: { publicationDatetime?: string | null; bookingAllowedDatetime?: string | null },
): void {
  if (change.publicationDatetime !== undefined) {
    const requested = change.publicationDatetime;
    if (requested === 'now') {
      offer.publicationDatetime = toTheMinute(now);
      offer.publishedAt = now;
    } else if (requested === null) {
      offer.publicationDatetime = null;
      offer.publishedAt = null;
    } else {
      const at = parseAwareDatetime(requested, ['publicationDatetime']);
      checkFuture('publicationDatetime', at, now);
      offer.publicationDatetime = toTheMinute(at);
      offer.publishedAt = null;
    }
  }
  if (change.bookingAllowedDatetime !== undefined) {
    const requested = change.bookingAllowedDatetime;
    const at = requested === null ? null : parseAwareDatetime(requested, ['bookingAllowedDatetime']);
    checkFuture('bookingAllowedDatetime', at, now);
    offer.bookingAllowedDatetime = at;
    offer.bookingOpenedAt = null;
  }
  if (
    offer.publishedAt &&
    !offer.bookingOpenedAt &&
    (!offer.bookingAllowedDatetime || offer.bookingAllowedDatetime <= now)
  ) {
    offer.bookingOpenedAt = now;
  }
  if (!offer.publishedAt) offer.bookingOpenedAt = null;
}

/** How many calendar years ahead a new offer's publication may be scheduled, as pass Culture allows. */
export const PUBLICATION_MAX_YEARS_AHEAD = 2;

/**
 * Refuses (400) a new offer whose publication lies more than two years ahead, as pass Culture
 * does when it publishes an offer it creates. An edit does not check it, there either.
 */
export function checkPublicationWithinReach(offer: Offer, now: Date): void {
  const latest = new Date(now);
  latest.setUTCFullYear(latest.getUTCFullYear() + PUBLICATION_MAX_YEARS_AHEAD);
  if (offer.publicationDatetime && offer.publicationDatetime > latest) {
    throw BadRequestError.on(
      'publicationDatetime',
      `A publication cannot be scheduled more than ${PUBLICATION_MAX_YEARS_AHEAD} years ahead`,
    );
  }
}

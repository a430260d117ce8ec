import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/knex';
import { VenueProvider } from '../../providers/VenueProvider.js';
import { BadRequestError } from '../../shared/errors.js';
import { Offer } from '../Offer.js';
import { Stock } from '../Stock.js';

/**
 * The provider's events that sell tickets through its ticketing system and still have a date
 * (not deleted) beginning at `at` or later, in id order: at one venue, or at every venue that has
 * no ticketing URLs of its own for the provider.
 */
export async function eventsNeedingTicketing(
  em: EntityManager,
  scope: { providerId: number; venueId: number | null; at: Date },
): Promise<number[]> {
  let venueFilter: object = {};
  if (scope.venueId != null) {
    venueFilter = { venue: scope.venueId };
  } else {
    const ownUrls = await em.find(
      VenueProvider,
      { provider: scope.providerId, bookingUrl: { $ne: null }, cancelUrl: { $ne: null } },
      { fields: ['venue'] },
    );
    if (ownUrls.length > 0) venueFilter = { venue: { $nin: ownUrls.map((link) => link.venue.id) } };
  }
  const events = await em.find(
    Offer,
    { provider: scope.providerId, isEvent: true, hasTicket: true, ...venueFilter },
    { fields: ['id'], disableIdentityMap: true },
  );
  if (events.length === 0) return [];
  const withDatesAhead = await (em as SqlEntityManager)
    .createQueryBuilder(Stock)
    .select('offer', true)
    .where({
      offer: { $in: events.map((event) => event.id) },
      isDeleted: false,
      beginningDatetime: { $gte: scope.at },
    })
    .orderBy({ offer: 'asc' })
    .execute<{ offer: number }[]>('all');
  return withDatesAhead.map((row) => Number(row.offer));
}

/** Refuses (400) to leave such events without a ticketing system. */
export async function refuseUnsettingTicketingUrls(
  em: EntityManager,
  scope: { providerId: number; venueId: number | null; at: Date },
): Promise<void> {
  const blocking = await eventsNeedingTicketing(em, scope);
  if (blocking.length === 0) return;
  const message = `These events sell tickets through your ticketing system and have dates ahead: ${blocking.join(', ')}. Keep bookingUrl and cancelUrl until their dates are past or deleted`;
  throw new BadRequestError({ bookingUrl: [message], cancelUrl: [message] });
}

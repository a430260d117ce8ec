import type { EntityManager, RequiredEntityData } from '@mikro-orm/core';
import type { GraphContext } from '../shared/context.js';
import { Offer } from './Offer.js';
import { scheduleAutoApproval } from './offerReview.js';
import { checkPublicationWithinReach, requestPublication } from './publicationRequest.js';
import { answeringUniquenessRaces } from './uniqueness.js';

/**
 * Saves a new event or product offer, once its input is checked, in one transaction: its
 * columns, the publication it asks for (`now` unless it says otherwise; bookings open with the
 * publication unless it gives a later opening; one more than two years ahead is 400), then what
 * is the kind's own (`addOwn`: price categories, a stock). The offer then waits for its compliance
 * review (outside production, approved at once when the automatic approval has no delay).
 */
export function saveNewOffer(
  context: GraphContext,
  created: {
    now: Date;
    columns: RequiredEntityData<Offer>;
    publication: { publicationDatetime?: string | null; bookingAllowedDatetime?: string | null };
    addOwn: (em: EntityManager, offer: Offer) => void;
  },
): Promise<Offer> {
  const { now, columns, publication, addOwn } = created;
  return answeringUniquenessRaces(() =>
    context.em.transactional(async (em) => {
      const offer = em.create(Offer, columns);
      requestPublication(offer, now, {
        publicationDatetime: publication.publicationDatetime === undefined ? 'now' : publication.publicationDatetime,
        bookingAllowedDatetime: publication.bookingAllowedDatetime ?? null,
      });
      checkPublicationWithinReach(offer, now);
      addOwn(em, offer);
      await em.flush();
      scheduleAutoApproval(em, context.clock, context.services.offerReview.autoApprovalDelayMs, [offer]);
      await em.flush();
      return offer;
    }),
  );
}

import {
  autoApproveCollectiveOffers,
  COLLECTIVE_AUTO_APPROVAL_JOB,
  reviewCollectiveOffer,
} from '../graphql/collective/review.js';
import type { DomainEventBus } from '../graphql/shared/domainEvents.js';
import type { JobRegistry } from './jobs/registry.js';

/**
 * The collective offers' background work: the sandbox's automatic approval, and the
 * compliance decisions that the shared reviewOffer mutation publishes.
 */
export function registerCollectiveWork(options: { jobs: JobRegistry; events: DomainEventBus }): void {
  const { jobs, events } = options;
  jobs.register(COLLECTIVE_AUTO_APPROVAL_JOB, async (payload, { em, clock }) => {
    const offerIds = Array.isArray(payload.offerIds) ? payload.offerIds.map(Number) : [];
    await autoApproveCollectiveOffers(em, clock.now(), offerIds);
  });
  events.on('offers.collectiveReviewDecided', (em, review) => reviewCollectiveOffer(em, review));
}

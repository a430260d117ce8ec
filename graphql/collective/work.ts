import type { WorkPorts } from '../shared/work.js';
import {
  approveDueCollectiveOffers,
  autoApproveCollectiveOffers,
  COLLECTIVE_AUTO_APPROVAL_JOB,
  reviewCollectiveOffer,
} from './review.js';

/**
 * The collective offers' background work: the sandbox's automatic approval, and the
 * compliance decisions that the shared reviewOffer mutation publishes.
 */
export function registerCollectiveWork({ jobs, events }: WorkPorts): void {
  jobs.register(COLLECTIVE_AUTO_APPROVAL_JOB, async (payload, { em, clock }) => {
    const offerIds = Array.isArray(payload.offerIds) ? payload.offerIds.map(Number) : [];
    await autoApproveCollectiveOffers(em, clock.now(), offerIds);
  });
  events.on('offers.collectiveReviewDecided', (em, review) => reviewCollectiveOffer(em, review));
  events.on('sandbox.scheduledJobsDue', (em, run) => approveDueCollectiveOffers(em, run));
}

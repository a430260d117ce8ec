import {
  applyPublication,
  autoApproveOffer,
  autoApprovePendingOffers,
  PUBLICATION_INTERVAL_MS,
} from '../graphql/offers/events/publication.js';
import { AUTO_APPROVAL_JOB } from '../graphql/offers/events/eventService.js';
import type { JobRegistry } from './jobs/registry.js';
import type { Scheduler } from './scheduler.js';

export const PUBLICATION_TASK = 'offers.publication';

/** The offers' background work: the 15-minute publication run and the sandbox's automatic approval. */
export function registerOfferWork(options: { jobs: JobRegistry; scheduler: Scheduler; autoApprovalDelayMs: number | null }): void {
  const { jobs, scheduler, autoApprovalDelayMs } = options;
  scheduler.register({
    name: PUBLICATION_TASK,
    intervalMs: PUBLICATION_INTERVAL_MS,
    async run({ em, clock }) {
      if (autoApprovalDelayMs !== null) await autoApprovePendingOffers(em, clock.now(), autoApprovalDelayMs);
      await applyPublication(em, clock.now());
    },
  });
  jobs.register(AUTO_APPROVAL_JOB, async (payload, { em, clock }) => {
    await autoApproveOffer(em, clock.now(), Number(payload.offerId));
  });
}

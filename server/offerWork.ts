import {
  applyPublication,
  autoApproveOffers,
  autoApprovePendingOffers,
  PUBLICATION_INTERVAL_MS,
} from '../graphql/offers/publication.js';
import { AUTO_APPROVAL_JOB } from '../graphql/offers/offerReview.js';
import { applyProductImportStep, PRODUCT_IMPORT_JOB } from '../graphql/offers/products/productImportJob.js';
import type { DomainEventBus } from '../graphql/shared/domainEvents.js';
import type { JobRegistry } from './jobs/registry.js';
import type { Scheduler } from './scheduler.js';

export const PUBLICATION_TASK = 'offers.publication';

/**
 * The offers' background work: the 15-minute publication run, the sandbox's automatic
 * approval, and bulk upserts by EAN (one step of 100 items per transaction).
 */
export function registerOfferWork(options: {
  jobs: JobRegistry;
  scheduler: Scheduler;
  events: DomainEventBus;
  autoApprovalDelayMs: number | null;
}): void {
  const { jobs, scheduler, events, autoApprovalDelayMs } = options;
  scheduler.register({
    name: PUBLICATION_TASK,
    intervalMs: PUBLICATION_INTERVAL_MS,
    async run({ em, clock }) {
      if (autoApprovalDelayMs !== null) await autoApprovePendingOffers(em, clock.now(), autoApprovalDelayMs);
      await applyPublication(em, clock.now());
    },
  });
  jobs.register(AUTO_APPROVAL_JOB, async (payload, { em, clock }) => {
    // `offerId`: jobs queued before approvals were grouped.
    const offerIds = Array.isArray(payload.offerIds) ? payload.offerIds.map(Number) : [Number(payload.offerId)];
    await autoApproveOffers(em, clock.now(), offerIds);
  });
  jobs.register(PRODUCT_IMPORT_JOB, async (payload, { em, clock }) => {
    const more = await applyProductImportStep({ em, clock, events, autoApprovalDelayMs }, Number(payload.importId));
    return more ? { continueWith: payload } : undefined;
  });
}

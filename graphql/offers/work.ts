import type { WorkPorts } from '../shared/work.js';
import { refuseUnsettingTicketingUrls } from './events/ticketingGuard.js';
import { AUTO_APPROVAL_JOB } from './offerReview.js';
import { runDueOfferWork } from './sandboxRun.js';
import { applyProductImportStep, PRODUCT_IMPORT_JOB } from './products/productImportJob.js';
import {
  applyPublication,
  autoApproveOffers,
  autoApprovePendingOffers,
  PUBLICATION_INTERVAL_MS,
} from './publication.js';

export const PUBLICATION_TASK = 'offers.publication';

/**
 * The offers' background work: the 15-minute publication run, the sandbox's automatic
 * approval, and bulk upserts by EAN (one step of 100 items per transaction); and the sandbox
 * clock's run of what is due for one provider.
 * `autoApprovalDelayMs`: outside production, how long a new offer waits for its automatic approval; null: never.
 */
export function registerOffersWork(
  { jobs, scheduler, events }: WorkPorts,
  { autoApprovalDelayMs }: { autoApprovalDelayMs: number | null },
): void {
  scheduler.register({
    name: PUBLICATION_TASK,
    intervalMs: PUBLICATION_INTERVAL_MS,
    async run({ em, clock }) {
      if (autoApprovalDelayMs !== null) await autoApprovePendingOffers(em, clock.now(), autoApprovalDelayMs);
      await applyPublication(em, clock.now());
    },
  });
  // A provider or venue losing its ticketing URLs: refused while events with tickets have dates ahead.
  events.on('providers.ticketingUrlsUnset', (em, scope) => refuseUnsettingTicketingUrls(em, scope));
  jobs.register(AUTO_APPROVAL_JOB, async (payload, { em, clock }) => {
    // `offerId`: jobs queued before approvals were grouped.
    const offerIds = Array.isArray(payload.offerIds) ? payload.offerIds.map(Number) : [Number(payload.offerId)];
    await autoApproveOffers(em, clock.now(), offerIds);
  });
  jobs.register(PRODUCT_IMPORT_JOB, async (payload, { em, clock }) => {
    const more = await applyProductImportStep({ em, clock, events, autoApprovalDelayMs }, Number(payload.importId));
    return more ? { continueWith: payload } : undefined;
  });
  // The sandbox's clock runs what is due for one provider's offers at once.
  events.on('sandbox.scheduledJobsDue', (em, run) => runDueOfferWork({ em, events, autoApprovalDelayMs }, run));
}

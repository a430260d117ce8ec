import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../platform/time/clock.js';
import { NotFoundError } from '../shared/errors.js';
import { scheduleAutoApproval } from '../offers/offerReview.js';
import { offerIdsOf, takeQueuedJob } from '../offers/sandboxRun.js';
import { Job } from '../../platform/jobs/Job.js';
import type { SandboxRunTally } from '../shared/sandboxRun.js';
import { AUTO_APPROVAL_REASON } from '../offers/publication.js';
import { CollectiveOffer } from './CollectiveOffer.js';

export const COLLECTIVE_AUTO_APPROVAL_JOB = 'collective.autoApprove';

/** Outside production, new collective offers are approved without a reviewer after the same delay as individual ones. */
export function scheduleCollectiveAutoApproval(
  em: EntityManager,
  clock: Clock,
  delayMs: number | null,
  offers: CollectiveOffer[],
): void {
  scheduleAutoApproval(em, clock, delayMs, offers, COLLECTIVE_AUTO_APPROVAL_JOB);
}

export async function autoApproveCollectiveOffers(em: EntityManager, now: Date, offerIds: number[]): Promise<number> {
  if (offerIds.length === 0) return 0;
  return em.nativeUpdate(
    CollectiveOffer,
    { id: { $in: offerIds }, validation: 'PENDING' },
    { validation: 'APPROVED', validationReason: AUTO_APPROVAL_REASON, validatedAt: now },
  );
}

/** The compliance decision on a collective offer, taken through the shared reviewOffer mutation. */
export async function reviewCollectiveOffer(
  em: EntityManager,
  review: { offerId: number; decision: 'APPROVED' | 'REJECTED'; reason: string | null; at: Date },
): Promise<void> {
  const offer = await em.findOne(CollectiveOffer, review.offerId);
  if (!offer) throw new NotFoundError('Collective offer not found');
  offer.validation = review.decision;
  offer.validationReason = review.reason;
  offer.validatedAt = review.at;
  await em.flush();
}

/** The sandbox's clock: the provider's queued collective approvals due by `at` are applied at once. */
export async function approveDueCollectiveOffers(
  em: EntityManager,
  { providerId, at, done }: { providerId: number; at: Date; done: SandboxRunTally },
): Promise<void> {
  const jobs = await em.find(
    Job,
    { type: COLLECTIVE_AUTO_APPROVAL_JOB, status: 'pending', runAt: { $lte: at } },
    { orderBy: { id: 'asc' } },
  );
  for (const job of jobs) {
    const ids = offerIdsOf(job);
    if (ids.length === 0) continue;
    if ((await em.count(CollectiveOffer, { id: { $in: ids }, provider: { $ne: providerId } })) > 0) continue;
    if (!(await takeQueuedJob(em, job, at))) continue;
    done.collectiveApproved += await autoApproveCollectiveOffers(em, at, ids);
  }
}

import type { EntityManager } from '@mikro-orm/core';
import type { DomainEventPublisher } from '../shared/domainEvents.js';
import { Job } from '../../platform/jobs/Job.js';
import type { SandboxRunTally } from '../shared/sandboxRun.js';
import { Offer } from './Offer.js';
import { AUTO_APPROVAL_JOB } from './offerReview.js';
import { ProductImport } from './products/ProductImport.js';
import { applyProductImportStep, PRODUCT_IMPORT_JOB } from './products/productImportJob.js';
import { applyPublication, AUTO_APPROVAL_REASON } from './publication.js';

/** Takes a queued job out of the worker's hands, in `em`'s transaction: false when a worker has it already. */
export async function takeQueuedJob(em: EntityManager, job: Job, at: Date): Promise<boolean> {
  const taken = await em.nativeUpdate(
    Job,
    { id: job.id, status: 'pending' },
    { status: 'done', finishedAt: at, lockedAt: null, lastError: null },
  );
  return taken === 1;
}

/** The offers an approval job names (`offerId`: jobs queued before approvals were grouped). */
export function offerIdsOf(job: Job): number[] {
  const { offerIds, offerId } = job.payload;
  return Array.isArray(offerIds) ? offerIds.map(Number) : offerId != null ? [Number(offerId)] : [];
}

/**
 * The sandbox's run of the offers' work due by `at`, for one provider's offers, in `em`'s
 * transaction: its queued bulk upserts by EAN (applied to the end, as at `at`), its queued
 * approvals due (and, with a delay set, any offer of its pending for longer), then the
 * publication of its offers whose time has come. Another provider's work is left to the worker.
 */
export async function runDueOfferWork(
  dependencies: { em: EntityManager; events: DomainEventPublisher; autoApprovalDelayMs: number | null },
  { providerId, at, done }: { providerId: number; at: Date; done: SandboxRunTally },
): Promise<void> {
  const { em } = dependencies;
  const clock = { now: () => at };
  const due = (type: string) =>
    em.find(Job, { type, status: 'pending', runAt: { $lte: at } }, { orderBy: { id: 'asc' } });

  for (const job of await due(PRODUCT_IMPORT_JOB)) {
    const importId = Number(job.payload.importId);
    if ((await em.count(ProductImport, { id: importId, provider: providerId })) === 0) continue;
    if (!(await takeQueuedJob(em, job, at))) continue;
    while (await applyProductImportStep({ ...dependencies, clock }, importId));
    done.productImports += 1;
  }

  const approval = { validation: 'APPROVED' as const, validationReason: AUTO_APPROVAL_REASON, validatedAt: at };
  for (const job of await due(AUTO_APPROVAL_JOB)) {
    const ids = offerIdsOf(job);
    // One job approves offers created together, of one provider: another's job is not the caller's.
    if (ids.length === 0 || (await em.count(Offer, { id: { $in: ids }, provider: { $ne: providerId } })) > 0) continue;
    if (!(await takeQueuedJob(em, job, at))) continue;
    done.approved += await em.nativeUpdate(Offer, { id: { $in: ids }, validation: 'PENDING' }, approval);
  }
  if (dependencies.autoApprovalDelayMs !== null) {
    done.approved += await em.nativeUpdate(
      Offer,
      {
        provider: providerId,
        validation: 'PENDING',
        createdAt: { $lte: new Date(at.getTime() - dependencies.autoApprovalDelayMs) },
      },
      approval,
    );
  }

  done.published += (await applyPublication(em, at, providerId)).published;
}

import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../platform/time/clock.js';
import { enqueue } from '../../platform/jobs/outbox.js';
import { AUTO_APPROVAL_REASON } from './publication.js';

export const AUTO_APPROVAL_JOB = 'offers.autoApprove';

/** What the automatic approval changes on an offer, individual or collective. */
export interface Reviewable {
  id: number;
  validation: string;
  validationReason: string | null;
  validatedAt: Date | null;
}

/**
 * Outside production, sandbox offers are approved without a reviewer, after a configurable
 * delay. With no delay the approval belongs to the creating transaction (as pass Culture's own
 * check runs within the request): the creation's answer already shows the approved offer. A
 * positive delay queues one job for the offers created together.
 */
export function scheduleAutoApproval(
  em: EntityManager,
  clock: Clock,
  delayMs: number | null,
  offers: Reviewable[],
  jobType: string = AUTO_APPROVAL_JOB,
): void {
  if (delayMs === null || offers.length === 0) return;
  if (delayMs === 0) {
    const now = clock.now();
    for (const offer of offers) {
      if (offer.validation !== 'PENDING') continue;
      offer.validation = 'APPROVED';
      offer.validationReason = AUTO_APPROVAL_REASON;
      offer.validatedAt = now;
    }
    return;
  }
  // One job for offers created together (a bulk upsert creates hundreds): one transaction approves them all.
  enqueue(
    em,
    clock,
    jobType,
    { offerIds: offers.map((offer) => offer.id) },
    { runAt: new Date(clock.now().getTime() + delayMs) },
  );
}

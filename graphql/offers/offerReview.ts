import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../shared/clock.js';
import { enqueue } from '../shared/outbox.js';

export const AUTO_APPROVAL_JOB = 'offers.autoApprove';

/** Outside production, sandbox offers are approved without a reviewer, after a configurable delay. */
export function scheduleAutoApproval(
  em: EntityManager,
  clock: Clock,
  delayMs: number | null,
  offers: { id: number }[],
  jobType: string = AUTO_APPROVAL_JOB,
): void {
  if (delayMs === null || offers.length === 0) return;
  // One job for offers created together (a bulk upsert creates hundreds): one transaction approves them all.
  enqueue(
    em,
    clock,
    jobType,
    { offerIds: offers.map((offer) => offer.id) },
    { runAt: new Date(clock.now().getTime() + delayMs) },
  );
}

import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../shared/clock.js';
import { enqueue } from '../shared/outbox.js';
import type { Offer } from './Offer.js';

export const AUTO_APPROVAL_JOB = 'offers.autoApprove';

/** Outside production, sandbox offers are approved without a reviewer, after a configurable delay. */
export function scheduleAutoApproval(em: EntityManager, clock: Clock, delayMs: number | null, offers: Offer[]): void {
  if (delayMs === null || offers.length === 0) return;
  // One job for offers created together (a bulk upsert creates hundreds): one transaction approves them all.
  enqueue(em, clock, AUTO_APPROVAL_JOB, { offerIds: offers.map((offer) => offer.id) }, { runAt: new Date(clock.now().getTime() + delayMs) });
}

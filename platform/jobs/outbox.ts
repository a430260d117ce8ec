import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../time/clock.js';
import { activeTraceParent } from '../tracing.js';
import { Job } from './Job.js';

export interface EnqueueOptions {
  /** When the job becomes due; now by default. */
  runAt?: Date;
  maxAttempts?: number;
}

/**
 * Adds a job to the unit of work of `em`: it is written by the same flush (and so the
 * same transaction) as the change that causes it, never before and never without it.
 */
export function enqueue(
  em: EntityManager,
  clock: Clock,
  type: string,
  payload: Record<string, unknown>,
  options: EnqueueOptions = {},
): Job {
  const job = em.create(Job, {
    type,
    payload,
    runAt: options.runAt ?? clock.now(),
    createdAt: clock.now(),
    maxAttempts: options.maxAttempts ?? 8,
    status: 'pending',
    attempts: 0,
    traceParent: activeTraceParent(),
  });
  em.persist(job);
  return job;
}

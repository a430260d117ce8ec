import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../graphql/shared/clock.js';

/** What a handler receives besides its payload. */
export interface JobContext {
  /** The job's own transaction: what the handler writes commits together with the job's completion. */
  em: EntityManager;
  clock: Clock;
  /** 1 on the first run, 2 on the first retry, and so on. */
  attempt: number;
  /** Whether a `retry` answer would fail the job for good. */
  lastAttempt: boolean;
  jobId: number;
}

/**
 * What a handler answers. `retry` (an outcome that calls for another try, such as a receiver
 * answering 500) commits the handler's writes (what it recorded of the attempt) and schedules
 * the job again with backoff, or fails it for good after its last attempt. What a step of a
 * long job answers: `continueWith` commits the step (with the job's new
 * payload) and runs the next step at once, each in its own transaction. A crash loses at
 * most the step in flight: the job resumes from the last committed one.
 */
export type JobStep = void | { continueWith: Record<string, unknown> } | { retry: string };

/**
 * Does the work of one job type. Runs at least once, possibly more (a crash after the work
 * but before the commit, or a lease that ran out), so effects outside the database must be
 * idempotent; effects inside `context.em` commit exactly once with the job's completion.
 */
export type JobHandler = (payload: Record<string, unknown>, context: JobContext) => Promise<JobStep>;

/** Job type -> handler. One handler per type, so that a job never depends on registration order. */
export class JobRegistry {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly outsideTransaction = new Set<string>();

  /**
   * `outsideTransaction`: the handler gets an entity manager without an open transaction (its
   * flushes commit on their own), for work that waits on the network, such as a call to a
   * provider: an 8-second call must not hold a transaction (on SQLite, the only connection). Its
   * writes then commit before the job's completion, so they must be safe to redo.
   */
  register(type: string, handler: JobHandler, options: { outsideTransaction?: boolean } = {}): void {
    if (options.outsideTransaction) this.outsideTransaction.add(type);
    if (this.handlers.has(type)) {
      throw new Error(`A handler is already registered for job type "${type}"`);
    }
    this.handlers.set(type, handler);
  }

  get(type: string): JobHandler | undefined {
    return this.handlers.get(type);
  }

  runsOutsideTransaction(type: string): boolean {
    return this.outsideTransaction.has(type);
  }

  has(type: string): boolean {
    return this.handlers.has(type);
  }

  types(): string[] {
    return [...this.handlers.keys()];
  }
}

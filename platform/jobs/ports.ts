import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../time/clock.js';

/**
 * The job queue's ports: the handlers of outbox jobs and the periodic tasks that a subgraph
 * registers (`graphql/<name>/work.ts`), implemented by the worker and the scheduler beside this file.
 */

/** What a job handler receives besides its payload. */
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

export interface JobOptions {
  /**
   * The handler gets an entity manager without an open transaction (its flushes commit on
   * their own), for work that waits on the network, such as a call to a provider: an 8-second
   * call must not hold a transaction (on SQLite, the only connection). Its writes then commit
   * before the job's completion, so they must be safe to redo.
   */
  outsideTransaction?: boolean;
}

/**
 * One handler per job type, so that a job never depends on registration order. A type is a
 * name stored with every queued job: renaming it strands the jobs already in a database.
 */
export interface JobRegistrar {
  register(type: string, handler: JobHandler, options?: JobOptions): void;
}

export interface ScheduledTaskContext {
  /** A fresh fork for this run only; the task flushes or opens transactions on it as it needs. */
  em: EntityManager;
  clock: Clock;
}

/**
 * A periodic task, such as the 15-minute publication refresh or the expiry of unconfirmed
 * bookings. Every process that starts a scheduler runs its tasks, so with several processes
 * a task runs several times per interval, possibly at the same moment: a task must be
 * idempotent and safe to run concurrently with itself (conditional UPDATEs such as
 * `... WHERE status = 'pending' AND expires_at <= now`, or enqueue jobs whose handlers are).
 */
export interface ScheduledTask {
  name: string;
  intervalMs: number;
  run: (context: ScheduledTaskContext) => Promise<void>;
}

export interface TaskScheduler {
  register(task: ScheduledTask): void;
}

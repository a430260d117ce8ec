import { type EntityManager, LockMode, raw, type MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/knex';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { isDatabaseUnavailable } from '../sql/databaseUnavailable.js';
import type { Clock } from '../time/clock.js';
import { contextOfTraceParent, inSpan, markFailed, SpanKind } from '../tracing.js';
import { Job } from './Job.js';
import { retryDelayMs } from './backoff.js';
import type { JobHandler } from './ports.js';
import type { JobRegistry } from './registry.js';

/** The part of a pino logger the worker uses: `(fields, message)`. */
export interface Logger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export const DEFAULT_POLL_INTERVAL_MS = 1_000;
export const DEFAULT_BATCH_SIZE = 10;
/** A job claimed longer ago than this is presumed abandoned by a crashed worker and is claimed again. */
export const DEFAULT_LEASE_MS = 5 * 60 * 1_000;
/** Error texts can quote whole responses; keep the row small. */
const MAX_ERROR_LENGTH = 2_000;

export interface JobWorkerOptions {
  orm: MikroORM;
  registry: JobRegistry;
  clock: Clock;
  logger?: Logger;
  pollIntervalMs?: number;
  batchSize?: number;
  leaseMs?: number;
}

export interface RunSummary {
  claimed: number;
  succeeded: number;
  retried: number;
  failed: number;
}

/** A claimed job as the claim statement returned it; the attempt count doubles as the claim's token. */
interface ClaimedJob {
  id: number;
  type: string;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
  /** The trace of the request that queued the job (Job.traceParent). */
  traceParent: string | null;
}

type Outcome = 'succeeded' | 'retried' | 'failed' | 'lost';

/** Raised inside a job's transaction to roll back its handler's writes when another worker took the job over. */
class LeaseLostError extends Error {}

/**
 * Runs the jobs of the outbox table at least once each. Any number of workers, in any number
 * of processes, may poll the same table: a claim is one statement (with `FOR UPDATE SKIP LOCKED`
 * on PostgreSQL), and every later write is conditioned on the claim still being ours.
 */
export class JobWorker {
  private readonly orm: MikroORM;
  private readonly registry: JobRegistry;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly leaseMs: number;

  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  /** Set by wake() during a batch: the next poll comes right after it. */
  private woken = false;
  /** Set by stop(): a job of several steps pauses after the step in flight. */
  private stopping = false;
  /** Set while claims fail for want of the database: the outage is logged once, and its end. */
  private databaseAway = false;
  /** The batch being run, so that batches of one worker never overlap and stop() can await it. */
  private inFlight: Promise<unknown> = Promise.resolve();

  constructor(options: JobWorkerOptions) {
    this.orm = options.orm;
    this.registry = options.registry;
    this.clock = options.clock;
    this.logger = options.logger ?? silentLogger;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** Claims the jobs due now and runs them one after the other. Calls on one worker are serialized. */
  runDueJobs(): Promise<RunSummary> {
    const run = this.inFlight.catch(() => undefined).then(() => this.runBatch());
    this.inFlight = run;
    return run;
  }

  /** Polls until stop(): right away again after a full batch (a backlog), else after the poll interval. */
  start(): void {
    if (this.polling) return;
    this.polling = true;
    this.stopping = false;
    this.schedule(0);
  }

  /**
   * Polls now rather than at the end of the interval (work was just committed): at once when
   * idle, right after the batch in flight otherwise. Nothing when not started.
   */
  wake(): void {
    if (!this.polling) return;
    this.woken = true;
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.schedule(0);
  }

  /**
   * Stops polling and waits for the step in flight, so that a shutdown does not cut a job in
   * half; a job of several steps is handed back (pending) after its current step.
   */
  async stop(): Promise<void> {
    this.polling = false;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight.catch(() => undefined);
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => void this.poll(), delayMs);
    // The worker alone never keeps the process alive: the HTTP server or the CLI decides that.
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    this.timer = null;
    this.woken = false;
    let claimed = 0;
    try {
      ({ claimed } = await this.runDueJobs());
      if (this.databaseAway) {
        this.databaseAway = false;
        this.logger.info({}, 'job worker: database back, claiming jobs again');
      }
    } catch (error) {
      if (!isDatabaseUnavailable(error)) {
        this.logger.error({ err: errorMessage(error) }, 'job worker: claiming jobs failed');
      } else if (!this.databaseAway) {
        // Jobs wait in the database meanwhile; one cut in flight runs again after its lease.
        this.databaseAway = true;
        this.logger.warn({ err: errorMessage(error) }, 'job worker: database unavailable, polling until it answers');
      }
    }
    if (this.polling) this.schedule(claimed >= this.batchSize || this.woken ? 0 : this.pollIntervalMs);
  }

  private async runBatch(): Promise<RunSummary> {
    const jobs = await this.claimDueJobs();
    const summary: RunSummary = { claimed: jobs.length, succeeded: 0, retried: 0, failed: 0 };
    // One at a time: SQLite has a single connection, and a handler's transaction must not interleave with another's.
    for (const job of jobs) {
      if (this.stopping) {
        // Claimed but not started: back to the table for the next worker, not held until the lease runs out.
        await this.releaseClaim(job);
        continue;
      }
      const outcome = await this.runJob(job);
      if (outcome !== 'lost') summary[outcome] += 1;
    }
    return summary;
  }

  /**
   * Marks up to `batchSize` due jobs as running (lockedAt now, attempts + 1) in one UPDATE whose
   * subquery picks them: pending jobs whose time has come, and running jobs whose lease ran out.
   * On PostgreSQL the subquery locks with SKIP LOCKED, so concurrent workers claim disjoint sets;
   * SQLite has a single writer, which makes the one statement atomic on its own.
   * Only the types this process has a handler for: a process hosting some of the subgraphs
   * leaves the others' jobs to the processes that host them.
   */
  private async claimDueJobs(): Promise<ClaimedJob[]> {
    const types = this.registry.types();
    if (types.length === 0) return [];
    const now = this.clock.now();
    const leaseExpiredBefore = new Date(now.getTime() - this.leaseMs);
    const em = this.orm.em.fork() as SqlEntityManager;
    const isPostgres = em.getPlatform() instanceof PostgreSqlPlatform;

    // A pessimistic lock mode needs an explicit transaction in MikroORM; it commits with the UPDATE.
    const rows = await em.transactional(async (tx) => {
      const due = tx
        .createQueryBuilder(Job, 'due')
        .select('id')
        .where({
          type: { $in: types },
          $or: [
            { status: 'pending', runAt: { $lte: now } },
            { status: 'running', lockedAt: { $lt: leaseExpiredBefore } },
          ],
        })
        .orderBy({ runAt: 'asc', id: 'asc' })
        .limit(this.batchSize);
      if (isPostgres) due.setLockMode(LockMode.PESSIMISTIC_PARTIAL_WRITE);

      return tx
        .createQueryBuilder(Job)
        .update({ status: 'running', lockedAt: now, attempts: raw('attempts + 1') })
        .where({ id: { $in: due.getKnexQuery() } })
        .returning(['id', 'type', 'payload', 'attempts', 'maxAttempts', 'traceParent'])
        .execute<ClaimedJob[]>('all', true);
    });

    return rows
      .map((row) => ({
        id: Number(row.id),
        type: row.type,
        payload: parsePayload(row.payload),
        attempts: Number(row.attempts),
        maxAttempts: Number(row.maxAttempts),
        traceParent: row.traceParent ?? null,
      }))
      .sort((left, right) => left.id - right.id);
  }

  /** A job's run is a span of the trace of the request that queued it (a child of that request's span). */
  private runJob(job: ClaimedJob): Promise<Outcome> {
    return inSpan(
      `job ${job.type}`,
      {
        kind: SpanKind.CONSUMER,
        parent: contextOfTraceParent(job.traceParent),
        attributes: { 'job.id': job.id, 'job.type': job.type, 'job.attempt': job.attempts },
      },
      async (span) => {
        const outcome = await this.runJobSteps(job);
        span.setAttribute('job.outcome', outcome);
        if (outcome === 'retried' || outcome === 'failed') markFailed(span, `job ${outcome}`);
        return outcome;
      },
    );
  }

  private async runJobSteps(job: ClaimedJob): Promise<Outcome> {
    const fields = { jobId: job.id, jobType: job.type, attempt: job.attempts };
    const handler = this.registry.get(job.type);
    if (!handler) {
      const message = `No handler is registered for job type "${job.type}"`;
      this.logger.error(fields, 'job failed: unknown type');
      return (await this.recordFailure(job, message, { retry: false })) ? 'failed' : 'lost';
    }

    try {
      let payload = job.payload;
      for (let step = 1; ; step += 1) {
        const result = await this.runStep(job, handler, payload);
        if (result.outcome !== 'continued') {
          if (result.outcome === 'succeeded') this.logger.info(fields, 'job done');
          return result.outcome;
        }
        this.logger.info({ ...fields, step }, 'job step committed');
        payload = result.next;
        if (this.stopping) {
          // A shutdown between two steps hands the rest to the next worker at once, instead of after the lease.
          await this.releaseClaim(job);
          this.logger.info(fields, 'job paused between steps for shutdown');
          return 'lost';
        }
      }
    } catch (error) {
      if (error instanceof LeaseLostError) {
        this.logger.warn(fields, 'job lease lost: another worker claimed it again; its writes were rolled back');
        return 'lost';
      }
      const message = errorMessage(error);
      const retry = job.attempts < job.maxAttempts;
      this.logger[retry ? 'warn' : 'error'](
        { ...fields, err: message },
        retry ? 'job failed, will retry' : 'job failed for good',
      );
      if (!(await this.recordFailure(job, message, { retry }))) return 'lost';
      return retry ? 'retried' : 'failed';
    }
  }

  /** Gives a claimed job back, due now, as if this claim never happened (it does not count as an attempt). */
  private async releaseClaim(job: ClaimedJob): Promise<void> {
    await this.orm.em
      .fork()
      .nativeUpdate(
        Job,
        { id: job.id, status: 'running', attempts: job.attempts },
        { status: 'pending', lockedAt: null, attempts: job.attempts - 1 },
      );
  }

  /**
   * The handler's writes and the job's new state (done; its next step's payload with a renewed
   * lease; or another try later, with backoff), in one transaction unless the job type runs
   * outside one.
   */
  private async runStep(
    job: ClaimedJob,
    handler: JobHandler,
    payload: Record<string, unknown>,
  ): Promise<
    { outcome: 'continued'; next: Record<string, unknown> } | { outcome: 'succeeded' | 'retried' | 'failed' }
  > {
    const run = async (em: EntityManager) => {
      const lastAttempt = job.attempts >= job.maxAttempts;
      const answer = await handler(payload, {
        em,
        clock: this.clock,
        attempt: job.attempts,
        lastAttempt,
        jobId: job.id,
      });
      const next = answer && 'continueWith' in answer ? answer.continueWith : null;
      const now = this.clock.now();
      let change: Partial<Job>;
      if (answer && 'retry' in answer) {
        const lastError = answer.retry.slice(0, MAX_ERROR_LENGTH);
        change = lastAttempt
          ? { status: 'failed', finishedAt: now, lockedAt: null, lastError }
          : {
              status: 'pending',
              runAt: new Date(now.getTime() + retryDelayMs(job.attempts)),
              lockedAt: null,
              lastError,
            };
        this.logger[lastAttempt ? 'error' : 'warn'](
          { jobId: job.id, jobType: job.type, attempt: job.attempts, err: lastError },
          lastAttempt ? 'job failed for good' : 'job failed, will retry',
        );
      } else {
        change = next
          ? { payload: next, lockedAt: now }
          : { status: 'done', finishedAt: now, lockedAt: null, lastError: null };
      }
      const updated = await em.nativeUpdate(Job, { id: job.id, status: 'running', attempts: job.attempts }, change);
      if (updated === 0) throw new LeaseLostError();
      if (next) return { outcome: 'continued' as const, next };
      if (answer && 'retry' in answer) return { outcome: lastAttempt ? ('failed' as const) : ('retried' as const) };
      return { outcome: 'succeeded' as const };
    };
    // Handlers that wait on the network run outside a transaction; the job's state then gets its own statement.
    if (this.registry.runsOutsideTransaction(job.type)) return run(this.orm.em.fork());
    return this.orm.em.fork().transactional(run);
  }

  /** Back to pending after a backoff, or failed for good; false when the claim was no longer ours. */
  private async recordFailure(job: ClaimedJob, message: string, { retry }: { retry: boolean }): Promise<boolean> {
    const now = this.clock.now();
    const lastError = message.slice(0, MAX_ERROR_LENGTH);
    const change = retry
      ? {
          status: 'pending' as const,
          runAt: new Date(now.getTime() + retryDelayMs(job.attempts)),
          lockedAt: null,
          lastError,
        }
      : { status: 'failed' as const, finishedAt: now, lockedAt: null, lastError };
    try {
      const updated = await this.orm.em
        .fork()
        .nativeUpdate(Job, { id: job.id, status: 'running', attempts: job.attempts }, change);
      return updated > 0;
    } catch (error) {
      // The job stays running and is claimed again once its lease runs out: nothing is lost.
      this.logger.error(
        { jobId: job.id, jobType: job.type, err: errorMessage(error) },
        'job worker: recording a failure failed',
      );
      return false;
    }
  }
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** RETURNING bypasses the JSON type's hydration on some drivers: accept text or an object. */
function parsePayload(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return JSON.parse(value) as Record<string, unknown>;
  return (value ?? {}) as Record<string, unknown>;
}

import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { SettableClock } from '../../platform/time/clock.js';
import { Job } from '../../platform/jobs/Job.js';
import { enqueue, type EnqueueOptions } from '../../platform/jobs/outbox.js';
import type { JobHandler } from '../../platform/jobs/ports.js';
import { openDatabase } from '../../server/db/orm.js';
import { retryDelayMs } from '../../platform/jobs/backoff.js';
import { JobRegistry } from '../../platform/jobs/registry.js';
import { DEFAULT_LEASE_MS, JobWorker, type JobWorkerOptions, type Logger } from '../../platform/jobs/worker.js';
import { isPostgresTestRun } from '../support/database.js';
import { useJobDatabase } from './jobDatabase.js';

const db = useJobDatabase();
let clock: SettableClock;

beforeEach(() => {
  clock = new SettableClock(new Date('2030-01-15T10:00:00.000Z'));
});

/** A worker with a handler for each type given, on the test database unless told otherwise. */
function aWorker(
  handlers: Record<string, JobHandler>,
  options: Partial<Omit<JobWorkerOptions, 'registry'>> = {},
): JobWorker {
  const registry = new JobRegistry();
  for (const [type, handler] of Object.entries(handlers)) registry.register(type, handler);
  return new JobWorker({ orm: db.orm, registry, clock, ...options });
}

async function aCommittedJob(
  type: string,
  payload: Record<string, unknown> = {},
  options: EnqueueOptions = {},
): Promise<number> {
  const em = db.orm.em.fork();
  const job = enqueue(em, clock, type, payload, options);
  await em.flush();
  return job.id;
}

function readJob(id: number): Promise<Job> {
  return db.orm.em.fork().findOneOrFail(Job, id);
}

function readJobs(where: Partial<Pick<Job, 'type' | 'status'>> = {}): Promise<Job[]> {
  return db.orm.em.fork().find(Job, where, { orderBy: { id: 'asc' } });
}

describe(`job worker (${isPostgresTestRun() ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('never sees a job enqueued in a transaction that rolled back', async () => {
    await expect(
      db.orm.em.fork().transactional(async (em) => {
        enqueue(em, clock, 'notify', { bookingId: 1 });
        await em.flush();
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');

    expect(await readJobs()).toEqual([]);
    const calls: unknown[] = [];
    const summary = await aWorker({ notify: async (payload) => void calls.push(payload) }).runDueJobs();
    expect(summary).toEqual({ claimed: 0, succeeded: 0, retried: 0, failed: 0 });
    expect(calls).toEqual([]);
  });

  it('runs a committed job once and records it done', async () => {
    const id = await aCommittedJob('notify', { bookingId: 42, nested: { list: [1, 2] } });
    const calls: { payload: Record<string, unknown>; attempt: number; jobId: number }[] = [];
    const worker = aWorker({
      notify: async (payload, { attempt, jobId }) => void calls.push({ payload, attempt, jobId }),
    });

    clock.advance(1_000);
    expect(await worker.runDueJobs()).toEqual({ claimed: 1, succeeded: 1, retried: 0, failed: 0 });
    expect(await worker.runDueJobs()).toEqual({ claimed: 0, succeeded: 0, retried: 0, failed: 0 });

    expect(calls).toEqual([{ payload: { bookingId: 42, nested: { list: [1, 2] } }, attempt: 1, jobId: id }]);
    const job = await readJob(id);
    expect(job).toMatchObject({ status: 'done', attempts: 1, lockedAt: null, lastError: null });
    expect(job.finishedAt?.toISOString()).toBe('2030-01-15T10:00:01.000Z');
  });

  it('waits for runAt before running a job', async () => {
    const id = await aCommittedJob('later', {}, { runAt: new Date('2030-01-15T10:05:00.000Z') });
    const worker = aWorker({ later: async () => {} });

    clock.set(new Date('2030-01-15T10:04:59.999Z'));
    expect((await worker.runDueJobs()).claimed).toBe(0);
    expect((await readJob(id)).status).toBe('pending');

    clock.set(new Date('2030-01-15T10:05:00.000Z'));
    expect((await worker.runDueJobs()).succeeded).toBe(1);
    expect((await readJob(id)).status).toBe('done');
  });

  it('retries a failing job with backoff, then records it failed after maxAttempts', async () => {
    const id = await aCommittedJob('flaky', {}, { maxAttempts: 3 });
    const attempts: number[] = [];
    const worker = aWorker({
      flaky: async (_payload, { attempt }) => {
        attempts.push(attempt);
        throw new Error(`ticketing system answered 503 (attempt ${attempt})`);
      },
    });

    expect(await worker.runDueJobs()).toEqual({ claimed: 1, succeeded: 0, retried: 1, failed: 0 });
    let job = await readJob(id);
    expect(job).toMatchObject({
      status: 'pending',
      attempts: 1,
      lockedAt: null,
      lastError: 'ticketing system answered 503 (attempt 1)',
    });
    expect(job.runAt.getTime()).toBe(clock.now().getTime() + retryDelayMs(1));

    // Not a millisecond early.
    clock.advance(retryDelayMs(1) - 1);
    expect((await worker.runDueJobs()).claimed).toBe(0);
    clock.advance(1);
    expect(await worker.runDueJobs()).toEqual({ claimed: 1, succeeded: 0, retried: 1, failed: 0 });
    job = await readJob(id);
    expect(job).toMatchObject({ status: 'pending', attempts: 2 });
    expect(job.runAt.getTime()).toBe(clock.now().getTime() + retryDelayMs(2));
    expect(retryDelayMs(2)).toBeGreaterThan(retryDelayMs(1));

    clock.advance(retryDelayMs(2));
    expect(await worker.runDueJobs()).toEqual({ claimed: 1, succeeded: 0, retried: 0, failed: 1 });
    job = await readJob(id);
    expect(job).toMatchObject({
      status: 'failed',
      attempts: 3,
      lockedAt: null,
      lastError: 'ticketing system answered 503 (attempt 3)',
    });
    expect(job.finishedAt?.getTime()).toBe(clock.now().getTime());

    clock.advance(24 * 60 * 60 * 1_000);
    expect((await worker.runDueJobs()).claimed).toBe(0);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('succeeds on a retry and clears the last error', async () => {
    const id = await aCommittedJob('flaky');
    const worker = aWorker({
      flaky: async (_payload, { attempt }) => {
        if (attempt === 1) throw new Error('timeout');
      },
    });

    expect((await worker.runDueJobs()).retried).toBe(1);
    clock.advance(retryDelayMs(1));
    expect((await worker.runDueJobs()).succeeded).toBe(1);
    expect(await readJob(id)).toMatchObject({ status: 'done', attempts: 2, lastError: null });
  });

  it("commits a handler's writes together with the job's completion", async () => {
    const id = await aCommittedJob('fanOut', { count: 2 });
    const worker = aWorker({
      fanOut: async (payload, { em, clock: jobClock }) => {
        for (let index = 0; index < Number(payload.count); index += 1) {
          enqueue(em, jobClock, 'notifyOne', { index });
        }
      },
    });

    expect((await worker.runDueJobs()).succeeded).toBe(1);
    expect((await readJob(id)).status).toBe('done');
    expect((await readJobs({ type: 'notifyOne' })).map((job) => job.payload)).toEqual([{ index: 0 }, { index: 1 }]);
  });

  it("rolls back a failing handler's writes, even those it flushed", async () => {
    const id = await aCommittedJob('fanOut');
    const worker = aWorker({
      fanOut: async (_payload, { em, clock: jobClock }) => {
        enqueue(em, jobClock, 'notifyOne', { index: 0 });
        await em.flush();
        throw new Error('failed after writing');
      },
    });

    expect((await worker.runDueJobs()).retried).toBe(1);
    expect(await readJob(id)).toMatchObject({ status: 'pending', lastError: 'failed after writing' });
    expect(await readJobs({ type: 'notifyOne' })).toEqual([]);
  });

  it('rolls back the handler when its claim was taken over meanwhile, and leaves the job to the new owner', async () => {
    const id = await aCommittedJob('slow');
    const worker = aWorker({
      slow: async (_payload, { em, clock: jobClock, jobId }) => {
        enqueue(em, jobClock, 'sideEffect', {});
        // What another worker does when this one's lease runs out: claim the job again (attempts + 1).
        await em.nativeUpdate(Job, { id: jobId }, { attempts: 2, lockedAt: jobClock.now() });
      },
    });

    expect(await worker.runDueJobs()).toEqual({ claimed: 1, succeeded: 0, retried: 0, failed: 0 });
    // The takeover itself was part of the rolled-back transaction: the row is as this worker's claim left it.
    expect(await readJob(id)).toMatchObject({ status: 'running', attempts: 1, finishedAt: null });
    expect(await readJobs({ type: 'sideEffect' })).toEqual([]);
  });

  it('reclaims a running job whose lease ran out, and leaves a fresh one alone', async () => {
    const em = db.orm.em.fork();
    /** A job a worker claimed at `lockedAt` and still holds: it never committed. */
    const aRunningJob = (which: string, runAt: number, lockedAt: number) =>
      em.create(Job, {
        type: 'work',
        payload: { which },
        status: 'running',
        attempts: 1,
        maxAttempts: 8,
        runAt: new Date(runAt),
        lockedAt: new Date(lockedAt),
        createdAt: clock.now(),
      });
    const now = clock.now().getTime();
    const stale = aRunningJob('stale', now - DEFAULT_LEASE_MS - 60_000, now - DEFAULT_LEASE_MS - 1);
    const fresh = aRunningJob('fresh', now - 60_000, now - DEFAULT_LEASE_MS + 1_000);
    await em.flush();

    const ran: unknown[] = [];
    const worker = aWorker({ work: async (payload, { attempt }) => void ran.push({ ...payload, attempt }) });
    expect(await worker.runDueJobs()).toEqual({ claimed: 1, succeeded: 1, retried: 0, failed: 0 });
    expect(ran).toEqual([{ which: 'stale', attempt: 2 }]);
    expect(await readJob(stale.id)).toMatchObject({ status: 'done', attempts: 2 });
    expect(await readJob(fresh.id)).toMatchObject({ status: 'running', attempts: 1 });

    // The fresh claim is reclaimed only once its own lease has run out: strictly older than leaseMs.
    clock.advance(1_000);
    expect((await worker.runDueJobs()).claimed).toBe(0);
    clock.advance(1);
    expect(await worker.runDueJobs()).toEqual({ claimed: 1, succeeded: 1, retried: 0, failed: 0 });
    expect(await readJob(fresh.id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it("claims only the types it has a handler for: another process's jobs stay pending for it", async () => {
    const offersJob = await aCommittedJob('offers.work');
    const bookingsJob = await aCommittedJob('bookings.work');
    const ran: string[] = [];
    const bookingsProcess = aWorker({ 'bookings.work': async () => void ran.push('bookings') });

    expect(await bookingsProcess.runDueJobs()).toEqual({ claimed: 1, succeeded: 1, retried: 0, failed: 0 });
    expect(await bookingsProcess.runDueJobs()).toEqual({ claimed: 0, succeeded: 0, retried: 0, failed: 0 });
    expect(await readJob(bookingsJob)).toMatchObject({ status: 'done', attempts: 1 });
    expect(await readJob(offersJob)).toMatchObject({ status: 'pending', attempts: 0, lockedAt: null });

    const offersProcess = aWorker({ 'offers.work': async () => void ran.push('offers') });
    expect(await offersProcess.runDueJobs()).toEqual({ claimed: 1, succeeded: 1, retried: 0, failed: 0 });
    expect(ran).toEqual(['bookings', 'offers']);
    expect(await readJob(offersJob)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('takes over an expired lease only of a type it handles', async () => {
    const em = db.orm.em.fork();
    // Claimed by an offers process that crashed: its lease has run out.
    const job = em.create(Job, {
      type: 'offers.work',
      payload: {},
      status: 'running',
      attempts: 1,
      maxAttempts: 8,
      runAt: clock.now(),
      lockedAt: new Date(clock.now().getTime() - DEFAULT_LEASE_MS - 1),
      createdAt: clock.now(),
    });
    await em.flush();
    const { id } = job;

    expect((await aWorker({ 'bookings.work': async () => {} }).runDueJobs()).claimed).toBe(0);
    expect(await readJob(id)).toMatchObject({ status: 'running', attempts: 1 });
    expect(await aWorker({ 'offers.work': async () => {} }).runDueJobs()).toEqual({
      claimed: 1,
      succeeded: 1,
      retried: 0,
      failed: 0,
    });
    expect(await readJob(id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('claims nothing with no job type registered (a process hosting no subgraph with jobs)', async () => {
    const id = await aCommittedJob('offers.work');
    expect(await aWorker({}).runDueJobs()).toEqual({ claimed: 0, succeeded: 0, retried: 0, failed: 0 });
    expect(await readJob(id)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('claims at most batchSize jobs per run, oldest runAt first', async () => {
    for (let index = 0; index < 12; index += 1) {
      await aCommittedJob('work', { index }, { runAt: new Date(clock.now().getTime() - 1_000 * (12 - index)) });
    }
    const order: unknown[] = [];
    const worker = aWorker({ work: async (payload) => void order.push(payload.index) }, { batchSize: 5 });

    expect((await worker.runDueJobs()).claimed).toBe(5);
    expect((await worker.runDueJobs()).claimed).toBe(5);
    expect((await worker.runDueJobs()).claimed).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('logs job id, type, attempt and error, never the payload', async () => {
    const lines: string[] = [];
    const record = (level: string) => (fields: object, message?: string) =>
      void lines.push(JSON.stringify({ level, ...fields, message }));
    const logger: Logger = { info: record('info'), warn: record('warn'), error: record('error') };
    const failing = await aCommittedJob('failing', { apiKey: 'secret-value-123' });
    await aCommittedJob('passing', { password: 'secret-value-456' });
    await aCommittedJob('unknown', { token: 'secret-value-789' });

    await aWorker(
      { failing: async () => Promise.reject(new Error('remote said no')), passing: async () => {} },
      { logger },
    ).runDueJobs();

    expect(lines.join('\n')).not.toContain('secret-value');
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ level: 'warn', jobId: failing, jobType: 'failing', attempt: 1, err: 'remote said no' }),
    );
    // A pino logger fits the worker's Logger interface.
    const pinoLogger: Logger = pino({ level: 'silent' });
    expect(pinoLogger).toBeDefined();
  });

  describe('jobs of several steps', () => {
    /** Writes one `notifyOne` job per step, then continues with the next index until `steps`. */
    const stepper =
      (failAt?: number): JobHandler =>
      async (payload, { em, clock: jobClock }) => {
        const index = Number(payload.index ?? 0);
        enqueue(em, jobClock, 'notifyOne', { index });
        if (index === failAt) throw new Error(`step ${index} failed`);
        return index + 1 < Number(payload.steps) ? { continueWith: { ...payload, index: index + 1 } } : undefined;
      };

    it('runs each step in its own transaction, with the next payload, until the handler stops continuing', async () => {
      const id = await aCommittedJob('stepped', { steps: 3 });
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      expect(await aWorker({ stepped: stepper() }, { logger }).runDueJobs()).toEqual({
        claimed: 1,
        succeeded: 1,
        retried: 0,
        failed: 0,
      });
      expect(await readJob(id)).toMatchObject({ status: 'done', attempts: 1, payload: { steps: 3, index: 2 } });
      expect((await readJobs({ type: 'notifyOne' })).map((job) => job.payload)).toEqual([
        { index: 0 },
        { index: 1 },
        { index: 2 },
      ]);
      expect(
        lines
          .map((line) => JSON.parse(line))
          .filter((line) => line.msg === 'job step committed')
          .map((line) => line.step),
      ).toEqual([1, 2]);
    });

    it('keeps the steps committed before a failure, and retries from the failed step', async () => {
      const id = await aCommittedJob('stepped', { steps: 4 });
      expect((await aWorker({ stepped: stepper(2) }).runDueJobs()).retried).toBe(1);
      expect(await readJob(id)).toMatchObject({
        status: 'pending',
        payload: { steps: 4, index: 2 },
        lastError: 'step 2 failed',
      });
      expect((await readJobs({ type: 'notifyOne' })).map((job) => job.payload)).toEqual([{ index: 0 }, { index: 1 }]);

      clock.advance(retryDelayMs(1));
      expect((await aWorker({ stepped: stepper() }).runDueJobs()).succeeded).toBe(1);
      expect((await readJobs({ type: 'notifyOne' })).map((job) => job.payload)).toEqual([
        { index: 0 },
        { index: 1 },
        { index: 2 },
        { index: 3 },
      ]);
    });

    it('renews its lease at each step, so a long job is not taken for abandoned', async () => {
      const id = await aCommittedJob('stepped', { steps: 2 });
      const worker = aWorker({
        stepped: async (payload, context) => {
          clock.advance(DEFAULT_LEASE_MS / 2);
          return stepper()(payload, context);
        },
      });
      await worker.runDueJobs();
      const job = await readJob(id);
      expect(job.status).toBe('done');
      expect(job.finishedAt?.toISOString()).toBe(
        new Date(Date.parse('2030-01-15T10:00:00.000Z') + DEFAULT_LEASE_MS).toISOString(),
      );
    });

    it('hands the rest of the job back, pending and due, when stopped between two steps', async () => {
      const id = await aCommittedJob('stepped', { steps: 3 });
      let stopping: Promise<void> = Promise.resolve();
      const worker: JobWorker = aWorker({
        stepped: async (payload, context) => {
          if (Number(payload.index ?? 0) === 0) stopping = worker.stop();
          return stepper()(payload, context);
        },
      });
      await worker.runDueJobs();
      await stopping;
      expect(await readJob(id)).toMatchObject({
        status: 'pending',
        attempts: 0,
        lockedAt: null,
        payload: { steps: 3, index: 1 },
      });
      expect((await aWorker({ stepped: stepper() }).runDueJobs()).succeeded).toBe(1);
      expect((await readJobs({ type: 'notifyOne' })).map((job) => job.payload)).toEqual([
        { index: 0 },
        { index: 1 },
        { index: 2 },
      ]);
    });
  });

  it('polls again right after the batch in flight when woken during it, not after the interval', async () => {
    const ran: string[] = [];
    const worker: JobWorker = aWorker(
      {
        first: async (_payload, { em, clock: jobClock }) => {
          ran.push('first');
          enqueue(em, jobClock, 'second', {});
          worker.wake();
        },
        second: async () => void ran.push('second'),
      },
      { pollIntervalMs: 60_000 },
    );
    await aCommittedJob('first');
    worker.start();
    const deadline = Date.now() + 5_000;
    while (ran.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await worker.stop();
    expect(ran).toEqual(['first', 'second']);
    expect((await readJobs({ type: 'second' })).map((job) => job.status)).toEqual(['done']);
  });

  it('polls on its own once started, and stop() waits for the batch in flight', async () => {
    let release: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      release = resolve;
    });
    let finished = false;
    const worker = aWorker(
      {
        slow: async () => {
          release();
          await new Promise((resolve) => setTimeout(resolve, 50));
          finished = true;
        },
      },
      { pollIntervalMs: 10 },
    );
    worker.start();
    worker.start(); // a second start() is a no-op, not a second loop
    const id = await aCommittedJob('slow');

    await started;
    await worker.stop();
    expect(finished).toBe(true);
    expect((await readJob(id)).status).toBe('done');

    // Stopped means stopped: a job enqueued now stays pending.
    const later = await aCommittedJob('slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await readJob(later)).status).toBe('pending');
  });
});

describe('job worker registry', () => {
  it('refuses a second handler for the same type', () => {
    const registry = new JobRegistry();
    registry.register('notify', async () => {});
    expect(() => registry.register('notify', async () => {})).toThrow('already registered for job type "notify"');
    expect(registry.get('notify')).toBeTypeOf('function');
    expect(registry.get('other')).toBeUndefined();
  });
});

describe('job worker on PostgreSQL, concurrent claims', () => {
  it.skipIf(!isPostgresTestRun())(
    'two workers in two connection pools never run the same job twice (needs TEST_DATABASE_URL)',
    async () => {
      const jobCount = 60;
      const em = db.orm.em.fork();
      for (let index = 0; index < jobCount; index += 1) enqueue(em, clock, 'work', { index });
      await em.flush();

      const secondOrm = await openDatabase(db.database.databaseConfig);
      try {
        const runs: number[] = [];
        const handler: JobHandler = async (_payload, { jobId }) => {
          runs.push(jobId);
          // Hold the claim a little so that the two workers' batches overlap in time.
          await new Promise((resolve) => setTimeout(resolve, 2));
        };
        const workers = [db.orm, secondOrm].map((orm) => aWorker({ work: handler }, { orm, batchSize: 4 }));
        const drain = async (worker: JobWorker): Promise<number> => {
          let total = 0;
          for (;;) {
            const { claimed } = await worker.runDueJobs();
            if (claimed === 0) return total;
            total += claimed;
          }
        };

        const claimedByEach = await Promise.all(workers.map(drain));

        expect(runs).toHaveLength(jobCount);
        expect(new Set(runs).size).toBe(jobCount);
        expect(claimedByEach[0] + claimedByEach[1]).toBe(jobCount);
        // Both took part, or the test proved nothing about concurrency.
        expect(claimedByEach[0]).toBeGreaterThan(0);
        expect(claimedByEach[1]).toBeGreaterThan(0);
        const jobs = await readJobs({ type: 'work' });
        expect(jobs.every((job) => job.status === 'done' && job.attempts === 1)).toBe(true);
      } finally {
        await secondOrm.close(true);
      }
    },
  );
});

import type { EntityManager } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { SettableClock } from '../../platform/time/clock.js';
import { Job } from '../../platform/jobs/Job.js';
import { enqueue } from '../../platform/jobs/outbox.js';
import { Scheduler } from '../../platform/jobs/scheduler.js';
import { isPostgresTestRun } from '../support/database.js';
import { useJobDatabase } from './jobDatabase.js';

const db = useJobDatabase();
const clock = new SettableClock(new Date('2030-01-15T10:00:00.000Z'));

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Counts runs and the most that were ever in progress at once. */
function aProbe(runMs = 0) {
  const probe = { runs: 0, inProgress: 0, mostAtOnce: 0 };
  const run = async () => {
    probe.inProgress += 1;
    probe.mostAtOnce = Math.max(probe.mostAtOnce, probe.inProgress);
    await sleep(runMs);
    probe.runs += 1;
    probe.inProgress -= 1;
  };
  return { probe, run };
}

describe(`scheduler (${isPostgresTestRun() ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('lists tasks and refuses a duplicate name or a bad interval', () => {
    const scheduler = new Scheduler({ orm: db.orm, clock });
    scheduler.register({ name: 'publication.refresh', intervalMs: 15 * 60 * 1_000, run: async () => {} });
    scheduler.register({ name: 'bookings.expire', intervalMs: 60 * 1_000, run: async () => {} });

    expect(scheduler.names()).toEqual(['publication.refresh', 'bookings.expire']);
    expect(() => scheduler.register({ name: 'bookings.expire', intervalMs: 1_000, run: async () => {} })).toThrow(
      'already registered',
    );
    expect(() => scheduler.register({ name: 'broken', intervalMs: 0, run: async () => {} })).toThrow(
      'positive intervalMs',
    );
  });

  it('runs a task on demand with a fresh entity manager each time, and its writes reach the database', async () => {
    const scheduler = new Scheduler({ orm: db.orm, clock });
    const managers: EntityManager[] = [];
    scheduler.register({
      name: 'publication.refresh',
      intervalMs: 15 * 60 * 1_000,
      run: async ({ em, clock: taskClock }) => {
        managers.push(em);
        enqueue(em, taskClock, 'publication.refresh', { at: taskClock.now().toISOString() });
        await em.flush();
      },
    });

    await scheduler.runNow('publication.refresh');
    await scheduler.runNow('publication.refresh');

    expect(managers).toHaveLength(2);
    expect(managers[0]).not.toBe(managers[1]);
    expect(managers[0]).not.toBe(db.orm.em);
    const jobs = await db.orm.em.fork().find(Job, { type: 'publication.refresh' });
    expect(jobs.map((job) => job.payload)).toEqual([
      { at: '2030-01-15T10:00:00.000Z' },
      { at: '2030-01-15T10:00:00.000Z' },
    ]);
  });

  it("rejects runNow with the task's error and keeps running the task afterwards", async () => {
    const scheduler = new Scheduler({ orm: db.orm, clock });
    let calls = 0;
    scheduler.register({
      name: 'flaky',
      intervalMs: 60_000,
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database busy');
      },
    });

    await expect(scheduler.runNow('flaky')).rejects.toThrow('database busy');
    await expect(scheduler.runNow('flaky')).resolves.toBeUndefined();
    await expect(scheduler.runNow('missing')).rejects.toThrow('No task named "missing"; known tasks: flaky');
  });

  it('never overlaps two runs of the same task, on demand or by timer', async () => {
    const scheduler = new Scheduler({ orm: db.orm, clock });
    const { probe, run } = aProbe(30);
    scheduler.register({ name: 'slow', intervalMs: 5, run });

    scheduler.start();
    await Promise.all([scheduler.runNow('slow'), scheduler.runNow('slow'), scheduler.runNow('slow')]);
    await sleep(80);
    await scheduler.stop();

    expect(probe.mostAtOnce).toBe(1);
    expect(probe.runs).toBeGreaterThanOrEqual(4);
  });

  it('runs tasks every interval once started, and stop() waits for a run in progress then stops the timers', async () => {
    const scheduler = new Scheduler({ orm: db.orm, clock });
    const fast = aProbe(0);
    const slow = aProbe(40);
    scheduler.register({ name: 'fast', intervalMs: 10, run: fast.run });
    scheduler.register({ name: 'slow', intervalMs: 10, run: slow.run });

    scheduler.start();
    scheduler.start(); // a second start() does not double the timers
    await sleep(25);
    expect(slow.probe.inProgress).toBe(1);
    await scheduler.stop();

    expect(slow.probe.inProgress).toBe(0);
    expect(slow.probe.runs).toBe(1);
    expect(fast.probe.runs).toBeGreaterThanOrEqual(1);
    expect(fast.probe.runs).toBeLessThanOrEqual(3);

    const runsAtStop = fast.probe.runs + slow.probe.runs;
    await sleep(40);
    expect(fast.probe.runs + slow.probe.runs).toBe(runsAtStop);
  });

  it('does not run anything before the first interval has passed', async () => {
    const scheduler = new Scheduler({ orm: db.orm, clock });
    const { probe, run } = aProbe(0);
    scheduler.register({ name: 'hourly', intervalMs: 60 * 60 * 1_000, run });
    scheduler.start();
    await sleep(20);
    await scheduler.stop();
    expect(probe.runs).toBe(0);
  });
});

import type { MikroORM } from '@mikro-orm/core';
import type { Clock } from '../time/clock.js';
import type { ScheduledTask, TaskScheduler } from './ports.js';
import type { Logger } from './worker.js';

export interface SchedulerOptions {
  orm: MikroORM;
  clock: Clock;
  logger?: Logger;
}

interface TaskState {
  task: ScheduledTask;
  timer: NodeJS.Timeout | null;
  /** The latest run, chained after the one before: runs of one task never overlap. */
  tail: Promise<void>;
  /** Runs queued or in progress (timer ticks and runNow calls). */
  pending: number;
}

const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** Runs registered tasks every `intervalMs` (first run one interval after start()), and on demand. */
export class Scheduler implements TaskScheduler {
  private readonly orm: MikroORM;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly tasks = new Map<string, TaskState>();
  private started = false;

  constructor(options: SchedulerOptions) {
    this.orm = options.orm;
    this.clock = options.clock;
    this.logger = options.logger ?? silentLogger;
  }

  register(task: ScheduledTask): void {
    if (this.tasks.has(task.name)) throw new Error(`A task named "${task.name}" is already registered`);
    if (!Number.isFinite(task.intervalMs) || task.intervalMs <= 0) {
      throw new Error(`Task "${task.name}" needs a positive intervalMs, got ${task.intervalMs}`);
    }
    const state: TaskState = { task, timer: null, tail: Promise.resolve(), pending: 0 };
    this.tasks.set(task.name, state);
    if (this.started) this.scheduleNext(state);
  }

  names(): string[] {
    return [...this.tasks.keys()];
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const state of this.tasks.values()) this.scheduleNext(state);
  }

  /** Stops the timers and waits for the runs in progress. */
  async stop(): Promise<void> {
    this.started = false;
    for (const state of this.tasks.values()) {
      if (state.timer) clearTimeout(state.timer);
      state.timer = null;
    }
    await Promise.all([...this.tasks.values()].map((state) => state.tail));
  }

  /**
   * Runs a task now (tests, the CLI), after its run in progress if there is one, and rejects
   * with the task's own error so that the caller sees why it failed.
   */
  runNow(name: string): Promise<void> {
    const state = this.tasks.get(name);
    if (!state)
      return Promise.reject(new Error(`No task named "${name}"; known tasks: ${this.names().join(', ') || 'none'}`));
    return this.enqueueRun(state);
  }

  private enqueueRun(state: TaskState): Promise<void> {
    state.pending += 1;
    const run = state.tail
      .then(() => this.execute(state))
      .finally(() => {
        state.pending -= 1;
      });
    // The chain itself never rejects, so that one failed run does not fail the next ones.
    state.tail = run.catch(() => undefined);
    return run;
  }

  private async execute(state: TaskState): Promise<void> {
    const startedAt = Date.now();
    try {
      await state.task.run({ em: this.orm.em.fork(), clock: this.clock });
      this.logger.info({ task: state.task.name, durationMs: Date.now() - startedAt }, 'scheduled task done');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error(
        { task: state.task.name, durationMs: Date.now() - startedAt, err: message },
        'scheduled task failed',
      );
      throw error;
    }
  }

  private scheduleNext(state: TaskState): void {
    if (state.timer) return;
    state.timer = setTimeout(() => void this.tick(state), state.task.intervalMs);
    // Timers never keep the process alive on their own.
    state.timer.unref();
  }

  private async tick(state: TaskState): Promise<void> {
    state.timer = null;
    // A run still going (a slow one, or a runNow) makes this tick a no-op rather than a queued second run.
    if (state.pending === 0) await this.enqueueRun(state).catch(() => undefined);
    // The next interval counts from the end of this run, so a slow run cannot pile up behind itself.
    if (this.started && this.tasks.get(state.task.name) === state) this.scheduleNext(state);
  }
}

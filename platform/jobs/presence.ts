import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Clock } from '../time/clock.js';
import { JobWorkerPresence } from './JobWorkerPresence.js';
import type { JobRegistry } from './registry.js';
import type { Logger } from './worker.js';

/** How often a running worker renews its row. */
export const PRESENCE_INTERVAL_MS = 30_000;
/** A row older than this is a worker that stopped without saying so (a crash, a kill): three beats missed. */
export const PRESENCE_STALE_MS = 3 * PRESENCE_INTERVAL_MS;
/** The rows of dead workers are deleted after this long, by any beat. */
const PRESENCE_FORGOTTEN_MS = 60 * 60 * 1000;

/**
 * Tells every process, through the database they share, which job types this process's worker
 * claims, while it runs: decision 020 lets a process claim only the types it has a handler for,
 * so a type whose handler runs nowhere would otherwise wait in silence.
 */
export class WorkerPresence {
  readonly id = randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> = Promise.resolve();

  constructor(private readonly options: { orm: MikroORM; registry: JobRegistry; clock: Clock; logger: Logger }) {}

  /** Writes (or renews) this worker's row; a failure is logged and the next beat tries again. */
  beat(): Promise<void> {
    const { orm, registry, clock, logger } = this.options;
    const now = clock.now();
    const em = orm.em.fork();
    this.beating = em
      .upsert(JobWorkerPresence, { id: this.id, types: JSON.stringify(registry.types()), seenAt: now })
      .then(() =>
        em.nativeDelete(JobWorkerPresence, { seenAt: { $lt: new Date(now.getTime() - PRESENCE_FORGOTTEN_MS) } }),
      )
      .then(
        () => undefined,
        (error: unknown) =>
          logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'job worker: presence not renewed',
          ),
      );
    return this.beating;
  }

  start(): void {
    if (this.timer) return;
    void this.beat();
    this.timer = setInterval(() => void this.beat(), PRESENCE_INTERVAL_MS);
    // The presence never keeps the process alive on its own.
    this.timer.unref();
  }

  /** Stops renewing and deletes the row: a worker stopped on purpose handles nothing from now on. */
  async stop(): Promise<void> {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    await this.options.orm.em
      .fork()
      .nativeDelete(JobWorkerPresence, { id: this.id })
      .catch(() => undefined);
  }
}

/** The job types that some running worker claims, as of `now`. */
export async function handledJobTypes(em: EntityManager, now: Date): Promise<Set<string>> {
  const rows = await em.find(
    JobWorkerPresence,
    { seenAt: { $gte: new Date(now.getTime() - PRESENCE_STALE_MS) } },
    { fields: ['types'] },
  );
  const types = new Set<string>();
  for (const row of rows) for (const type of JSON.parse(row.types) as string[]) types.add(type);
  return types;
}

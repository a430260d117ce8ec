import { type EntityManager, raw } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/knex';
import { Job } from './Job.js';
import type { ScheduledTask } from './ports.js';
import { handledJobTypes } from './presence.js';
import type { Logger } from './worker.js';

/** One job type's figures in the outbox, as one query read them. */
export interface JobTypeFigures {
  type: string;
  /** Pending and due: what a worker would claim now. */
  waiting: number;
  running: number;
  /** Failed for good and not discarded by staff. */
  failed: number;
  /** How long the oldest waiting job has been due; 0 when none waits. */
  oldestWaitingSeconds: number;
  /** Jobs wait and no running worker claims this type (decision 023). */
  unhandled: boolean;
}

interface Row {
  type: string;
  status: string;
  count: number | string;
  oldest: Date | string | number | null;
}

/**
 * The outbox by type: one grouped query on the (status, run_at) index, and one on the few rows
 * of running workers. Read when asked (a scrape, the periodic check), never on a request's path.
 * Jobs scheduled later (a backoff, a delay) are not waiting yet and are left out.
 */
export async function readQueueFigures(em: EntityManager, now: Date): Promise<JobTypeFigures[]> {
  const rows = await (em as SqlEntityManager)
    .createQueryBuilder(Job, 'job')
    .select(['type', 'status', raw('count(*) as count'), raw('min(job.run_at) as oldest')])
    .where({
      $or: [{ status: 'pending', runAt: { $lte: now } }, { status: { $in: ['running', 'failed'] } }],
    })
    .groupBy(['type', 'status'])
    .execute<Row[]>('all', false);
  const handled = await handledJobTypes(em, now);
  const byType = new Map<string, JobTypeFigures>();
  for (const row of rows) {
    let figures = byType.get(row.type);
    if (!figures) {
      figures = { type: row.type, waiting: 0, running: 0, failed: 0, oldestWaitingSeconds: 0, unhandled: false };
      byType.set(row.type, figures);
    }
    const count = Number(row.count);
    if (row.status === 'running') figures.running = count;
    else if (row.status === 'failed') figures.failed = count;
    else {
      figures.waiting = count;
      figures.oldestWaitingSeconds = Math.max(0, (now.getTime() - dateOf(row.oldest)) / 1000);
      figures.unhandled = !handled.has(row.type);
    }
  }
  return [...byType.values()].sort((left, right) => left.type.localeCompare(right.type));
}

/**
 * A raw aggregate is not hydrated: a Date, epoch milliseconds (SQLite), or PostgreSQL's text
 * (`2026-11-22 09:50:00+00`), made ISO 8601 before parsing, since a zone-less text would read as local time.
 */
function dateOf(value: Row['oldest']): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) return Number(value);
  if (typeof value !== 'string') return Number.NaN;
  const iso = value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  return Date.parse(/([zZ]|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`);
}

/** How often every process with a scheduler looks for jobs that no running worker handles. */
export const UNHANDLED_JOBS_CHECK_INTERVAL_MS = 60_000;
export const UNHANDLED_JOBS_TASK = 'jobs.unhandledCheck';

/**
 * The periodic task that says, in a warning line, which job types wait with no running worker to
 * claim them, and what would claim them (`owners`: each type's subgraph, when the code knows it).
 */
export function unhandledJobsTask(owners: ReadonlyMap<string, string>, logger: Logger): ScheduledTask {
  return {
    name: UNHANDLED_JOBS_TASK,
    intervalMs: UNHANDLED_JOBS_CHECK_INTERVAL_MS,
    run: async ({ em, clock }) => {
      for (const figures of await readQueueFigures(em, clock.now())) {
        if (!figures.unhandled) continue;
        const subgraph = owners.get(figures.type) ?? null;
        logger.warn(
          {
            jobType: figures.type,
            waiting: figures.waiting,
            oldestWaitingSeconds: Math.round(figures.oldestWaitingSeconds),
            subgraph,
          },
          subgraph
            ? `jobs wait that no running process handles: start a process that hosts the ${subgraph} subgraph with its worker on`
            : 'jobs wait that no running process handles: no subgraph of this build registers their type',
        );
      }
    },
  };
}

import type { MikroORM } from '@mikro-orm/core';
import { Gauge } from 'prom-client';
import { readQueueFigures } from '../../platform/jobs/queueFigures.js';
import { METRIC_PREFIX, type Metrics } from '../../platform/metrics/index.js';
import type { Clock } from '../../platform/time/clock.js';
import type { Logger } from '../logger.js';

/** What knex's pool (tarn) answers; MikroORM keeps one per ORM, on PostgreSQL and SQLite alike. */
interface Pool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

function poolOf(orm: MikroORM): Pool | undefined {
  const connection = orm.em.getConnection() as { getKnex?: () => { client?: { pool?: Pool } } };
  return connection.getKnex?.().client?.pool;
}

/**
 * The figures read at scrape time: the job outbox by type (one grouped query; every process on
 * one database reports the same figures, so alert on `max`), whether that query answered, and
 * the database pool. `knownTypes` get a 0 when none of their jobs exist, so a series does not vanish.
 */
export function collectCoreMetrics(
  metrics: Metrics,
  core: { orm: MikroORM; clock: Clock; logger: Logger; knownJobTypes: Iterable<string> },
): void {
  const registers = [metrics.registry];
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name: `${METRIC_PREFIX}${name}`, help, labelNames, registers });
  const waiting = gauge('jobs_waiting', 'Jobs due and not yet claimed, by type', ['type']);
  const running = gauge('jobs_running', 'Jobs claimed by a worker and not finished, by type', ['type']);
  const failed = gauge('jobs_failed', 'Jobs failed for good and not discarded, by type', ['type']);
  const oldest = gauge('jobs_oldest_waiting_seconds', 'How long the oldest waiting job has been due, by type', [
    'type',
  ]);
  const unhandled = gauge(
    'jobs_unhandled',
    'Jobs waiting whose type no running worker claims (no process hosts their subgraph with its worker on), by type',
    ['type'],
  );
  const databaseUp = gauge('database_up', '1 when the scrape-time query of the job outbox answered, else 0');
  const poolConnections = gauge('db_pool_connections', 'Connections of the database pool, by state', ['state']);
  const poolWaiting = gauge('db_pool_pending_acquires', 'Queries waiting for a connection of the pool');
  const poolMax = gauge('db_pool_max_connections', 'The pool size: 10 on PostgreSQL, 1 on SQLite (one writer)');
  const knownTypes = [...core.knownJobTypes];

  metrics.addCollector(async () => {
    const pool = poolOf(core.orm);
    if (pool) {
      poolConnections.set({ state: 'used' }, pool.numUsed());
      poolConnections.set({ state: 'free' }, pool.numFree());
      poolWaiting.set(pool.numPendingAcquires());
      poolMax.set(pool.max);
    }
    for (const jobGauge of [waiting, running, failed, oldest, unhandled]) jobGauge.reset();
    try {
      const figures = await readQueueFigures(core.orm.em.fork(), core.clock.now());
      for (const type of knownTypes) {
        for (const jobGauge of [waiting, running, failed, oldest, unhandled]) jobGauge.set({ type }, 0);
      }
      for (const row of figures) {
        const labels = { type: row.type };
        waiting.set(labels, row.waiting);
        running.set(labels, row.running);
        failed.set(labels, row.failed);
        oldest.set(labels, row.oldestWaitingSeconds);
        unhandled.set(labels, row.unhandled ? row.waiting : 0);
      }
      databaseUp.set(1);
    } catch (error) {
      // A scrape still answers (the process's own figures are worth having when the database is not).
      databaseUp.set(0);
      core.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'metrics: job figures not read',
      );
    }
  });
}

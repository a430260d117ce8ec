import type { MikroORM } from '@mikro-orm/core';
import type { RequestHandler } from 'express';
import { subgraphNames, type SubgraphName } from '../../graphql/subgraphNames.js';
import type { SubgraphLinks } from '../subgraphs/connect.js';

/** A readiness probe that waits longer than this on the database reports it unreachable. */
const DATABASE_PROBE_MS = 2_000;

type PartState = 'ok' | 'in process' | 'unreachable' | 'another schema';

export interface Readiness {
  status: 'ready' | 'degraded' | 'unavailable';
  checks: {
    database: PartState;
    subgraphs: Record<SubgraphName, PartState>;
    /** With REDIS_URL only: where the rate limit counts (unreachable: in each process's memory). */
    redis?: PartState;
  };
}

/** The shared rate-limit store, as readiness sees it (server/redis.ts). */
export interface SharedStore {
  readonly shared: boolean;
}

/** Whether the database answers a trivial query within a readiness probe's patience. */
export async function databaseState(orm: MikroORM): Promise<'ok' | 'unreachable'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'unreachable'>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), DATABASE_PROBE_MS);
  });
  const answered = orm.em
    .getConnection()
    .execute('select 1')
    .then(() => 'ok' as const)
    .catch(() => 'unreachable' as const);
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this process can serve: `unavailable` (503) when its database does not answer, since
 * nothing can be served then; `degraded` (200) when a subgraph service it calls is missing or
 * serves another schema, since the other routes still answer, and a load balancer that took every
 * API process out for one service would turn that service's outage into the whole API's. The same
 * for Redis: without it every request is still served, each process counting the rate limit on
 * its own (decision 026). The body names what is missing either way.
 */
export async function readiness(orm: MikroORM, links: SubgraphLinks, redis?: SharedStore): Promise<Readiness> {
  const [database, ...states] = await Promise.all([
    databaseState(orm),
    ...subgraphNames.map(async (name): Promise<PartState> => {
      const link = links[name];
      if (!link) return 'in process';
      const check = await link.checkSchema();
      return check === 'same' ? 'ok' : check === 'different' ? 'another schema' : 'unreachable';
    }),
  ]);
  const subgraphs = Object.fromEntries(subgraphNames.map((name, index) => [name, states[index]])) as Record<
    SubgraphName,
    PartState
  >;
  const redisState: PartState | undefined = redis ? (redis.shared ? 'ok' : 'unreachable') : undefined;
  const whole = states.every((state) => state === 'ok' || state === 'in process') && redisState !== 'unreachable';
  const status = database !== 'ok' ? 'unavailable' : whole ? 'ready' : 'degraded';
  return { status, checks: { database, subgraphs, ...(redisState ? { redis: redisState } : {}) } };
}

/** `/health`: the process answers (liveness). `/health/ready`: it can serve, and what it is missing (readiness). */
export function healthRoutes(
  orm: MikroORM,
  links: SubgraphLinks,
  redis?: SharedStore,
): { live: RequestHandler; ready: RequestHandler } {
  return {
    live: (_req, res) => {
      res.json({ status: 'ok' });
    },
    ready: (_req, res, next) => {
      readiness(orm, links, redis).then((report) => {
        res.status(report.status === 'unavailable' ? 503 : 200).json(report);
      }, next);
    },
  };
}

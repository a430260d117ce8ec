import type { MikroORM } from '@mikro-orm/core';
import type { RequestHandler } from 'express';
import { subgraphNames, type SubgraphName } from '../../graphql/subgraphNames.js';
import type { SubgraphLinks } from '../subgraphs/connect.js';

/** A readiness probe that waits longer than this on the database reports it unreachable. */
const DATABASE_PROBE_MS = 2_000;

type PartState = 'ok' | 'in process' | 'unreachable' | 'another schema';

export interface Readiness {
  status: 'ready' | 'unavailable';
  checks: { database: PartState; subgraphs: Record<SubgraphName, PartState> };
}

async function databaseState(orm: MikroORM): Promise<PartState> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<PartState>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), DATABASE_PROBE_MS);
  });
  const answered = orm.em
    .getConnection()
    .execute('select 1')
    .then((): PartState => 'ok')
    .catch((): PartState => 'unreachable');
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this process can serve everything: its database answers, and every subgraph service it
 * calls answers with the schema it expects. The body names what is missing.
 */
export async function readiness(orm: MikroORM, links: SubgraphLinks): Promise<Readiness> {
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
  const ready = [database, ...states].every((state) => state === 'ok' || state === 'in process');
  return { status: ready ? 'ready' : 'unavailable', checks: { database, subgraphs } };
}

/** `/health`: the process answers (liveness). `/health/ready`: it can serve every route (readiness). */
export function healthRoutes(orm: MikroORM, links: SubgraphLinks): { live: RequestHandler; ready: RequestHandler } {
  return {
    live: (_req, res) => {
      res.json({ status: 'ok' });
    },
    ready: (_req, res, next) => {
      readiness(orm, links).then((report) => {
        res.status(report.status === 'ready' ? 200 : 503).json(report);
      }, next);
    },
  };
}

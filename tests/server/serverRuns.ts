import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { EntityManager } from '@mikro-orm/core';
import type { SubgraphName } from '../../graphql/subgraphNames.js';
import { type DatabaseConfig, openDatabase } from '../../server/db/orm.js';
import { findProjectRoot } from '../../server/portal.js';
import { ensurePortalBuilt } from '../portal/ensureBuilt.js';
import { createTestDatabase, isPostgresTestRun, type TestDatabase } from '../support/database.js';
import { ensureServerBuilt, subgraphEntryPath } from '../support/serverBuild.js';
import { type ServerProcess, serverEnv, startServerProcess } from '../support/serverProcess.js';

/** Runs of the real process (`node dist/server/main.js`), one after another, on one database. */
export interface ServerRuns {
  readonly projectRoot: string;
  /** The database every run shares: known once the block's beforeAll has run. */
  readonly databaseConfig: DatabaseConfig;
  /** Starts a process on that database, with `extraEnv`, and resolves once it listens. */
  start(extraEnv?: Record<string, string>): Promise<ServerProcess>;
  /** Starts a subgraph service (`npm run subgraph -- <name>`) on that database, and resolves once it listens. */
  startSubgraph(name: SubgraphName, extraEnv?: Record<string, string>): Promise<ServerProcess>;
  /** Kills every process started so far. */
  killAll(): Promise<void>;
  /** Reads the database from outside the processes, on a connection of its own. */
  readDatabase<T>(read: (em: EntityManager) => Promise<T>): Promise<T>;
}

/**
 * For a describe block: the compiled server and the portal built, a temporary folder, and a
 * database of the block's own (a SQLite file in that folder, or a fresh PostgreSQL database with
 * TEST_DATABASE_URL). After the block, every process started is killed, then the database dropped.
 */
export function useServerRuns(temporaryPrefix: string): ServerRuns {
  const projectRoot = findProjectRoot();
  const processes: ServerProcess[] = [];
  let serverEntry = '';
  let temporaryDirectory = '';
  let testDatabase: TestDatabase | undefined;
  let databaseConfig: DatabaseConfig | undefined;

  const killAll = async () => {
    await Promise.all(processes.map((server) => server.kill()));
  };

  beforeAll(async () => {
    serverEntry = ensureServerBuilt(projectRoot);
    ensurePortalBuilt(projectRoot);
    temporaryDirectory = await mkdtemp(join(tmpdir(), temporaryPrefix));
    if (isPostgresTestRun()) {
      testDatabase = await createTestDatabase();
      databaseConfig = testDatabase.databaseConfig;
    } else {
      databaseConfig = { kind: 'sqlite', path: join(temporaryDirectory, 'db.sqlite') };
    }
  }, 300_000);

  afterAll(async () => {
    await killAll();
    // Dropping a PostgreSQL database ends its connections: only once every child has exited.
    await testDatabase?.destroy();
    if (temporaryDirectory) await rm(temporaryDirectory, { recursive: true, force: true });
  }, 60_000);

  return {
    projectRoot,
    get databaseConfig() {
      return databaseConfig!;
    },
    async start(extraEnv = {}) {
      const server = await startServerProcess({
        serverEntry,
        cwd: projectRoot,
        env: serverEnv(databaseConfig!, temporaryDirectory, extraEnv),
      });
      processes.push(server);
      return server;
    },
    async startSubgraph(name, extraEnv = {}) {
      const service = await startServerProcess({
        serverEntry: subgraphEntryPath(projectRoot),
        args: [name],
        cwd: projectRoot,
        env: serverEnv(databaseConfig!, temporaryDirectory, extraEnv),
        startUpLines: false,
      });
      processes.push(service);
      return service;
    },
    killAll,
    async readDatabase(read) {
      const orm = await openDatabase(databaseConfig!);
      try {
        return await read(orm.em.fork());
      } finally {
        await orm.close(true);
      }
    },
  };
}

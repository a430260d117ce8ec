import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type EntityManager, type MetadataStorage, MikroORM, type Options, ReferenceKind } from '@mikro-orm/core';
import { LibSqlDriver } from '@mikro-orm/libsql';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { allEntities } from '../../graphql/entities.js';
import type { Config } from '../config.js';
import { announceCallerChanges } from './callerChanges.js';
import { withMigrationLock } from './migrationLock.js';
import { migrationsList } from './migrations/index.js';

export type DatabaseConfig = Config['database'];

/** The database each ORM was opened on: what `migrate` locks (tests hand the runtime an ORM of their own). */
const openedOn = new WeakMap<MikroORM, DatabaseConfig>();

const SQLITE_BUSY_WAIT_MS = 5_000;
/**
 * A PostgreSQL that accepts the TCP connection but never answers (hung, or a network that drops
 * packets) fails a new connection after this long, rather than pg's default of waiting for ever.
 */
export const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;
/**
 * The longest a request waits for a connection of the pool (knex's default is 60 s): past it, the
 * request answers 503 (server/http/errorHandler.ts) instead of holding its client that long.
 */
export const POSTGRES_ACQUIRE_TIMEOUT_MS = 10_000;

function driverOptions(database: DatabaseConfig): Options {
  if (database.kind === 'postgresql') {
    // A connection that died (a restart of the server) is dropped by knex's pg dialect when it
    // emits `error` or `end`, and the next acquire opens a new one: the pool recovers on its own.
    return {
      driver: PostgreSqlDriver,
      clientUrl: database.url,
      pool: { min: 0, max: 10 },
      driverOptions: {
        acquireConnectionTimeout: POSTGRES_ACQUIRE_TIMEOUT_MS,
        connection: { connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS },
      },
    };
  }
  if (database.path !== ':memory:') mkdirSync(dirname(database.path), { recursive: true });
  // Another process writing the same file (the CLI, a subgraph service starting beside the API) makes
  // a write wait its turn, up to this many milliseconds, rather than fail at once (libsql's default).
  return {
    driver: LibSqlDriver,
    dbName: database.path,
    driverOptions: { connection: { timeout: SQLITE_BUSY_WAIT_MS } },
    pool: { afterCreate: database.path === ':memory:' ? undefined : writeAheadLog },
  };
}

/**
 * A file is written ahead (WAL, kept by the file) and synced at checkpoints, not at each commit
 * (synchronous = NORMAL, per connection): the request log's thread writes the same file through a
 * connection of its own (platform/requestLog/writerThread.ts), and in WAL its commits never stop
 * this connection's reads, which run on the event loop; in the default journal a reader waits
 * for a commit, the event loop with it. NORMAL in WAL may lose the last commits at a power loss,
 * never the file's consistency.
 */
function writeAheadLog(
  connection: { exec(sql: string): void },
  done: (error: Error | null, connection: unknown) => void,
) {
  try {
    connection.exec('pragma journal_mode = wal');
    connection.exec('pragma synchronous = normal');
    done(null, connection);
  } catch (error) {
    done(error as Error, connection);
  }
}

/**
 * Two habits of the migrations (knex's schema builder) that MikroORM does not assume, said once
 * for every entity so that the entities describe the schema the migrations make
 * (tests/server/schemaDrift.test.ts): foreign keys have no ON UPDATE rule (MikroORM would assume
 * CASCADE for a relation that cascades persist), and a many-to-many pivot table is indexed by its
 * primary key alone (MikroORM would index each of its columns on SQLite).
 */
function asMigrated(storage: MetadataStorage): void {
  for (const meta of Object.values(storage.getAll())) {
    for (const relation of meta.relations) {
      if (relation.kind !== ReferenceKind.MANY_TO_ONE) continue;
      relation.updateRule ??= 'no action';
      if (meta.pivotTable) relation.index = false;
    }
  }
}

/** Opens the database. Entities are listed, not discovered, so the same code runs from tsc output and from vitest. */
export async function openDatabase(database: DatabaseConfig): Promise<MikroORM> {
  const orm = await MikroORM.init({
    ...driverOptions(database),
    entities: allEntities,
    extensions: [Migrator],
    discovery: {
      requireEntitiesArray: true,
      disableDynamicFileAccess: true,
      // A column's default is the migrations' (the entities name it where they set one); a field's
      // initial value in its class is the application's, and says nothing about the database.
      inferDefaultValues: false,
      // After discovery: pivot tables are described last.
      afterDiscovered: asMigrated,
    },
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    ensureDatabase: false,
    debug: false,
  });
  openedOn.set(orm, database);
  announceCallerChanges(orm, database);
  return orm;
}

/**
 * Applies the migrations not yet applied; returns their names. Several processes may call it at
 * once on the same database (server/db/migrationLock.ts): one applies them, the others then find
 * none pending. `loadReference` runs under the same lock, after the migrations: reference data
 * written by several processes at once can collide (server/db/referenceData.ts says how).
 */
export async function migrate(
  orm: MikroORM,
  options: { loadReference?: (em: EntityManager) => Promise<void> } = {},
): Promise<string[]> {
  const database = openedOn.get(orm);
  if (!database) throw new Error('The database was not opened with openDatabase: its migrations cannot be locked');
  const applied = await withMigrationLock(database, async () => {
    const migrations = await orm.getMigrator().up();
    await options.loadReference?.(orm.em.fork());
    return migrations;
  });
  return applied.map((migration) => migration.name);
}

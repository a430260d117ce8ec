import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MikroORM, type Options } from '@mikro-orm/core';
import { LibSqlDriver } from '@mikro-orm/libsql';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { allEntities } from '../../graphql/entities.js';
import type { Config } from '../config.js';
import { migrationsList } from './migrations/index.js';

export type DatabaseConfig = Config['database'];

function driverOptions(database: DatabaseConfig): Options {
  if (database.kind === 'postgresql') {
    return { driver: PostgreSqlDriver, clientUrl: database.url, pool: { min: 0, max: 10 } };
  }
  if (database.path !== ':memory:') mkdirSync(dirname(database.path), { recursive: true });
  return { driver: LibSqlDriver, dbName: database.path };
}

/** Opens the database. Entities are listed, not discovered, so the same code runs from tsc output and from vitest. */
export async function openDatabase(database: DatabaseConfig): Promise<MikroORM> {
  return MikroORM.init({
    ...driverOptions(database),
    entities: allEntities,
    extensions: [Migrator],
    discovery: { requireEntitiesArray: true, disableDynamicFileAccess: true },
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    ensureDatabase: false,
    debug: false,
  });
}

/** Applies the migrations not yet applied; returns their names. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((migration) => migration.name);
}

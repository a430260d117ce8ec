import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/core';
import { migrate, openDatabase, type DatabaseConfig } from '../../server/db/orm.js';

/**
 * A database of its own for one test file, migrated (unless `migrated: false`) and empty.
 *
 * - `TEST_DATABASE_URL` unset: SQLite, in memory by default (fast; only `orm` can see it) or
 *   in a temporary file with `{ sqlite: 'file' }` (when a test needs a second connection or
 *   a second ORM on the same data, through `databaseConfig`).
 * - `TEST_DATABASE_URL` set to a PostgreSQL URL: a fresh database `t_<random>` created next
 *   to the one the URL names (which is only used to create and drop it), so that files running
 *   in parallel never see each other's rows.
 *
 * Call `destroy()` in `afterAll`: it closes the ORM and deletes the database.
 */
export interface TestDatabase {
  orm: MikroORM;
  /** How to open the same database again (another ORM, a server under test). */
  databaseConfig: DatabaseConfig;
  engine: DatabaseConfig['kind'];
  destroy(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** SQLite only: keep the database in memory (default) or in a temporary file. */
  sqlite?: 'memory' | 'file';
  /** Leave the database empty, with no migration applied (default: migrated). */
  migrated?: boolean;
}

/** The PostgreSQL server that tests may use, when there is one. */
export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

export function isPostgresTestRun(): boolean {
  return testDatabaseUrl() !== undefined;
}

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const adminUrl = testDatabaseUrl();
  const migrated = options.migrated ?? true;
  return adminUrl
    ? createPostgresDatabase(adminUrl, migrated)
    : createSqliteDatabase(options.sqlite ?? 'memory', migrated);
}

async function createSqliteDatabase(storage: 'memory' | 'file', migrated: boolean): Promise<TestDatabase> {
  const directory = storage === 'file' ? await mkdtemp(join(tmpdir(), 'provider-platform-test-')) : null;
  const databaseConfig: DatabaseConfig = {
    kind: 'sqlite',
    path: directory ? join(directory, 'test.sqlite') : ':memory:',
  };
  const orm = await openMigrated(databaseConfig, migrated, async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });
  return {
    orm,
    databaseConfig,
    engine: 'sqlite',
    async destroy() {
      await orm.close(true);
      if (directory) await rm(directory, { recursive: true, force: true });
    },
  };
}

async function createPostgresDatabase(adminUrl: string, migrated: boolean): Promise<TestDatabase> {
  // Letters and digits only, so the name is safe to quote into DDL, which takes no parameters.
  const name = `t_${Date.now().toString(36)}_${randomBytes(6).toString('hex')}`;
  await withAdminConnection(adminUrl, (admin) => admin.em.getConnection().execute(`CREATE DATABASE "${name}"`));

  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseConfig: DatabaseConfig = { kind: 'postgresql', url: url.toString() };
  const dropDatabase = () =>
    withAdminConnection(adminUrl, (admin) =>
      // FORCE ends the connections a failed test may have left open (PostgreSQL 13+).
      admin.em.getConnection().execute(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    );
  const orm = await openMigrated(databaseConfig, migrated, dropDatabase);
  return {
    orm,
    databaseConfig,
    engine: 'postgresql',
    async destroy() {
      await orm.close(true);
      await dropDatabase();
    },
  };
}

/** Opens and migrates (unless told not to); if either fails, cleans up what was created before rethrowing. */
async function openMigrated(
  databaseConfig: DatabaseConfig,
  migrated: boolean,
  cleanUp: () => Promise<unknown>,
): Promise<MikroORM> {
  let orm: MikroORM | undefined;
  try {
    orm = await openDatabase(databaseConfig);
    if (migrated) await migrate(orm);
    return orm;
  } catch (error) {
    await orm?.close(true).catch(() => undefined);
    await cleanUp().catch(() => undefined);
    throw error;
  }
}

/** A short-lived connection to the database the URL names, for CREATE and DROP DATABASE. */
async function withAdminConnection<T>(adminUrl: string, work: (admin: MikroORM) => Promise<T>): Promise<T> {
  const admin = await openDatabase({ kind: 'postgresql', url: adminUrl });
  try {
    return await work(admin);
  } finally {
    await admin.close(true);
  }
}

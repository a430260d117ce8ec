import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/core';
import {
  DatabaseSchema,
  type AbstractSqlPlatform,
  type SqlEntityManager,
  type SqlSchemaGenerator,
} from '@mikro-orm/knex';
import Libsql from 'libsql';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EducationalInstitution } from '../../graphql/collective/reference/entities.js';
import { educationalInstitutions } from '../../graphql/collective/reference/institutionData.js';
import {
  POSTGRES_MIGRATION_LOCK_KEY,
  sqliteMigrationLockPath,
  tryBeginExclusive,
} from '../../server/db/migrationLock.js';
import { migrationsList } from '../../server/db/migrations/index.js';
import { migrate, openDatabase, type DatabaseConfig } from '../../server/db/orm.js';
import { loadReferenceData } from '../../server/db/referenceData.js';
import { findProjectRoot } from '../../server/portal.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ensureServerBuilt } from '../support/serverBuild.js';
import { ServerProcess, sleep } from '../support/serverProcess.js';

/**
 * The API process and the subgraph services may start together on an empty database, each
 * migrating at start-up (server/db/migrationLock.ts): every migration is applied once, by one of
 * them, and none fails; each writes the reference data under the same lock. Run on SQLite (a
 * file) and on PostgreSQL (TEST_DATABASE_URL).
 */

const PROCESSES = 4;
const allMigrations = migrationsList.map((migration) => migration.name);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('migrations started at once', () => {
  let projectRoot = '';
  const databases: TestDatabase[] = [];
  const holders: ServerProcess[] = [];

  beforeAll(() => {
    projectRoot = findProjectRoot();
    ensureServerBuilt(projectRoot);
  });

  afterEach(async () => {
    await Promise.all(holders.splice(0).map((holder) => holder.kill()));
    await Promise.all(databases.splice(0).map((database) => database.destroy()));
  });

  async function emptyDatabase(): Promise<TestDatabase> {
    const database = await createTestDatabase({ sqlite: 'file', migrated: false });
    databases.push(database);
    return database;
  }

  function databaseEnv(databaseConfig: DatabaseConfig): Record<string, string | undefined> {
    return {
      PATH: process.env.PATH,
      LOG_LEVEL: 'silent',
      ...(databaseConfig.kind === 'sqlite'
        ? { SQLITE_PATH: databaseConfig.path }
        : { DATABASE_URL: databaseConfig.url }),
    };
  }

  /** What `npm run migrate` runs once built. */
  function migrateProcess(databaseConfig: DatabaseConfig): Promise<Run> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [join(projectRoot, 'dist', 'server', 'migrateMain.js')],
        // @remix-run/node's globals make NODE_ENV required in ProcessEnv; it is left out on purpose.
        { cwd: projectRoot, env: databaseEnv(databaseConfig) as NodeJS.ProcessEnv, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
    });
  }

  /** Each migration's rows in MikroORM's own record of what it applied. */
  async function recordedMigrations(orm: MikroORM): Promise<string[]> {
    const rows: { name: string }[] = await orm.em.getConnection().execute('select name from mikro_orm_migrations');
    return rows.map((row) => row.name).sort();
  }

  async function expectCompleteSchema(orm: MikroORM): Promise<void> {
    const platform = orm.em.getPlatform() as AbstractSqlPlatform;
    const migrated = await DatabaseSchema.create((orm.em as SqlEntityManager).getConnection(), platform, orm.config);
    const described = (orm.getSchemaGenerator() as SqlSchemaGenerator).getTargetSchema();
    const tables = migrated.getTables().map((table) => table.name);
    expect(tables).toEqual(expect.arrayContaining(described.getTables().map((table) => table.name)));
    expect(await orm.getMigrator().getPendingMigrations()).toEqual([]);
  }

  it(`applies each migration once when ${PROCESSES} processes run \`npm run migrate\` together`, async () => {
    const { orm, databaseConfig } = await emptyDatabase();

    const runs = await Promise.all(Array.from({ length: PROCESSES }, () => migrateProcess(databaseConfig)));

    for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' });
    const outputs = runs.map((run) => run.stdout).sort();
    expect(outputs).toEqual([
      allMigrations.map((name) => `Applied ${name}\n`).join(''),
      ...Array.from({ length: PROCESSES - 1 }, () => 'No migration pending.\n'),
    ]);
    expect(await recordedMigrations(orm)).toEqual([...allMigrations].sort());
    await expectCompleteSchema(orm);
  }, 120_000);

  it(`applies each migration once when ${PROCESSES} connections of one process migrate together`, async () => {
    const { orm, databaseConfig } = await emptyDatabase();
    const others = await Promise.all(Array.from({ length: PROCESSES - 1 }, () => openDatabase(databaseConfig)));
    try {
      const applied = await Promise.all([orm, ...others].map((each) => migrate(each)));

      expect(applied.map((names) => names.length).sort()).toEqual([
        ...Array.from({ length: PROCESSES - 1 }, () => 0),
        allMigrations.length,
      ]);
      expect(applied.find((names) => names.length > 0)).toEqual(allMigrations);
    } finally {
      await Promise.all(others.map((other) => other.close(true)));
    }
    expect(await recordedMigrations(orm)).toEqual([...allMigrations].sort());
    await expectCompleteSchema(orm);
  }, 120_000);

  it('writes the reference data while it holds the lock, once the migrations are applied', async () => {
    const { orm, databaseConfig } = await emptyDatabase();
    const seen: { lockedOut: boolean; pending: number }[] = [];

    const applied = await migrate(orm, {
      async loadReference(em) {
        seen.push({
          lockedOut: !(await lockIsFree(databaseConfig)),
          pending: (await orm.getMigrator().getPendingMigrations()).length,
        });
        await loadReferenceData(em);
      },
    });

    expect(applied).toEqual(allMigrations);
    expect(seen).toEqual([{ lockedOut: true, pending: 0 }]);
    const institutions = await orm.em.fork().count(EducationalInstitution);
    expect(institutions).toBe(educationalInstitutions.length);
  }, 120_000);

  it('waits while another process holds the lock, and migrates once that process dies', async () => {
    const { orm, databaseConfig } = await emptyDatabase();
    const holder = new ServerProcess(
      spawn(process.execPath, ['--input-type=module', '-e', holdLockScript(databaseConfig)], {
        cwd: projectRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    holders.push(holder);
    await holder.waitForLine((line) => line === 'locked', "the holder's 'locked' line", 30_000);

    let settled = false;
    const migrating = migrate(orm).finally(() => {
      settled = true;
    });
    await sleep(1_000);
    expect(settled).toBe(false);
    expect(await recordedMigrations(orm).catch(() => [])).toEqual([]);

    await holder.kill();

    expect(await migrating).toEqual(allMigrations);
    await expectCompleteSchema(orm);
  }, 120_000);
});

/** Whether another connection could take the migration lock now (and, if so, gives it back). */
async function lockIsFree(databaseConfig: DatabaseConfig): Promise<boolean> {
  if (databaseConfig.kind === 'postgresql') {
    const client = new pg.Client({ connectionString: databaseConfig.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS taken', [
        POSTGRES_MIGRATION_LOCK_KEY,
      ]);
      if (rows[0].taken) await client.query('SELECT pg_advisory_unlock($1::bigint)', [POSTGRES_MIGRATION_LOCK_KEY]);
      return rows[0].taken;
    } finally {
      await client.end();
    }
  }
  const lock = new Libsql(sqliteMigrationLockPath(databaseConfig.path));
  try {
    lock.exec('PRAGMA busy_timeout = 0');
    const free = tryBeginExclusive(lock);
    if (free) lock.exec('COMMIT');
    return free;
  } finally {
    lock.close();
  }
}

/** A process that takes the migration lock as the application does, says so, and keeps it until killed. */
function holdLockScript(databaseConfig: DatabaseConfig): string {
  if (databaseConfig.kind === 'postgresql') {
    return `
      import pg from 'pg';
      const client = new pg.Client({ connectionString: ${JSON.stringify(databaseConfig.url)} });
      await client.connect();
      await client.query('SELECT pg_advisory_lock($1::bigint)', [${JSON.stringify(POSTGRES_MIGRATION_LOCK_KEY)}]);
      console.log('locked');
      setInterval(() => {}, 60_000);
    `;
  }
  return `
    import Libsql from 'libsql';
    const lock = new Libsql(${JSON.stringify(sqliteMigrationLockPath(databaseConfig.path))});
    lock.exec('BEGIN EXCLUSIVE');
    console.log('locked');
    setInterval(() => {}, 60_000);
  `;
}

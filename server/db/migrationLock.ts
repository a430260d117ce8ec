import Libsql from 'libsql';
import pg from 'pg';
import type { DatabaseConfig } from './orm.js';

/**
 * The key of the PostgreSQL session advisory lock that serialises migrations: the bytes of the
 * ASCII text "migrate" read as one integer (0x6d696772617465). Any process of this application
 * that migrates takes it; nothing else in the database should use it.
 */
export const POSTGRES_MIGRATION_LOCK_KEY = BigInt('0x6d696772617465').toString();

const SQLITE_RETRY_MS = 50;

/** Where the SQLite lock lives: a small database of its own beside the application's. */
export function sqliteMigrationLockPath(databasePath: string): string {
  return `${databasePath}.migrate-lock`;
}

/**
 * Runs `work` while no other process (or other caller in this one) migrates the same database:
 * the API and the subgraph services may start together on an empty database, and two migrators
 * that both find a migration pending would both apply it. Whoever waited finds nothing left to do.
 */
export async function withMigrationLock<T>(database: DatabaseConfig, work: () => Promise<T>): Promise<T> {
  if (database.kind === 'postgresql') return withPostgresLock(database.url, work);
  // Only this connection ever sees an in-memory database.
  if (database.path === ':memory:') return work();
  return withSqliteLock(sqliteMigrationLockPath(database.path), work);
}

/**
 * A session lock on a connection of its own, not one of the ORM's pool (the migrator would take
 * any of them): it is held until unlocked or until the session ends, so a process that dies while
 * migrating releases it with its connection.
 */
async function withPostgresLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  // A connection lost while waiting is an error of its next query, not an unhandled event that ends the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [POSTGRES_MIGRATION_LOCK_KEY]);
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [POSTGRES_MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

/**
 * An exclusive transaction on a SQLite file beside the database. SQLite takes it with the
 * operating system's file locks, which end with the process that held them: a process killed
 * while migrating leaves no lock behind, so there is no stale-lock rule to get wrong (a lock file
 * made with O_EXCL would need one, and a pid or an age can both mislead). It is not taken on the
 * database itself because the migrator's own transaction needs that one. The lock file stays,
 * empty, between runs.
 *
 * The driver's calls are synchronous: waiting in SQLite (busy_timeout) would block this process's
 * event loop, and with it another caller in the same process that holds the lock; so the wait is
 * a retry with a timer instead.
 */
async function withSqliteLock<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  const lock = new Libsql(lockPath);
  try {
    lock.exec('PRAGMA busy_timeout = 0');
    while (!tryBeginExclusive(lock)) await new Promise((resolve) => setTimeout(resolve, SQLITE_RETRY_MS));
    try {
      return await work();
    } finally {
      lock.exec('COMMIT');
    }
  } finally {
    lock.close();
  }
}

/** Takes the SQLite lock if no one holds it: false when another connection does, at once. */
export function tryBeginExclusive(lock: Libsql.Database): boolean {
  try {
    lock.exec('BEGIN EXCLUSIVE');
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw error;
  }
}

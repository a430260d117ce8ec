import { copyFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Libsql from 'libsql';
import {
  BackupError,
  MIGRATIONS_TABLE,
  requireBackupKind,
  requireKnownMigrations,
  requireWritableTarget,
  writeAtomically,
} from './backupFile.js';

/**
 * How long the backup waits for a write transaction of the running server to end before its own
 * read begins, as the server's connections wait for each other (server/db/orm.ts).
 */
const BUSY_WAIT_MS = 5_000;

export interface SqliteBackupResult {
  bytes: number;
  migrations: number;
}

/**
 * `VACUUM INTO`: SQLite copies the database into a new file inside one read transaction, so the
 * copy is a consistent snapshot however the running server writes meanwhile (a write commits
 * before the copy starts or after it ends). The libsql driver's backup() is not implemented
 * (decision 024). The copy is then checked and its migrations read before it takes its name.
 */
export async function backupSqlite(databasePath: string, to: string, force: boolean): Promise<SqliteBackupResult> {
  if (databasePath === ':memory:') throw new BackupError('SQLITE_PATH is :memory:, which no other process can read');
  if (!existsSync(databasePath)) throw new BackupError(`The database ${databasePath} does not exist`);
  requireWritableTarget(to, force);
  let migrations = 0;
  await writeAtomically(to, async (temporaryPath) => {
    const source = openSqlite(databasePath);
    try {
      // An existing empty file is accepted by VACUUM INTO: it keeps the owner-only mode it was made with.
      source.prepare('VACUUM INTO ?').run(temporaryPath);
    } finally {
      source.close();
    }
    migrations = checkSqliteBackup(temporaryPath).length;
  });
  return { bytes: statSync(to).size, migrations };
}

export interface SqliteRestoreResult {
  migrations: number;
  /** Where the database that was replaced went (with --force), or null when there was none. */
  previousMovedTo: string | null;
}

/**
 * Copies a backup into place as the database SQLITE_PATH names. The processes on it must be stopped
 * first: a process that kept the old file open would go on writing into it, unseen. A database
 * with data is replaced only with --force, and then kept beside, renamed, never deleted.
 */
export async function restoreSqlite(from: string, databasePath: string, force: boolean): Promise<SqliteRestoreResult> {
  if (databasePath === ':memory:') throw new BackupError('SQLITE_PATH is :memory:: name the file to restore into');
  requireBackupKind(from, 'sqlite');
  const migrations = checkSqliteBackup(from).length;
  for (const suffix of ['-journal', '-wal']) {
    if (existsSync(databasePath + suffix))
      throw new BackupError(
        `${databasePath}${suffix} exists: a process is writing the database, or stopped in the middle of a write. ` +
          'Stop every process; if the file stays, start and stop one process once, then restore',
      );
  }
  const hasData = existsSync(databasePath) && statSync(databasePath).size > 0;
  if (hasData && !force)
    throw new BackupError(
      `${databasePath} holds a database: stop every process on it and add --force to replace it (it is kept, renamed)`,
    );
  if (hasData) requireNoWriter(databasePath);
  mkdirSync(dirname(databasePath), { recursive: true });
  let previousMovedTo: string | null = null;
  await writeAtomically(databasePath, async (temporaryPath) => {
    copyFileSync(from, temporaryPath);
    checkSqliteBackup(temporaryPath);
    if (hasData) {
      previousMovedTo = `${databasePath}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(databasePath, previousMovedTo);
    }
  });
  return { migrations, previousMovedTo };
}

function openSqlite(path: string): Libsql.Database {
  const database = new Libsql(path);
  database.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
  return database;
}

/** A SQLite file that passes SQLite's own check and holds our migrations table: returns the migrations. */
function checkSqliteBackup(path: string): string[] {
  const database = openSqlite(path);
  try {
    const check = database.prepare('PRAGMA quick_check').pluck().all() as string[];
    if (check.join() !== 'ok') throw new BackupError(`${path} fails SQLite's check: ${check.slice(0, 3).join('; ')}`);
    const table = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(MIGRATIONS_TABLE);
    if (!table)
      throw new BackupError(`${path} is a SQLite database, but not one of this platform (no ${MIGRATIONS_TABLE})`);
    const applied = database.prepare(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY id`).pluck().all() as string[];
    requireKnownMigrations(path, applied);
    return applied;
  } finally {
    database.close();
  }
}

/**
 * An exclusive lock, taken and let go at once: it fails while a process is in the middle of a
 * write. It cannot see a process that has the file open and is idle: the docs say to stop them all.
 */
function requireNoWriter(path: string): void {
  const database = new Libsql(path);
  try {
    database.exec('PRAGMA busy_timeout = 0');
    database.exec('BEGIN EXCLUSIVE');
    database.exec('COMMIT');
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY')
      throw new BackupError(`${path} is being written by a process: stop every process on it, then restore`);
    throw error;
  } finally {
    database.close();
  }
}

import { closeSync, existsSync, fsyncSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { migrationsList } from '../db/migrations/index.js';

/** A refusal or a failure the operator can act on: printed as one line, exit code 1. */
export class BackupError extends Error {}

/** The table in which MikroORM records the migrations applied: every database of ours has it. */
export const MIGRATIONS_TABLE = 'mikro_orm_migrations';

/** A backup's engine, told by the first bytes of the file (SQLite's header, pg_dump's custom archive). */
export type BackupKind = 'sqlite' | 'postgresql';

const SQLITE_HEADER = 'SQLite format 3\0';
const PG_DUMP_HEADER = 'PGDMP';

export function backupKind(path: string): BackupKind | null {
  if (!existsSync(path)) throw new BackupError(`${path} does not exist`);
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const file = openSync(path, 'r');
  try {
    readSync(file, header, 0, header.length, 0);
  } finally {
    closeSync(file);
  }
  const text = header.toString('latin1');
  if (text === SQLITE_HEADER) return 'sqlite';
  if (text.startsWith(PG_DUMP_HEADER)) return 'postgresql';
  return null;
}

/** Refuses a backup of the other engine, or a file that is no backup at all, in words that say what to do. */
export function requireBackupKind(path: string, expected: BackupKind): void {
  const kind = backupKind(path);
  if (kind === expected) return;
  if (kind === 'sqlite')
    throw new BackupError(
      `${path} is a SQLite backup: restore it with DATABASE_URL unset (SQLITE_PATH names the file)`,
    );
  if (kind === 'postgresql')
    throw new BackupError(`${path} is a PostgreSQL backup (pg_dump): restore it with DATABASE_URL set`);
  throw new BackupError(`${path} is neither a SQLite database nor a pg_dump archive (custom format)`);
}

/**
 * The migrations a backup has applied must all be known to this version: a backup made by a newer
 * version would start with a schema this code does not know. An older backup is fine: the server
 * applies the missing migrations when it starts.
 */
export function requireKnownMigrations(path: string, applied: string[]): void {
  if (applied.length === 0) throw new BackupError(`${path} holds no migration: it is not a database of this platform`);
  const known = new Set(migrationsList.map((migration) => migration.name));
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new BackupError(
      `${path} was made by a newer version (its migration ${unknown[0]} is unknown here): restore it with that version`,
    );
}

/**
 * Writes `path` by way of a temporary file beside it, renamed over it once complete and on disk:
 * a reader never sees half a file, and a failure leaves nothing behind. The temporary file is
 * created empty and readable by its owner only, before `write` fills it: a backup holds secrets.
 */
export async function writeAtomically(path: string, write: (temporaryPath: string) => Promise<void>): Promise<void> {
  const temporaryPath = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  closeSync(openSync(temporaryPath, 'wx', 0o600));
  try {
    await write(temporaryPath);
    syncFile(temporaryPath);
    renameSync(temporaryPath, path);
  } catch (error) {
    rmSync(temporaryPath, { force: true });
    throw error;
  }
  syncFile(dirname(path));
}

/** Flushes a file (or a folder's entries, after a rename) to the disk. */
function syncFile(path: string): void {
  const file = openSync(path, 'r');
  try {
    fsyncSync(file);
  } finally {
    closeSync(file);
  }
}

/** Where an output goes: its folder must exist, and an existing file is replaced only when told. */
export function requireWritableTarget(path: string, force: boolean): void {
  if (!existsSync(dirname(path))) throw new BackupError(`The folder ${dirname(path)} does not exist`);
  if (existsSync(path) && !force)
    throw new BackupError(`${path} exists: name another file, or add --force to replace it`);
}

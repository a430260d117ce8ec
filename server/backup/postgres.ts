import { statSync } from 'node:fs';
import {
  BackupError,
  MIGRATIONS_TABLE,
  requireBackupKind,
  requireKnownMigrations,
  requireWritableTarget,
  writeAtomically,
} from './backupFile.js';
import { type LocatedTool, locateTool, pgConnection, run, serverMajorVersion, withClient } from './pgTools.js';

export interface PostgresBackupResult {
  bytes: number;
  migrations: number;
  pgDump: LocatedTool;
}

/**
 * pg_dump's custom format: one consistent snapshot (pg_dump reads in one repeatable-read
 * transaction, so the running server's writes go on unhindered), compressed, and restored by
 * pg_restore into an empty database of any owner (decision 024).
 */
export async function backupPostgres(url: string, to: string, force: boolean): Promise<PostgresBackupResult> {
  requireWritableTarget(to, force);
  const serverMajor = await serverMajorVersion(url);
  const pgDump = await locateTool('pg_dump', serverMajor);
  const pgRestore = await locateTool('pg_restore', pgDump.major);
  const connection = pgConnection(url);
  let migrations = 0;
  await writeAtomically(to, async (temporaryPath) => {
    await run(
      pgDump.path,
      ['--format=custom', `--file=${temporaryPath}`, `--dbname=${connection.dbname}`],
      connection.env,
    );
    migrations = (await readArchive(pgRestore, temporaryPath)).migrations.length;
  });
  return { bytes: statSync(to).size, migrations, pgDump };
}

export interface PostgresRestoreResult {
  migrations: number;
  /** Said when the backup comes from a newer PostgreSQL than the one restored into. */
  warning: string | null;
}

/**
 * Restores into the database DATABASE_URL names, which must be empty: a restore never mixes a
 * backup's rows with rows already there. All or nothing (one transaction): a failure leaves the
 * database as empty as it was. Objects belong to the user of DATABASE_URL, whoever owned them before.
 */
export async function restorePostgres(from: string, url: string): Promise<PostgresRestoreResult> {
  requireBackupKind(from, 'postgresql');
  const serverMajor = await serverMajorVersion(url);
  const pgRestore = await locateTool('pg_restore', serverMajor);
  const archive = await readArchive(pgRestore, from);
  const tables = await tablesIn(url);
  if (tables > 0) {
    throw new BackupError(
      `The database DATABASE_URL names holds ${tables} table(s): restore into an empty database ` +
        '(createdb a new one and point DATABASE_URL at it, or drop and create this one once every process is stopped)',
    );
  }
  const connection = pgConnection(url);
  await run(
    pgRestore.path,
    ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${connection.dbname}`, from],
    connection.env,
  );
  const warning =
    archive.dumpedFromMajor !== null && archive.dumpedFromMajor > serverMajor
      ? `The backup comes from PostgreSQL ${archive.dumpedFromMajor} and was restored into PostgreSQL ${serverMajor}: check the platform starts on it`
      : null;
  return { migrations: archive.migrations.length, warning };
}

interface Archive {
  migrations: string[];
  dumpedFromMajor: number | null;
}

/** Reads an archive's table of contents and its migrations table: it must be one of this platform's. */
async function readArchive(pgRestore: LocatedTool, path: string): Promise<Archive> {
  const list = await run(pgRestore.path, ['--list', path]).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const newer = /unsupported version/.test(message) ? ' (made by a newer pg_dump: install its client version)' : '';
    throw new BackupError(`${message}${newer}`);
  });
  if (!new RegExp(`^\\d+; \\d+ \\d+ TABLE \\S+ ${MIGRATIONS_TABLE} `, 'm').test(list.stdout))
    throw new BackupError(`${path} is a pg_dump archive, but not of this platform's database (no ${MIGRATIONS_TABLE})`);
  const data = await run(pgRestore.path, ['--data-only', `--table=${MIGRATIONS_TABLE}`, '--file=-', path]);
  const migrations = copiedRows(data.stdout).map((row) => row.name);
  requireKnownMigrations(path, migrations);
  const dumpedFrom = /Dumped from database version: (\d+)/.exec(list.stdout);
  return { migrations, dumpedFromMajor: dumpedFrom ? Number(dumpedFrom[1]) : null };
}

/** The rows of the one COPY block in pg_restore's SQL output, by column name. */
function copiedRows(sql: string): Record<string, string>[] {
  const copy = /^COPY \S+ \(([^)]*)\) FROM stdin;\n([\s\S]*?)^\\\.$/m.exec(sql);
  if (!copy) return [];
  const columns = copy[1].split(',').map((column) => column.trim().replace(/^"|"$/g, ''));
  return copy[2]
    .split('\n')
    .filter(Boolean)
    .map((line) => Object.fromEntries(line.split('\t').map((value, index) => [columns[index], value])));
}

/** Tables, views and sequences outside PostgreSQL's own schemas. */
function tablesIn(url: string): Promise<number> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ count: string }>(
      `SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
         AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'`,
    );
    return Number(rows[0].count);
  });
}

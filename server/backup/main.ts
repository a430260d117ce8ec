import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { BackupError } from './backupFile.js';
import { backupPostgres, restorePostgres } from './postgres.js';
import { backupSqlite, restoreSqlite } from './sqlite.js';

/**
 * `npm run backup -- --to FILE` and `npm run restore -- --from FILE`, on the database the
 * configuration names (DATABASE_URL, else SQLITE_PATH). A backup is safe while the server runs;
 * a restore wants the processes stopped and, on PostgreSQL, an empty database.
 * See docs/pages/self-hosting/backups.md.
 */
const USAGE = [
  'Usage: npm run backup -- --to FILE [--force]',
  '       npm run restore -- --from FILE [--force]',
  '  --force: backup replaces an existing FILE; restore replaces a SQLite database that holds data (kept, renamed)',
].join('\n');

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { to: { type: 'string' }, from: { type: 'string' }, force: { type: 'boolean', default: false } },
    strict: true,
  });
  const { database } = loadConfig();
  const force = values.force ?? false;
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  if (command === 'backup' && values.to && !values.from) {
    let result: { bytes: number; migrations: number };
    let tool = '';
    if (database.kind === 'sqlite') result = await backupSqlite(database.path, values.to, force);
    else {
      const dumped = await backupPostgres(database.url, values.to, force);
      result = dumped;
      tool = `, pg_dump ${dumped.pgDump.major}`;
    }
    console.log(
      `Backed up the ${database.kind} database to ${values.to}: ${result.bytes} bytes, ${result.migrations} migrations, in ${seconds()} s${tool}`,
    );
  } else if (command === 'restore' && values.from && !values.to) {
    if (database.kind === 'sqlite') {
      const result = await restoreSqlite(values.from, database.path, force);
      if (result.previousMovedTo) console.log(`The database that was there is now ${result.previousMovedTo}`);
      console.log(`Restored ${values.from} into ${database.path}: ${result.migrations} migrations, in ${seconds()} s`);
    } else {
      if (force) throw new UsageError('--force does not apply to PostgreSQL: a restore needs an empty database');
      const result = await restorePostgres(values.from, database.url);
      if (result.warning) console.error(`Warning: ${result.warning}`);
      console.log(
        `Restored ${values.from} into the PostgreSQL database: ${result.migrations} migrations, in ${seconds()} s`,
      );
    }
  } else {
    throw new UsageError(USAGE);
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    const badArguments = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError || badArguments) console.error(badArguments ? `${message}\n${USAGE}` : message);
    else if (error instanceof BackupError || error instanceof ConfigError) console.error(message);
    else console.error(`Failed: ${message.split('\n')[0]}`);
    process.exit(error instanceof UsageError || badArguments ? 2 : 1);
  },
);

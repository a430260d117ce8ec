import 'reflect-metadata';
import { ConfigError, loadConfig } from './config.js';
import { migrate, openDatabase } from './db/orm.js';

/**
 * `npm run migrate`: applies the pending migrations and exits, for deployments that migrate in a
 * step of their own before starting the processes (which would otherwise each migrate at
 * start-up, one at a time). Prints one line per migration applied.
 */
async function main(): Promise<void> {
  const orm = await openDatabase(loadConfig().database);
  try {
    const applied = await migrate(orm);
    if (applied.length === 0) console.log('No migration pending.');
    for (const name of applied) console.log(`Applied ${name}`);
  } finally {
    await orm.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error(error instanceof ConfigError ? message : `Failed: ${message.split('\n')[0]}`);
    process.exit(1);
  },
);

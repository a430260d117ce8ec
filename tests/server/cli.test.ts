import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { findProjectRoot } from '../../server/portal.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ensureServerBuilt } from '../support/serverBuild.js';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The operators' command line as `npm run cli` runs it (`node dist/server/cli/main.js`), on a
 * database of its own: a refusal is one line on stderr and exit code 1, never a stack trace.
 */
describe('the command line (node dist/server/cli/main.js)', () => {
  let database: TestDatabase;
  let cliEntry = '';
  let projectRoot = '';

  beforeAll(async () => {
    projectRoot = findProjectRoot();
    cliEntry = join(projectRoot, 'dist', 'server', 'cli', 'main.js');
    ensureServerBuilt(projectRoot);
    database = await createTestDatabase({ sqlite: 'file' });
  }, 120_000);
  afterAll(() => database?.destroy());

  function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
    const { databaseConfig } = database;
    const childEnv: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      LOG_LEVEL: 'silent',
      ...(databaseConfig.kind === 'sqlite'
        ? { SQLITE_PATH: databaseConfig.path }
        : { DATABASE_URL: databaseConfig.url }),
      ...env,
    };
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [cliEntry, ...args],
        // @remix-run/node's globals make NODE_ENV required in ProcessEnv; it is left out on purpose.
        { cwd: projectRoot, env: childEnv as NodeJS.ProcessEnv, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
    });
  }

  function expectOneLineRefusal(run: CliRun, line: string | RegExp): void {
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.endsWith('\n')).toBe(true);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    if (typeof line === 'string') expect(run.stderr.trimEnd()).toBe(line);
    else expect(run.stderr.trimEnd()).toMatch(line);
  }

  it('refuses an offerer whose SIREN exists in one line, exit code 1, and writes nothing', async () => {
    const created = await cli(['create-offerer', '--name', 'Théâtre du Rond', '--siren', '123456782', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const { offererId } = JSON.parse(created.stdout) as { offererId: number };

    const again = await cli(['create-offerer', '--name', 'Another', '--siren', '123456782']);

    expectOneLineRefusal(again, `Refused: Offerer ${offererId} already has the SIREN 123456782`);
    expect(await database.orm.em.fork().count(Offerer, {})).toBe(1);
  }, 120_000);

  it('refuses a venue whose SIRET exists, and a key for a provider that does not exist, the same way', async () => {
    const provider = await cli(['create-provider', '--name', 'Billetterie', '--json']);
    const { providerId } = JSON.parse(provider.stdout) as { providerId: number };
    const offerer = await cli(['create-offerer', '--name', 'Librairie', '--siren', '552100554', '--json']);
    const { offererId } = JSON.parse(offerer.stdout) as { offererId: number };
    const venue = [
      'create-venue',
      ...['--offerer', String(offererId), '--provider', String(providerId), '--name', 'Grande salle'],
      ...['--siret', '55210055400013', '--street', '12 Rue de Rivoli', '--city', 'Paris', '--postal-code', '75004'],
      ...['--latitude', '48.8555', '--longitude', '2.3591'],
    ];
    const first = await cli(venue);
    expect(first.code, first.stderr).toBe(0);
    const [stored] = await database.orm.em.fork().find(Venue, { siret: '55210055400013' });

    expectOneLineRefusal(await cli(venue), `Refused: Venue ${stored.id} already has the SIRET 55210055400013`);
    expectOneLineRefusal(await cli(['create-key', '--provider', '999999']), 'Refused: No provider 999999');
  }, 120_000);

  it('says in one line when the database cannot be reached, exit code 1', async () => {
    const run = await cli(['list-keys'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expectOneLineRefusal(run, /^Failed: .+/);
  }, 120_000);

  it('answers a usage error with the usage and exit code 2', async () => {
    const run = await cli(['create-offerer', '--name', 'No SIREN']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--siren');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});

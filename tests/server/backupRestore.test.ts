import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE_MAX } from '../../graphql/shared/pagination.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { systemClock } from '../../platform/time/clock.js';
import type { DatabaseConfig } from '../../server/db/orm.js';
import { aBookableDate } from '../support/builders.js';
import { testDatabaseUrl } from '../support/database.js';
import { withClient } from '../support/pgClient.js';
import { serverEntryPath } from '../support/serverBuild.js';
import { type ServerProcess, serverEnv, startServerProcess } from '../support/serverProcess.js';
import { useServerRuns } from './serverRuns.js';

/**
 * `npm run backup` while the real server runs and writes, `npm run restore` into an empty
 * database, and a second server started on it that answers as the first did. On SQLite, or on
 * PostgreSQL with TEST_DATABASE_URL (the restore then goes into a database this file creates).
 */

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const BOOK = `mutation Book($input: SandboxBookingInput!) { sandboxBook(input: $input) { id } }`;

/** Polls until the condition holds (the test's timeout bounds the wait). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('a backup taken while the server writes, restored into an empty database', () => {
  const runs = useServerRuns('backup-restore-');
  let directory = '';
  let source: ServerProcess;
  let restored: ServerProcess | undefined;
  let key = '';
  let venueId = 0;
  let restoredDatabase: DatabaseConfig;
  let dropRestoredDatabase: () => Promise<void> = async () => undefined;

  /** The command as `npm run backup` / `npm run restore` runs it, on the database given. */
  function backupCommand(args: string[], database: DatabaseConfig): Promise<Run> {
    const env = {
      PATH: process.env.PATH,
      LOG_LEVEL: 'silent',
      ...(database.kind === 'sqlite' ? { SQLITE_PATH: database.path } : { DATABASE_URL: database.url }),
    };
    const entry = join(runs.projectRoot, 'dist', 'server', 'backup', 'main.js');
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [entry, ...args],
        // @remix-run/node's globals make NODE_ENV required in ProcessEnv; it is left out on purpose.
        { cwd: runs.projectRoot, env: env as unknown as NodeJS.ProcessEnv, timeout: 120_000 },
        (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
    });
  }

  const call = (server: ServerProcess, path: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers },
    });
  const answer = async (server: ServerProcess, path: string) => {
    const response = await call(server, path);
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await call(source, path, { method: 'POST', body: JSON.stringify(body) });
    const json = (await response.json()) as T;
    expect(response.status, JSON.stringify(json)).toBe(200);
    return json;
  };

  /** Every date of an event, page after page, in id order. */
  async function allDates(server: ServerProcess, eventId: number): Promise<{ id: number }[]> {
    const dates: { id: number }[] = [];
    for (;;) {
      const firstIndex = dates.length === 0 ? 1 : dates[dates.length - 1].id + 1;
      const { status, body } = await answer(
        server,
        `/public/offers/v1/events/${eventId}/dates?firstIndex=${firstIndex}`,
      );
      expect(status).toBe(200);
      const page = (body as { dates: { id: number }[] }).dates;
      dates.push(...page);
      if (page.length < PAGE_SIZE_MAX) return dates;
    }
  }

  const anEventBody = (name: string) => ({
    name,
    accessibility: {
      audioDisabilityCompliant: true,
      mentalDisabilityCompliant: false,
      motorDisabilityCompliant: true,
      visualDisabilityCompliant: false,
    },
    categoryRelatedFields: { category: 'CONCERT', musicType: 'ROCK', performer: 'The Backups' },
    location: { type: 'physical', venueId },
    hasTicket: false,
  });

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'backup-restore-files-'));
    source = await runs.start();
    key = /Demo API key: (\S+)/.exec(source.lines.find((line) => line.startsWith('Demo API key: '))!)![1];
    venueId = await runs.readDatabase(async (em) => {
      const [offerer] = await em.find(Offerer, {}, { orderBy: { id: 'asc' } });
      const [venue] = await em.find(Venue, { offerer, isVirtual: false }, { orderBy: { id: 'asc' } });
      return venue.id;
    });
    const adminUrl = testDatabaseUrl();
    if (adminUrl) {
      // Letters and digits only: safe to quote into DDL, which takes no parameters.
      const name = `test_restore_${randomBytes(6).toString('hex')}`;
      await withClient(adminUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
      dropRestoredDatabase = () =>
        withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
          () => undefined,
        );
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      restoredDatabase = { kind: 'postgresql', url: url.toString() };
    } else {
      restoredDatabase = { kind: 'sqlite', path: join(directory, 'restored', 'db.sqlite') };
    }
  }, 180_000);

  afterAll(async () => {
    await restored?.kill();
    await dropRestoredDatabase();
    if (directory) await rm(directory, { recursive: true, force: true });
  }, 60_000);

  it('reads back the same answers from a server started on the restored database', async () => {
    // What the backup must hold, written through the API: an event, its price category, a booking.
    const event = await post<{ id: number }>('/public/offers/v1/events', anEventBody('Backed-up night'));
    await until(async () => {
      const { body } = await answer(source, `/public/offers/v1/events/${event.id}`);
      return (body as { status: string }).status !== 'PENDING';
    });
    const {
      priceCategories: [category],
    } = await post<{ priceCategories: { id: number }[] }>(`/public/offers/v1/events/${event.id}/price_categories`, {
      priceCategories: [{ label: 'Stalls', price: 1250, idAtProvider: 'stalls' }],
    });
    const providerId = ((await answer(source, '/public/providers/v1/provider')).body as { id: number }).id;
    const bookable = await runs.readDatabase((em) => aBookableDate(em, systemClock, { providerId, venueId }));
    const booked = await call(source, '/graphql', {
      method: 'POST',
      body: JSON.stringify({ query: BOOK, variables: { input: { stockId: bookable.stock.id, quantity: 1 } } }),
    });
    expect(((await booked.json()) as { errors?: unknown }).errors).toBeUndefined();
    const reads = [
      '/public/providers/v1/provider',
      '/public/offers/v1/offerer_venues',
      `/public/offers/v1/events/${event.id}`,
      `/public/offers/v1/events/${event.id}/price_categories`,
      `/public/bookings/v1/bookings?offerId=${bookable.offerId}`,
    ];

    // Dates of the event go on being added, one a request, before, during and after the backup.
    const year = new Date().getUTCFullYear() + 1;
    const written: { id: number; sent: number; answered: number }[] = [];
    let writing = true;
    const writes = { failure: null as Error | null };
    const writer = (async () => {
      while (writing && writes.failure === null) {
        const sent = performance.now();
        const evening = (hour: number) => new Date(Date.UTC(year, 0, 1 + written.length, hour)).toISOString();
        const { dates } = await post<{ dates: { id: number }[] }>(`/public/offers/v1/events/${event.id}/dates`, {
          dates: [
            {
              beginningDatetime: evening(20),
              bookingLimitDatetime: evening(18),
              priceCategoryId: category.id,
              quantity: 40,
            },
          ],
        });
        written.push({ id: dates[0].id, sent, answered: performance.now() });
      }
    })().catch((error: unknown) => {
      writes.failure = error instanceof Error ? error : new Error(String(error));
    });
    await until(() => written.length >= 3 || writes.failure !== null);
    const backupFile = join(directory, 'backup');
    const backupStarted = performance.now();
    const backup = await backupCommand(['backup', '--to', backupFile], runs.databaseConfig);
    const backupEnded = performance.now();
    const writtenByThen = written.length;
    await until(() => written.length >= writtenByThen + 3 || writes.failure !== null);
    writing = false;
    await writer;
    if (writes.failure) throw writes.failure;

    expect(backup.code, backup.stderr).toBe(0);
    // The server was writing while the backup ran.
    expect(written.some((write) => write.sent < backupEnded && write.answered > backupStarted)).toBe(true);
    expect(backup.stdout).toMatch(new RegExp(`^Backed up the ${runs.databaseConfig.kind} database to ${backupFile}: `));
    // Secrets inside: readable by its owner only.
    expect((await stat(backupFile)).mode & 0o777).toBe(0o600);
    const expected = await Promise.all(reads.map((path) => answer(source, path)));
    const sourceDates = await allDates(source, event.id);

    const restore = await backupCommand(['restore', '--from', backupFile], restoredDatabase);
    expect(restore.code, restore.stderr).toBe(0);
    restored = await startServerProcess({
      serverEntry: serverEntryPath(runs.projectRoot),
      cwd: runs.projectRoot,
      env: serverEnv(restoredDatabase, join(directory, 'restored')),
    });
    // Not a fresh database: no new demo sandbox, and the first server's key works.
    expect(restored.lines).toContain(
      'Demo sandbox already set up; its API key is shown only once, when it is created.',
    );

    const actual = await Promise.all(reads.map((path) => answer(restored!, path)));
    expect(actual).toEqual(expected);
    expect(actual.map((read) => read.status)).toEqual(reads.map(() => 200));

    // A consistent snapshot: the dates restored are the first ones written, as the first server
    // answers them: every one answered before the backup began, none sent after it ended.
    const restoredDates = await allDates(restored, event.id);
    expect(restoredDates).toEqual(sourceDates.slice(0, restoredDates.length));
    const restoredIds = new Set(restoredDates.map((date) => date.id));
    for (const write of written) {
      if (write.answered < backupStarted)
        expect(restoredIds.has(write.id), `date ${write.id}, written before`).toBe(true);
      if (write.sent > backupEnded) expect(restoredIds.has(write.id), `date ${write.id}, sent after`).toBe(false);
    }
  }, 240_000);

  it('refuses to restore over the database the running server uses, in one line, and leaves it as it was', async () => {
    const backupFile = join(directory, 'backup-for-refusal');
    const backup = await backupCommand(['backup', '--to', backupFile], runs.databaseConfig);
    expect(backup.code, backup.stderr).toBe(0);
    const before = await answer(source, '/public/offers/v1/offerer_venues');

    const refused = await backupCommand(['restore', '--from', backupFile], runs.databaseConfig);

    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(
      // SQLite: the running server keeps its write-ahead log open beside the file (decision 028).
      runs.databaseConfig.kind === 'sqlite'
        ? /-wal exists: a process has the database open/
        : /restore into an empty database/,
    );
    expect(await answer(source, '/public/offers/v1/offerer_venues')).toEqual(before);
  }, 60_000);

  it('refuses a file that is no backup of this platform, and an existing output file', async () => {
    const notABackup = join(directory, 'backup-restore-notes.txt');
    await writeFile(notABackup, 'not a database');
    const refused = await backupCommand(['restore', '--from', notABackup], restoredDatabase);
    expect([refused.code, refused.stderr.trim()]).toEqual([
      1,
      `${notABackup} is neither a SQLite database nor a pg_dump archive (custom format)`,
    ]);

    const again = await backupCommand(['backup', '--to', notABackup], runs.databaseConfig);
    expect([again.code, again.stderr.trim()]).toEqual([
      1,
      `${notABackup} exists: name another file, or add --force to replace it`,
    ]);
  }, 60_000);
});

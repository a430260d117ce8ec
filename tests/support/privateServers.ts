/**
 * A PostgreSQL and a Redis of a test's own, to stop and start again: the machine's servers are
 * shared by every test running, and must never be stopped. Debian's binaries, on free ports of
 * 127.0.0.1, with their data in a temporary directory removed afterwards.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sleep } from './serverProcess.js';

const run = promisify(execFile);

const POSTGRES_ROOT = '/usr/lib/postgresql';
const REDIS_SERVER = '/usr/bin/redis-server';

/** The newest PostgreSQL of Debian's packages (`/usr/lib/postgresql/<major>/bin`), if any. */
export async function postgresBinaries(): Promise<string | undefined> {
  if (!existsSync(POSTGRES_ROOT)) return undefined;
  const majors = (await readdir(POSTGRES_ROOT)).filter((name) => /^\d+$/.test(name)).sort((a, b) => +b - +a);
  const found = majors.map((major) => join(POSTGRES_ROOT, major, 'bin')).find((bin) => existsSync(join(bin, 'initdb')));
  return found;
}

export function hasRedisServer(): boolean {
  return existsSync(REDIS_SERVER);
}

/**
 * Whether a fault test runs: skipped with a visible reason where the binaries are missing, but on
 * CI a missing binary is a broken machine, not a reason to skip (the test runs and fails).
 */
export function faultTestSkipReason(missing: string | undefined, needs: string | undefined): string | undefined {
  if (needs) return needs;
  if (missing && process.env.CI !== 'true') return missing;
  return undefined;
}

/** A port nobody listens on now (the kernel's choice), for a server that takes its port as an argument. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The user PostgreSQL runs as: initdb refuses root. */
const asPostgresUser = (command: string, args: string[]) =>
  process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, on 127.0.0.1 only). */
  url: string;
  /** `pg_ctl stop -m fast`: every session is ended (57P01), new connections are refused. */
  stop(): Promise<void>;
  /** `pg_ctl start -w`: resolves once the server accepts connections. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** initdb into a temporary directory, then start on a free port. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await postgresBinaries();
  if (!bin) throw new Error(`No PostgreSQL under ${POSTGRES_ROOT} (apt-get install -y postgresql)`);
  const directory = await mkdtemp(join(tmpdir(), 'private-postgres-'));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(directory, Number(stdout.trim()), Number(group.trim()));
  }
  const data = join(directory, 'data');
  const port = await freePort();
  await asPostgresUser(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const pgCtl = (...args: string[]) => asPostgresUser(join(bin, 'pg_ctl'), ['-D', data, ...args]);
  // fsync off: a test's data need not survive a power cut, and the shared machine's disk is slow.
  const options = `-k ${directory} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => void (await pgCtl('-l', join(directory, 'log'), '-w', '-t', '60', '-o', options, 'start'));
  const stop = async () => void (await pgCtl('-m', 'fast', '-w', '-t', '60', 'stop'));
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async destroy() {
      await pgCtl('-m', 'immediate', '-w', 'stop').catch(() => undefined);
      await rm(directory, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  url: string;
  /** SIGKILL: no answer, connections cut, the counters gone (nothing is saved). */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves once it answers PING. */
  start(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing answers, as a hung server or a lost network. */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
  destroy(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const start = async () => {
    child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const current = child;
    exited = new Promise((resolve) => current.once('exit', () => resolve()));
    for (let waited = 0; ; waited += 50) {
      const answered = await run('redis-cli', ['-p', String(port), 'ping']).then(
        ({ stdout }) => stdout.trim() === 'PONG',
        () => false,
      );
      if (answered) return;
      if (waited > 20_000) throw new Error(`redis-server did not answer on port ${port}`);
      await sleep(50);
    }
  };
  const stop = async () => {
    child?.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    async destroy() {
      child?.kill('SIGCONT');
      await stop();
    },
  };
}

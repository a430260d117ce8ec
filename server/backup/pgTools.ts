import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { BackupError } from './backupFile.js';

/** Where Debian installs each major version's client programs, beside the pg_wrapper on PATH. */
const DEBIAN_CLIENT_ROOT = '/usr/lib/postgresql';

export type PgTool = 'pg_dump' | 'pg_restore';

export interface LocatedTool {
  path: string;
  major: number;
}

/** How a pg tool reaches the database: the URL without its password, which goes in the environment. */
export interface PgConnection {
  /** For `--dbname`: the URL as configured, minus the password (seen by anyone who lists processes). */
  dbname: string;
  env: NodeJS.ProcessEnv;
}

export function pgConnection(url: string): PgConnection {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  // The environment is passed through whole (PATH, the PG* settings an operator may rely on), plus the password.
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** The server's major version (15 for 15.20), on a connection of its own. */
export async function serverMajorVersion(url: string): Promise<number> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
    return Math.floor(Number(rows[0].server_version_num) / 10_000);
  });
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Cannot connect to the database: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The tool of a major version at least `minimumMajor`: pg_dump reads only servers of its own major
 * version or older, and pg_restore only archives of its own version or older. PATH first (Debian's
 * pg_wrapper there runs the newest client installed), then each version under /usr/lib/postgresql.
 */
export async function locateTool(tool: PgTool, minimumMajor: number): Promise<LocatedTool> {
  const candidates = [tool, ...debianClientPaths(tool)];
  const found: LocatedTool[] = [];
  for (const path of candidates) {
    const major = await toolMajorVersion(path);
    if (major === null) continue;
    if (major >= minimumMajor) return { path, major };
    found.push({ path, major });
  }
  if (found.length === 0)
    throw new BackupError(
      `${tool} was not found (on PATH or under ${DEBIAN_CLIENT_ROOT}/<version>/bin): install PostgreSQL's client, on Debian: apt-get install postgresql-client-${minimumMajor}`,
    );
  const versions = found.map((tool) => `${tool.major} at ${tool.path}`).join(', ');
  throw new BackupError(
    `${tool} ${minimumMajor} or newer is needed, found ${versions}: on Debian, apt-get install postgresql-client-${minimumMajor}`,
  );
}

function debianClientPaths(tool: PgTool): string[] {
  if (!existsSync(DEBIAN_CLIENT_ROOT)) return [];
  return readdirSync(DEBIAN_CLIENT_ROOT)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(DEBIAN_CLIENT_ROOT, version, 'bin', tool))
    .filter((path) => existsSync(path));
}

/** `pg_dump (PostgreSQL) 15.20 (Debian ...)` -> 15; null when the program does not run. */
async function toolMajorVersion(path: string): Promise<number | null> {
  try {
    const { stdout } = await run(path, ['--version']);
    const match = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs a program to its end; a failure carries its last lines of stderr, which name what went wrong. */
export function run(path: string, args: string[], env?: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(path, args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve({ stdout, stderr });
      const said = stderr.trim().split('\n').slice(-3).join(' / ');
      reject(new BackupError(`${path} failed: ${said || error.message}`));
    });
  });
}

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withAdmin } from './target.js';

/** The soak's processes: `node dist/server/main.js` as production runs it, several on one database and Redis. */

export interface ServerChild {
  label: string;
  baseUrl: string;
  child: ChildProcess;
  /** The end of what it wrote on stderr, to say why it died. */
  stderrTail(): string;
  /** Resident memory in MB, from /proc. */
  rssMb(): number;
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 90_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitHealthy(baseUrl: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited at start-up:\n${stderr()}`);
    const healthy = await fetch(`${baseUrl}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer /healthz within ${STARTUP_TIMEOUT_MS / 1000} s:\n${stderr()}`);
}

/** Starts one process with the environment given, and resolves once it answers /healthz. */
export async function startServer(
  label: string,
  projectRoot: string,
  env: Record<string, string>,
): Promise<ServerChild> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(projectRoot, 'dist', 'server', 'main.js')], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), ...env },
    // Its log lines are read by no one here: the kernel drops them, the process still writes them.
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitHealthy(baseUrl, child, () => stderr);
  return {
    label,
    baseUrl,
    child,
    stderrTail: () => stderr,
    rssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A throw-away PostgreSQL database next to the one `adminUrl` names, and a folder for images. */
export async function freshDatabase(
  adminUrl: string,
): Promise<{ url: string; directory: string; drop(): Promise<void> }> {
  const name = `soak_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const directory = mkdtempSync(join(tmpdir(), 'provider-platform-soak-'));
  return {
    url: url.toString(),
    directory,
    async drop() {
      await withAdmin(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import type { DatabaseConfig } from '../../server/db/orm.js';

/** A child process of the server (`node dist/server/main.js`), read line by line. */

export const STARTUP_TIMEOUT_MS = 60_000;
export const STOP_TIMEOUT_MS = 8_000;

export function parseJsonLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

export async function withTimeout<T>(promise: Promise<T>, milliseconds: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${milliseconds} ms: ${what()}`)), milliseconds);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One child process and everything it wrote, line by line. */
export class ServerProcess {
  readonly lines: string[] = [];
  stderr = '';
  port = 0;
  exit: Exit | null = null;
  readonly exited: Promise<Exit>;
  private readonly listeners = new Set<() => void>();

  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.lines.push(line);
      this.notify();
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      // 'close' rather than 'exit': it comes once the output is read too, so the last line is in `lines`.
      child.on('close', (code, signal) => {
        this.exit = { code, signal };
        this.notify();
        resolve(this.exit);
      });
    });
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get jsonLines(): Record<string, unknown>[] {
    return this.lines.map(parseJsonLine).filter((line) => line !== undefined);
  }

  output(): string {
    return `stdout:\n${this.lines.join('\n')}\nstderr:\n${this.stderr}`;
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** The first line (already written or to come) that matches; fails on timeout or when the process exits first. */
  waitForLine(predicate: (line: string) => boolean, what: string, timeoutMs: number): Promise<string> {
    let listener: (() => void) | undefined;
    const found = new Promise<string>((resolve, reject) => {
      listener = () => {
        const line = this.lines.find(predicate);
        if (line !== undefined) resolve(line);
        else if (this.exit)
          reject(new Error(`The process exited (${JSON.stringify(this.exit)}) before ${what}\n${this.output()}`));
      };
      this.listeners.add(listener);
      listener();
    });
    return withTimeout(found, timeoutMs, () => `waiting for ${what}\n${this.output()}`).finally(() => {
      this.listeners.delete(listener!);
    });
  }

  logged(message: string, timeoutMs: number): Promise<string> {
    return this.waitForLine((line) => parseJsonLine(line)?.msg === message, `the log line '${message}'`, timeoutMs);
  }

  /** Sends the signal and waits for the exit; past the timeout, kills the process and fails. */
  async stop(signal: NodeJS.Signals, timeoutMs: number = STOP_TIMEOUT_MS): Promise<Exit> {
    if (!this.exit) this.child.kill(signal);
    return this.waitForExit(timeoutMs, `after ${signal}`);
  }

  /** Waits for an exit already under way; past the timeout, kills the process and fails. */
  async waitForExit(timeoutMs: number = STOP_TIMEOUT_MS, context = ''): Promise<Exit> {
    try {
      return await withTimeout(this.exited, timeoutMs, () => `the process to exit ${context}\n${this.output()}`);
    } catch (error) {
      await this.kill();
      throw error;
    }
  }

  async kill(): Promise<void> {
    if (this.exit) return;
    this.child.kill('SIGKILL');
    await withTimeout(this.exited, 10_000, () => 'the process to exit after SIGKILL').catch(() => undefined);
  }
}

/**
 * Starts `node <serverEntry>` with exactly `env` (no NODE_ENV: vitest's 'test' changes how Apollo
 * Server behaves), waits for its 'listening' log line (PORT=0: the port is read from it) and for
 * the last start-up line ('Portal: ...').
 */
export async function startServerProcess(options: {
  serverEntry: string;
  /** Arguments after the entry (a subgraph service's name). */
  args?: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** A subgraph service prints no start-up lines: its 'listening' is the end of its start. */
  startUpLines?: boolean;
}): Promise<ServerProcess> {
  const server = new ServerProcess(
    spawn(process.execPath, [options.serverEntry, ...(options.args ?? [])], {
      cwd: options.cwd,
      // @remix-run/node's globals make NODE_ENV required in ProcessEnv; it is left out on purpose.
      env: options.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  try {
    const listening = parseJsonLine(await server.logged('listening', STARTUP_TIMEOUT_MS))!;
    expect(listening.port).toEqual(expect.any(Number));
    server.port = listening.port as number;
    if (options.startUpLines !== false)
      await server.waitForLine((line) => line.startsWith('Portal: '), "the 'Portal:' line", 10_000);
  } catch (error) {
    await server.kill();
    throw error;
  }
  return server;
}

/**
 * The environment of a server process as `npm start` would see it, and only that: a free port
 * (PORT=0), the worker on, the database given (a SQLite file in `directory`, or PostgreSQL).
 */
export function serverEnv(
  database: DatabaseConfig,
  directory: string,
  extra: Record<string, string> = {},
): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    WORKER_ENABLED: 'true',
    SQLITE_PATH: database.kind === 'sqlite' ? database.path : `${directory}/db.sqlite`,
    IMAGE_DIRECTORY: `${directory}/images`,
    ...(database.kind === 'postgresql' ? { DATABASE_URL: database.url } : {}),
    ...extra,
  };
}

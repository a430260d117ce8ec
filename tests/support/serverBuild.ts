import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findProjectRoot } from '../../server/portal.js';

const LOCK_STALE_AFTER_MS = 180_000;
/** What dist/server/main.js is compiled from (tsconfig.build.json), as far as the process is concerned. */
const SOURCE_DIRECTORIES = ['server', 'graphql', 'rest-facade'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs'];

function newestModificationTime(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    const time = entry.isDirectory() ? newestModificationTime(path) : statSync(path).mtimeMs;
    newest = Math.max(newest, time);
  }
  return newest;
}

export function serverEntryPath(projectRoot: string): string {
  return join(projectRoot, 'dist', 'server', 'main.js');
}

function stampPath(projectRoot: string): string {
  return join(projectRoot, '.cache', 'server-build.stamp');
}

/**
 * tsc is incremental: it rewrites only the outputs whose source changed, so main.js may stay
 * older than a changed file elsewhere. The stamp, written after each successful build, records
 * that dist/ reflects every source older than it.
 */
function buildIsFresh(projectRoot: string): boolean {
  const entry = serverEntryPath(projectRoot);
  if (!existsSync(entry)) return false;
  const builtAt = Math.max(
    statSync(entry).mtimeMs,
    statSync(stampPath(projectRoot), { throwIfNoEntry: false })?.mtimeMs ?? 0,
  );
  const sourcesChangedAt = Math.max(
    ...SOURCE_DIRECTORIES.map((directory) => newestModificationTime(join(projectRoot, directory))),
    ...SOURCE_FILES.map((file) => statSync(join(projectRoot, file), { throwIfNoEntry: false })?.mtimeMs ?? 0),
  );
  return builtAt >= sourcesChangedAt;
}

function sleep(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

/**
 * Compiles the server (`node scripts/build.mjs --server-only`) when dist/server/main.js is missing
 * or older than a source file, and returns the path of the entry point. Test files run in
 * parallel workers, so a lock directory under .cache/ keeps two builds from writing dist/ at
 * once; a waiter re-checks freshness once the lock is released.
 */
export function ensureServerBuilt(projectRoot: string = findProjectRoot()): string {
  const lock = join(projectRoot, '.cache', 'server-build.lock');
  mkdirSync(join(projectRoot, '.cache'), { recursive: true });
  let builtHere = false;
  // Once this call has built, it stops: a source dated in the future must not loop forever.
  while (!builtHere && !buildIsFresh(projectRoot)) {
    try {
      mkdirSync(lock);
    } catch {
      const lockInfo = statSync(lock, { throwIfNoEntry: false });
      if (lockInfo && Date.now() - lockInfo.mtimeMs > LOCK_STALE_AFTER_MS) {
        rmSync(lock, { recursive: true, force: true });
      }
      sleep(200);
      continue;
    }
    try {
      if (!buildIsFresh(projectRoot)) {
        const startedAt = Date.now();
        try {
          execFileSync(process.execPath, [join(projectRoot, 'scripts', 'build.mjs'), '--server-only'], {
            cwd: projectRoot,
            stdio: 'pipe',
          });
        } catch (error) {
          const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
          throw new Error(`Server build failed:\n${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`);
        }
        // Dated from the start of the build: a source saved during the build makes the next check rebuild.
        writeFileSync(stampPath(projectRoot), `${new Date(startedAt).toISOString()}\n`);
        utimesSync(stampPath(projectRoot), startedAt / 1000, startedAt / 1000);
        builtHere = true;
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return serverEntryPath(projectRoot);
}

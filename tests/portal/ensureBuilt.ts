import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findProjectRoot, portalBuildPath } from '../../server/portal.js';

const LOCK_STALE_AFTER_MS = 120_000;

function newestModificationTime(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    const time = entry.isDirectory() ? newestModificationTime(path) : statSync(path).mtimeMs;
    newest = Math.max(newest, time);
  }
  return newest;
}

function buildIsFresh(projectRoot: string): boolean {
  const buildFile = portalBuildPath(projectRoot);
  if (!existsSync(buildFile)) return false;
  const sourcesChangedAt = Math.max(
    newestModificationTime(join(projectRoot, 'app')),
    statSync(join(projectRoot, 'remix.config.js')).mtimeMs,
  );
  return statSync(buildFile).mtimeMs >= sourcesChangedAt;
}

function sleep(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

/**
 * Builds the portal when build/index.js is missing or older than a file in app/ (or the Remix
 * config). Test files run in parallel workers, so a lock directory keeps two builds from writing
 * the same output at once; a waiter re-checks freshness once the lock is released.
 */
export function ensurePortalBuilt(projectRoot: string = findProjectRoot()): string {
  const lock = join(projectRoot, '.cache', 'portal-build.lock');
  mkdirSync(join(projectRoot, '.cache'), { recursive: true });
  while (!buildIsFresh(projectRoot)) {
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
        execFileSync(join(projectRoot, 'node_modules', '.bin', 'remix'), ['build'], {
          cwd: projectRoot,
          stdio: 'pipe',
          env: { ...process.env, NODE_ENV: 'production', VITE_CJS_IGNORE_WARNING: 'true' },
        });
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return projectRoot;
}

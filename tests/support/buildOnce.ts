import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_STALE_AFTER_MS = 180_000;

/** The newest modification time of any file below a folder. */
export function newestModificationTime(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    const time = entry.isDirectory() ? newestModificationTime(path) : statSync(path).mtimeMs;
    newest = Math.max(newest, time);
  }
  return newest;
}

function sleep(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

/**
 * Runs `build` until `isFresh` holds, one builder at a time: test files run in parallel
 * workers, so a lock directory under .cache/ keeps two builds from writing the same output,
 * and a waiter re-checks freshness once the lock is released. A build runs at most once per
 * call, so a source dated in the future cannot make it loop.
 */
export function buildOnce(projectRoot: string, name: string, isFresh: () => boolean, build: () => void): void {
  const lock = join(projectRoot, '.cache', `${name}.lock`);
  mkdirSync(join(projectRoot, '.cache'), { recursive: true });
  let builtHere = false;
  while (!builtHere && !isFresh()) {
    try {
      mkdirSync(lock);
    } catch {
      const lockInfo = statSync(lock, { throwIfNoEntry: false });
      if (lockInfo && Date.now() - lockInfo.mtimeMs > LOCK_STALE_AFTER_MS)
        rmSync(lock, { recursive: true, force: true });
      sleep(200);
      continue;
    }
    try {
      if (!isFresh()) {
        build();
        builtHere = true;
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

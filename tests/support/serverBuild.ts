import { execFileSync } from 'node:child_process';
import { existsSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findProjectRoot } from '../../server/portal.js';
import { buildOnce, newestModificationTime } from './buildOnce.js';

/** What dist/server/main.js is compiled from (tsconfig.build.json), as far as the process is concerned. */
const SOURCE_DIRECTORIES = ['server', 'graphql', 'rest-facade'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs'];

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

/**
 * Compiles the server (`node scripts/build.mjs --server-only`) when dist/server/main.js is missing
 * or older than a source file, and returns the path of the entry point.
 */
export function ensureServerBuilt(projectRoot: string = findProjectRoot()): string {
  buildOnce(
    projectRoot,
    'server-build',
    () => buildIsFresh(projectRoot),
    () => {
      const startedAt = Date.now();
      try {
        execFileSync(process.execPath, [join(projectRoot, 'scripts', 'build.mjs'), '--server-only'], {
          cwd: projectRoot,
          stdio: 'pipe',
        });
      } catch (error) {
        const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
        throw new Error(`Server build failed:\n${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`, {
          cause: error,
        });
      }
      // Dated from the start of the build: a source saved during the build makes the next check rebuild.
      writeFileSync(stampPath(projectRoot), `${new Date(startedAt).toISOString()}\n`);
      utimesSync(stampPath(projectRoot), startedAt / 1000, startedAt / 1000);
    },
  );
  return serverEntryPath(projectRoot);
}

import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findProjectRoot, portalBuildPath } from '../../server/portal.js';
import { buildOnce, newestModificationTime } from '../support/buildOnce.js';

function buildIsFresh(projectRoot: string): boolean {
  const buildFile = portalBuildPath(projectRoot);
  if (!existsSync(buildFile)) return false;
  const sourcesChangedAt = Math.max(
    newestModificationTime(join(projectRoot, 'app')),
    statSync(join(projectRoot, 'remix.config.js')).mtimeMs,
  );
  return statSync(buildFile).mtimeMs >= sourcesChangedAt;
}

/** Builds the portal when build/index.js is missing or older than a file in app/ (or the Remix config). */
export function ensurePortalBuilt(projectRoot: string = findProjectRoot()): string {
  buildOnce(projectRoot, 'portal-build', () => buildIsFresh(projectRoot), () => {
    execFileSync(join(projectRoot, 'node_modules', '.bin', 'remix'), ['build'], {
      cwd: projectRoot,
      stdio: 'pipe',
      env: { ...process.env, NODE_ENV: 'production', VITE_CJS_IGNORE_WARNING: 'true' },
    });
  });
  return projectRoot;
}

import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findProjectRoot, portalAssetsPath, portalBuildPath } from '../../server/portal.js';
import { buildOnce, newestModificationTime } from '../support/buildOnce.js';

function buildIsFresh(projectRoot: string): boolean {
  const outputs = [portalBuildPath(projectRoot), portalAssetsPath(projectRoot)];
  if (!outputs.every((file) => existsSync(file))) return false;
  const sourcesChangedAt = Math.max(
    newestModificationTime(join(projectRoot, 'app')),
    newestModificationTime(join(projectRoot, 'docs', 'pages')),
    statSync(join(projectRoot, 'remix.config.js')).mtimeMs,
    statSync(join(projectRoot, 'scripts', 'build-portal.mjs')).mtimeMs,
  );
  return Math.min(...outputs.map((file) => statSync(file).mtimeMs)) >= sourcesChangedAt;
}

/** Builds the portal (scripts/build-portal.mjs) when its output is missing or older than a source. */
export function ensurePortalBuilt(projectRoot: string = findProjectRoot()): string {
  buildOnce(
    projectRoot,
    'portal-build',
    () => buildIsFresh(projectRoot),
    () => {
      execFileSync(process.execPath, [join(projectRoot, 'scripts', 'build-portal.mjs')], {
        cwd: projectRoot,
        stdio: 'pipe',
        env: { ...process.env, NODE_ENV: 'production', VITE_CJS_IGNORE_WARNING: 'true' },
      });
    },
  );
  return projectRoot;
}

import { join } from 'node:path';
import { serverBuild } from '../../scripts/builds.mjs';
import { findProjectRoot } from '../../server/portal.js';
import { requireBuilt } from './builds.js';

export function serverEntryPath(projectRoot: string): string {
  return join(projectRoot, 'dist', 'server', 'main.js');
}

/** The compiled entry of a subgraph service (`npm run subgraph -- <name>`), built with the server. */
export function subgraphEntryPath(projectRoot: string): string {
  return join(projectRoot, 'dist', 'server', 'subgraphMain.js');
}

/**
 * The compiled server's entry point (dist/server/main.js), which vitest's global setup built
 * (scripts/transpile-server.mjs) before the run for the test files that call this.
 */
export function ensureServerBuilt(projectRoot: string = findProjectRoot()): string {
  requireBuilt(projectRoot, serverBuild, 'ensureServerBuilt');
  return serverEntryPath(projectRoot);
}

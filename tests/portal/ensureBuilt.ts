import 'reflect-metadata';
import { portalBuild } from '../../scripts/builds.mjs';
import { findProjectRoot } from '../../server/portal.js';
import { requireBuilt } from '../support/builds.js';

/**
 * The project's root, where the portal is built (scripts/build-portal.mjs): vitest's global
 * setup built it before the run for the test files that call this or createTestPortal.
 */
export function ensurePortalBuilt(projectRoot: string = findProjectRoot()): string {
  requireBuilt(projectRoot, portalBuild, 'ensurePortalBuilt');
  return projectRoot;
}

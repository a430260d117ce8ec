import { pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import { describe, expect, it } from 'vitest';
import { portalBuildPath } from '../../server/portal.js';
import { ensurePortalBuilt } from './ensureBuilt.js';

/** A route module without a default export renders a blank page: the build's routes are checked instead. */
describe('portal route modules', () => {
  it('every route of the built portal exports a component by default', async () => {
    const build = (await import(pathToFileURL(portalBuildPath(ensurePortalBuilt())).href)) as ServerBuild;
    const routes = Object.entries(build.routes);
    expect(routes.length).toBeGreaterThanOrEqual(7);
    for (const [id, route] of routes) {
      // A resource route declares itself; any other route without a component is a mistake.
      if ((route.module.handle as { resource?: boolean } | undefined)?.resource === true) continue;
      expect(typeof route.module.default, id).toBe('function');
    }
  }, 120_000);
});

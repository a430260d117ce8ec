// Builds what `npm start` runs: the server (tsc), the portal (Remix, its client script and search
// index); then checks every link of the built portal, and fails the build with the list of broken
// ones. A part whose sources have not changed since it was last
// built is not built again (scripts/builds.mjs); --force builds everything.
// --server-only: the server alone (the CLI and the tests' server processes need nothing else).
// --tools: the server and, apart from it in dist-tools/, the benchmarks and the fuzzer.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt, fullBuild, portalBuild, serverBuild, toolsBuild } from './builds.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tools = process.argv.includes('--tools');
const serverOnly = tools || process.argv.includes('--server-only');
if (process.argv.includes('--force')) {
  for (const build of [serverBuild, toolsBuild, portalBuild, fullBuild])
    rmSync(join(root, '.cache', `${build.name}.stamp`), { force: true });
}

try {
  await ensureBuilt(root, serverBuild);
  if (tools) await ensureBuilt(root, toolsBuild);
  if (!serverOnly) {
    await ensureBuilt(root, portalBuild);
    const built = await ensureBuilt(root, fullBuild, checkLinks);
    if (!built)
      console.log('build: up to date (dist/, build/, public/build/); `node scripts/build.mjs --force` rebuilds');
  }
} catch (caught) {
  // Thrown rather than exited from inside a build, so that its lock is released.
  console.error(`build failed: ${caught instanceof Error ? caught.message : String(caught)}`);
  process.exit(1);
}

/**
 * Every link of the built portal. The OpenAPI document is not written here: the process that
 * serves it generates it at start-up, with the servers its own configuration gives.
 */
async function checkLinks() {
  await import('reflect-metadata');
  // The compiled server, typed as its sources.
  const { routes } = /** @type {typeof import('../rest-facade/index.js')} */ (
    await import(join(root, 'dist/rest-facade/index.js'))
  );
  const { generateOpenApiDocument } = /** @type {typeof import('../rest-facade/openapi.js')} */ (
    await import(join(root, 'dist/rest-facade/openapi.js'))
  );
  const { loadConfig } = /** @type {typeof import('../server/config.js')} */ (
    await import(join(root, 'dist/server/config.js'))
  );
  const { checkBuiltPortalLinks } = /** @type {typeof import('../server/portalLinks.js')} */ (
    await import(join(root, 'dist/server/portalLinks.js'))
  );
  const links = await checkBuiltPortalLinks({
    projectRoot: root,
    openApiDocument: generateOpenApiDocument(routes, loadConfig({ APP_ENV: 'integration' })),
    startPaths: ['/', '/docs', '/rest-api', '/change-logs'],
  });
  if (links.broken.length > 0) {
    throw new Error(`${links.broken.length} broken link(s) in the portal:\n  ${links.broken.join('\n  ')}`);
  }
  console.log(`build: server (dist/), portal (build/, public/build/); ${links.pages.length} pages, no broken link`);
}

// Builds what `npm start` runs: the server (tsc), the portal (Remix, its client script and search
// index) and the OpenAPI documents; then checks every link of the built portal, and fails the
// build with the list of broken ones. A part whose sources have not changed since it was last
// built is not built again (scripts/builds.mjs); --force builds everything.
// --server-only: the server alone (the CLI and the tests' server processes need nothing else).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt, fullBuild, portalBuild, serverBuild } from './builds.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverOnly = process.argv.includes('--server-only');
if (process.argv.includes('--force')) {
  for (const build of [serverBuild, portalBuild, fullBuild])
    rmSync(join(root, '.cache', `${build.name}.stamp`), { force: true });
}

try {
  await ensureBuilt(root, serverBuild);
  if (!serverOnly) {
    await ensureBuilt(root, portalBuild);
    const built = await ensureBuilt(root, fullBuild, writeDocumentsAndCheckLinks);
    if (!built)
      console.log('build: up to date (dist/, build/, public/build/); `node scripts/build.mjs --force` rebuilds');
  }
} catch (caught) {
  // Thrown rather than exited from inside a build, so that its lock is released.
  console.error(`build failed: ${caught instanceof Error ? caught.message : String(caught)}`);
  process.exit(1);
}

/** The OpenAPI documents, then every link of the built portal. */
async function writeDocumentsAndCheckLinks() {
  await import('reflect-metadata');
  // The compiled server, typed as its sources.
  const { routes } = /** @type {typeof import('../rest-facade/index.js')} */ (
    await import(join(root, 'dist/rest-facade/index.js'))
  );
  const { generateOpenApiDocument } = /** @type {typeof import('../rest-facade/openapi.js')} */ (
    await import(join(root, 'dist/rest-facade/openapi.js'))
  );
  mkdirSync(join(root, 'build'), { recursive: true });
  /** @type {[string, 'integration' | 'production'][]} */
  const documents = [
    ['openapi.json', 'integration'],
    ['openapi.production.json', 'production'],
  ];
  for (const [file, appEnv] of documents) {
    const document = generateOpenApiDocument(routes, appEnv);
    writeFileSync(join(root, 'build', file), `${JSON.stringify(document, null, 2)}\n`);
  }

  const { checkBuiltPortalLinks } = /** @type {typeof import('../server/portalLinks.js')} */ (
    await import(join(root, 'dist/server/portalLinks.js'))
  );
  const links = await checkBuiltPortalLinks({
    projectRoot: root,
    openApiDocument: generateOpenApiDocument(routes, 'integration'),
    startPaths: ['/', '/docs', '/rest-api', '/change-logs'],
  });
  if (links.broken.length > 0) {
    throw new Error(`${links.broken.length} broken link(s) in the portal:\n  ${links.broken.join('\n  ')}`);
  }
  console.log(
    `build: server (dist/), portal (build/, public/build/), OpenAPI documents (build/openapi*.json); ${links.pages.length} pages, no broken link`,
  );
}

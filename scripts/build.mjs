// Builds what `npm start` runs: the server (tsc), the portal (Remix, its client script and search
// index) and the OpenAPI documents; then checks every link of the built portal, and fails the
// build with the list of broken ones.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPortal } from './build-portal.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverOnly = process.argv.includes('--server-only');
/** @param {string} name */
const bin = (name) => join(root, 'node_modules', '.bin', name);
/**
 * @param {string} command
 * @param {string[]} args
 */
const run = (command, args) => {
  try {
    execFileSync(command, args, { cwd: root, stdio: 'inherit' });
  } catch {
    console.error(`build failed: ${[command.replace(`${root}/`, ''), ...args].join(' ')}`);
    process.exit(1);
  }
};

run(bin('tsc'), ['-p', 'tsconfig.build.json']);

if (!serverOnly) {
  try {
    await buildPortal(root);
  } catch (caught) {
    const error = /** @type {Error & { stderr?: Buffer }} */ (caught);
    console.error(`build failed: the portal: ${error.stderr?.toString() || error.message}`);
    process.exit(1);
  }

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
    console.error(`build failed: ${links.broken.length} broken link(s) in the portal:\n  ${links.broken.join('\n  ')}`);
    process.exit(1);
  }
  console.log(
    `build: server (dist/), portal (build/, public/build/), OpenAPI documents (build/openapi*.json); ${links.pages.length} pages, no broken link`,
  );
}

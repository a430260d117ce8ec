// Builds what `npm start` runs: the server (tsc), the portal (Remix) and the OpenAPI documents.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverOnly = process.argv.includes('--server-only');
const bin = (name) => join(root, 'node_modules', '.bin', name);
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
  if (existsSync(join(root, 'remix.config.js'))) run(bin('remix'), ['build']);

  await import('reflect-metadata');
  const { routes } = await import(join(root, 'dist/rest-facade/index.js'));
  const { generateOpenApiDocument } = await import(join(root, 'dist/rest-facade/openapi.js'));
  mkdirSync(join(root, 'build'), { recursive: true });
  for (const [file, appEnv] of [
    ['openapi.json', 'integration'],
    ['openapi.production.json', 'production'],
  ]) {
    const document = generateOpenApiDocument(routes, appEnv);
    writeFileSync(join(root, 'build', file), `${JSON.stringify(document, null, 2)}\n`);
  }
  console.log('build: server (dist/), portal (build/, public/build/) and OpenAPI documents (build/openapi*.json)');
}

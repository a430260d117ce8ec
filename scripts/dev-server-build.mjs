// The server as `npm run dev` runs it: each TypeScript file of server/, graphql/ and rest-facade/
// transpiled alone by oxc (a few hundred milliseconds for all of them, against tens of seconds for
// tsc) into .cache/dev-server/, with the decorator metadata that type-graphql and MikroORM read,
// as vitest does. Types are not checked here: `npm run typecheck` does that.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { transformSync } from 'oxc-transform';

/** What the server process imports (app/ only for types). */
export const DEV_SERVER_SOURCES = ['platform', 'server', 'graphql', 'rest-facade'];

/** @param {string} root */
export const devServerDirectory = (root) => join(root, '.cache', 'dev-server');

/**
 * tsconfig.json's emit, file by file: target ES2022, legacy decorators with their metadata, and
 * `useDefineForClassFields: false` (the pair of oxc options that means it).
 * @type {import('oxc-transform').TransformOptions}
 */
const TRANSFORM_OPTIONS = {
  lang: 'ts',
  sourceType: 'module',
  target: 'es2022',
  sourcemap: true,
  decorator: { legacy: true, emitDecoratorMetadata: true },
  typescript: { removeClassFieldsWithoutInitializer: true },
  assumptions: { setPublicClassFields: true },
};

/**
 * @typedef {object} TranspileReport
 * @property {string[]} written sources transpiled again (relative to the root)
 * @property {string[]} removed outputs whose source is gone
 * @property {string[]} errors one message per file that did not transpile
 */

/**
 * Brings .cache/dev-server/ up to date with the sources: transpiles each file newer than its
 * output, removes outputs whose source is gone.
 * @param {string} root
 * @param {string} [outDirectory]
 * @returns {TranspileReport}
 */
export function transpileServer(root, outDirectory = devServerDirectory(root)) {
  /** @type {TranspileReport} */
  const report = { written: [], removed: [], errors: [] };
  const expected = new Set();
  for (const source of DEV_SERVER_SOURCES.flatMap((folder) => typeScriptFiles(join(root, folder)))) {
    const output = join(outDirectory, relative(root, source)).replace(/\.ts$/, '.js');
    expected.add(output);
    const outputTime = statSync(output, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (outputTime >= statSync(source).mtimeMs) continue;
    const result = transformSync(source, readFileSync(source, 'utf8'), TRANSFORM_OPTIONS);
    if (result.errors.length > 0) {
      report.errors.push(`${relative(root, source)}: ${result.errors.map((error) => error.message).join('; ')}`);
      rmSync(output, { force: true });
      continue;
    }
    mkdirSync(dirname(output), { recursive: true });
    const map = { ...result.map, sources: [relative(dirname(output), source)] };
    writeFileSync(`${output}.map`, JSON.stringify(map));
    writeFileSync(output, `${result.code}\n//# sourceMappingURL=${relative(dirname(output), `${output}.map`)}\n`);
    report.written.push(relative(root, source));
  }
  for (const output of javaScriptFiles(outDirectory)) {
    if (expected.has(output)) continue;
    rmSync(output, { force: true });
    rmSync(`${output}.map`, { force: true });
    report.removed.push(relative(root, output));
  }
  return report;
}

/** @param {string} directory @returns {string[]} */
function typeScriptFiles(directory) {
  return filesBelow(directory).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
}

/** @param {string} directory @returns {string[]} */
function javaScriptFiles(directory) {
  return filesBelow(directory).filter((file) => file.endsWith('.js'));
}

/** @param {string} directory @returns {string[]} */
function filesBelow(directory) {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

// The server as `npm start`, the CLI and `npm run dev` run it: each TypeScript file of platform/,
// server/, graphql/ and rest-facade/ transpiled alone by oxc (0.2 s for all of them, against 15 s
// for `tsc --noCheck`) into dist/ (or .cache/dev-server/ for `npm run dev`), with the decorator
// metadata that type-graphql and MikroORM read, as vitest does: the suite runs on this very
// transform. Types are not checked here: `npm run typecheck` does that.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { transformSync } from 'oxc-transform';

/** What the server process imports (app/ only for types). */
export const SERVER_SOURCES = ['platform', 'server', 'graphql', 'rest-facade'];

/** `npm run dev`'s copy, apart from dist/ so that the two never race. @param {string} root */
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
 * Brings the output folder up to date with the sources: transpiles each file newer than its
 * output (every file with `everyFile`: a new oxc may transpile differently), removes outputs whose
 * source is gone.
 * @param {string} root
 * @param {string} [outDirectory]
 * @param {{ everyFile?: boolean }} [options]
 * @returns {TranspileReport}
 */
export function transpileServer(root, outDirectory = devServerDirectory(root), { everyFile = false } = {}) {
  /** @type {TranspileReport} */
  const report = { written: [], removed: [], errors: [] };
  const expected = new Set();
  for (const source of withImportedFiles(SERVER_SOURCES.flatMap((folder) => typeScriptFiles(join(root, folder))))) {
    const output = join(outDirectory, relative(root, source)).replace(/\.ts$/, '.js');
    expected.add(output);
    const outputTime = statSync(output, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (!everyFile && outputTime >= statSync(source).mtimeMs) continue;
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
  // Plain JavaScript modules (a thread's entry, which must load without a TypeScript transform) as they are.
  for (const source of SERVER_SOURCES.flatMap((folder) => filesBelow(join(root, folder))).filter(isModuleScript)) {
    const output = join(outDirectory, relative(root, source));
    expected.add(output);
    const outputTime = statSync(output, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (!everyFile && outputTime >= statSync(source).mtimeMs) continue;
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, readFileSync(source));
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

/** A value import of a relative module (`import … from './x.js'`, `export … from`); type-only ones are erased. */
const RELATIVE_VALUE_IMPORT = /^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)\.js'/gm;

/**
 * The files and every TypeScript file they import from elsewhere in the tree (the server renders
 * with a module of app/), followed to the end.
 * @param {string[]} files
 * @returns {string[]}
 */
function withImportedFiles(files) {
  const found = new Set(files);
  for (const file of found) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE_VALUE_IMPORT)) {
      const imported = join(dirname(file), `${specifier}.ts`);
      if (!found.has(imported) && existsSync(imported)) found.add(imported);
    }
  }
  return [...found];
}

/** @param {string} directory @returns {string[]} */
function typeScriptFiles(directory) {
  return filesBelow(directory).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
}

/** @param {string} file */
function isModuleScript(file) {
  return file.endsWith('.mjs');
}

/** @param {string} directory @returns {string[]} */
function javaScriptFiles(directory) {
  return filesBelow(directory).filter((file) => file.endsWith('.js') || isModuleScript(file));
}

/** @param {string} directory @returns {string[]} */
function filesBelow(directory) {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

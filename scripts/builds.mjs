// What each build is made from and whether it is current: one answer for `npm start`, the CLI,
// `npm run dev` and the tests' global setup. Plain JavaScript (JSDoc-typed, checked by tsc):
// it runs before anything is compiled.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SERVER_SOURCES, transpileServer } from './transpile-server.mjs';

/**
 * @typedef {object} Build
 * @property {string} name its stamp (`.cache/<name>.stamp`) and lock (`.cache/<name>.lock`)
 * @property {string[]} outputs files (relative to the root) that must exist
 * @property {(root: string) => string[]} sources files and folders (relative to the root) it is made from
 * @property {(root: string) => Promise<void>} [make] how it is made
 */

/** Dependencies: a changed lockfile may change any output. */
const PACKAGE_FILES = ['package.json', 'package-lock.json'];

/** `dist/`: what `node dist/server/main.js` and the CLI run. */
export const serverBuild = {
  name: 'server-build',
  outputs: ['dist/server/main.js', 'dist/server/cli/main.js'],
  sources: () => [...SERVER_SOURCES, 'scripts/transpile-server.mjs', 'tsconfig.json', ...PACKAGE_FILES],
  // Transpiled by oxc, file by file, as vitest and `npm run dev` run the same sources (0.2 s, where
  // `tsc --noCheck` took 15 s of every fresh test run): `npm run typecheck` is the gate of types,
  // and CI runs it before anything is built.
  make: async (/** @type {string} */ root) => {
    const { errors } = transpileServer(root, join(root, 'dist'), { everyFile: true });
    if (errors.length > 0) throw new Error(`The server did not transpile:\n${errors.join('\n')}`);
  },
};

/**
 * `dist-tools/` (tsconfig.tools.json): the benchmarks and the fuzzer with the server they drive,
 * compiled apart so that the production build (`dist/`) ships none of them.
 */
export const toolsBuild = {
  name: 'tools-build',
  outputs: ['dist-tools/tests/bench/main.js', 'dist-tools/tests/fuzz/main.js'],
  sources: () => [...serverBuild.sources(), 'tests/bench', 'tests/fuzz', 'tests/support', 'tsconfig.tools.json'],
  make: (/** @type {string} */ root) =>
    run(root, join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.tools.json', '--noCheck']),
};

/** `build/` and `public/build/` (scripts/build-portal.mjs): the Remix bundle, the client script, the search index. */
export const portalBuild = {
  name: 'portal-build',
  outputs: ['build/index.js', 'build/portal-assets.json'],
  sources: (/** @type {string} */ root) => [
    'app',
    'docs/pages',
    'remix.config.js',
    'scripts/build-portal.mjs',
    ...PACKAGE_FILES,
    ...bundledFilesOutside(root, 'app'),
  ],
  make: (/** @type {string} */ root) =>
    run(root, process.execPath, [join(root, 'scripts', 'build-portal.mjs')], {
      ...process.env,
      NODE_ENV: 'production',
      // Remix's compiler loads Vite's CommonJS entry, which warns on every build.
      VITE_CJS_IGNORE_WARNING: 'true',
    }),
};

/** Both, plus the check of every portal link (scripts/build.mjs). */
export const fullBuild = {
  name: 'full-build',
  outputs: [...serverBuild.outputs, ...portalBuild.outputs],
  sources: (/** @type {string} */ root) => [
    ...serverBuild.sources(),
    ...portalBuild.sources(root),
    'scripts/build.mjs',
  ],
};

/**
 * The files outside `folder` that the last Remix server bundle was made of (the docs' test data
 * comes from graphql/), read from its metafile.
 * @param {string} root
 * @param {string} folder
 */
function bundledFilesOutside(root, folder) {
  const metafile = join(root, 'build', 'metafile.server.json');
  if (!existsSync(metafile)) return [];
  const { inputs } = /** @type {{ inputs: Record<string, unknown> }} */ (JSON.parse(readFileSync(metafile, 'utf8')));
  return Object.keys(inputs).filter(
    (input) => !input.startsWith(`${folder}/`) && !input.startsWith('node_modules/') && existsSync(join(root, input)),
  );
}

/**
 * The newest modification time of a file, or of a folder and everything below it (a folder's own
 * time moves when a file in it is added, removed or renamed); 0 when it does not exist.
 * @param {string} path
 * @returns {number}
 */
export function newestModificationTime(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestModificationTime(join(path, entry)));
  return newest;
}

/** @param {string} root @param {Build} build */
function stampPath(root, build) {
  return join(root, '.cache', `${build.name}.stamp`);
}

/**
 * Current when every output exists and the stamp, written after the last successful build and
 * dated from its start, is no older than any source. tsc and Remix rewrite only what changed, so
 * the outputs' own dates say nothing; a source saved during a build makes the next check rebuild.
 * @param {string} root
 * @param {Build} build
 */
export function isFresh(root, build) {
  if (!build.outputs.every((output) => existsSync(join(root, output)))) return false;
  const builtAt = statSync(stampPath(root, build), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return build.sources(root).every((source) => newestModificationTime(join(root, source)) <= builtAt);
}

/**
 * @param {string} root
 * @param {Build} build
 * @param {number} startedAt when the build that just succeeded began (ms since the epoch)
 */
export function markBuilt(root, build, startedAt) {
  const stamp = stampPath(root, build);
  mkdirSync(join(root, '.cache'), { recursive: true });
  writeFileSync(stamp, `${new Date(startedAt).toISOString()}\n`);
  utimesSync(stamp, startedAt / 1000, startedAt / 1000);
}

const LOCK_STALE_AFTER_MS = 300_000;

/** @param {number} milliseconds */
const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * Runs `make` unless the build is current, one builder at a time: `npm run dev`, the CLI and a
 * test run may start together, and two builds must not write the same files. A lock folder under
 * .cache/ says one is under way; who waited for it checks freshness again. `make` runs at most
 * once per call, so a source dated in the future cannot make it loop.
 * @param {string} root
 * @param {Build} build
 * @param {() => unknown} [make] defaults to the build's own
 * @returns {Promise<boolean>} whether it built
 */
export async function ensureBuilt(root, build, make = () => build.make?.(root)) {
  const lock = join(root, '.cache', `${build.name}.lock`);
  mkdirSync(join(root, '.cache'), { recursive: true });
  while (!isFresh(root, build)) {
    try {
      mkdirSync(lock);
    } catch {
      const lockInfo = statSync(lock, { throwIfNoEntry: false });
      if (lockInfo && Date.now() - lockInfo.mtimeMs > LOCK_STALE_AFTER_MS)
        rmSync(lock, { recursive: true, force: true });
      await sleep(200);
      continue;
    }
    try {
      if (isFresh(root, build)) return false;
      const startedAt = Date.now();
      await make();
      markBuilt(root, build, startedAt);
      return true;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return false;
}

/**
 * @param {string} root
 * @param {string} command
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<void>} rejected with the command's output when it fails
 */
function run(root, command, args, env = process.env) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${[relative(root, command), ...args].join(' ')} failed:\n${stdout}${stderr}`));
      else resolve();
    });
  });
}

// `npm run dev`: the server from its TypeScript sources, restarted when one of them changes, and
// the portal rebuilt when its sources change (the server, started with --dev, reads the new
// build on the next request). Types are not checked here: `npm run typecheck` does that.
import { spawn } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureBuilt, newestModificationTime, portalBuild } from './builds.mjs';
import { SERVER_SOURCES, devServerDirectory, transpileServer } from './transpile-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Changes closer together than this are handled as one (an editor saving several files). */
const SETTLE_MS = 100;
/** A server that has not stopped this long after SIGTERM is killed. */
const STOP_TIMEOUT_MS = 5_000;

/** @param {string} message */
const say = (message) => console.log(`[dev] ${message}`);
/** @param {number} since */
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** @type {import('node:child_process').ChildProcess | null} */
let server = null;
/** Servers asked to stop: their exit is expected. */
const stopped = new WeakSet();
let stopping = false;

/**
 * Starts the server and resolves once it has printed its last start-up line, or has exited.
 * @param {number} since when what leads to this start happened
 * @param {string} what it was
 */
function startServer(since, what) {
  const entry = join(devServerDirectory(root), 'server', 'main.js');
  const child = spawn(process.execPath, ['--enable-source-maps', entry, '--dev'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  server = child;
  return new Promise((resolve) => {
    createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) }).on('line', (line) => {
      console.log(line);
      if (line.startsWith('Portal: ')) {
        say(`server ready ${seconds(since)} after ${what}`);
        resolve(undefined);
      }
    });
    child.on('exit', (code, signal) => {
      if (server === child) server = null;
      if (!stopped.has(child))
        say(`the server exited (${signal ?? `code ${code}`}); it starts again on the next change`);
      resolve(undefined);
    });
  });
}

/** @returns {Promise<void>} */
function stopServer() {
  const child = server;
  server = null;
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  stopped.add(child);
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** @returns {boolean} whether the server's JavaScript changed */
function transpile() {
  const startedAt = Date.now();
  const report = transpileServer(root);
  for (const error of report.errors) console.error(`[dev] ${error}`);
  const changed = report.written.length + report.removed.length;
  if (changed > 0) say(`transpiled ${report.written.length} file(s) in ${Date.now() - startedAt} ms`);
  return changed > 0 && report.errors.length === 0;
}

/** When the portal's last build failed: not tried again until one of its sources changes. */
let portalFailedAt = 0;

/** Rebuilds the portal when its sources changed since its last build (scripts/build-portal.mjs). */
async function buildPortalIfStale() {
  const newestSource = Math.max(
    ...portalBuild.sources(root).map((source) => newestModificationTime(join(root, source))),
  );
  if (newestSource <= portalFailedAt) return;
  const startedAt = Date.now();
  try {
    const built = await ensureBuilt(root, portalBuild);
    if (built) say(`portal rebuilt in ${seconds(startedAt)}`);
    portalFailedAt = 0;
  } catch (error) {
    portalFailedAt = startedAt;
    console.error(
      `[dev] the portal build failed; it is tried again on the next change to its sources\n${String(error)}`,
    );
  }
}

/** Changes are handled one batch at a time, in order. */
let work = Promise.resolve();
/** @type {Set<string>} */
const pending = new Set();
/** @type {NodeJS.Timeout | undefined} */
let settle;

/** @param {string} path relative to the root */
function changed(path) {
  pending.add(path);
  clearTimeout(settle);
  settle = setTimeout(() => {
    const batch = [...pending];
    pending.clear();
    const since = Date.now();
    work = work.then(() => handle(batch, since));
  }, SETTLE_MS);
}

/**
 * @param {string[]} paths
 * @param {number} since
 */
async function handle(paths, since) {
  if (stopping) return;
  const serverSourceChanged = paths.some((path) => SERVER_SOURCES.some((folder) => path.startsWith(`${folder}/`)));
  if (serverSourceChanged && transpile()) {
    say(`restarting the server (${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', …' : ''})`);
    await stopServer();
    if (!stopping) void startServer(since, 'the change');
  }
  await buildPortalIfStale();
}

/** The first start: the server as soon as it can, then the portal if its build is stale. */
async function start() {
  const since = Date.now();
  say('types are not checked here: `npm run typecheck` (or your editor) does that');
  transpile();
  // The server needs a portal build to start; a stale one is replaced while it runs.
  if (!existsSync(join(root, portalBuild.outputs[0]))) await buildPortalIfStale();
  await startServer(since, '`npm run dev`');
  // After the server's start rather than beside it: two cores are not many.
  await buildPortalIfStale();
  say('watching server/, graphql/, rest-facade/, app/, docs/pages/ (Ctrl-C stops)');
}

// Watching from the start: a file saved meanwhile is handled once the start is over.
work = start();
for (const folder of [...SERVER_SOURCES, 'app', 'docs/pages']) {
  watch(join(root, folder), { recursive: true }, (_event, file) => {
    if (file) changed(relative(root, join(root, folder, file.toString())));
  });
}
watch(join(root, 'remix.config.js'), () => changed('remix.config.js'));

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void stopServer().then(() => process.exit(0));
  });
}

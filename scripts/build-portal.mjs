// Builds the portal: the Remix server bundle (pages rendered on the server), the client
// enhancement script and the search index, both fingerprinted, and build/portal-assets.json
// that tells the server their URLs. Run by scripts/build.mjs and by the tests.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

/** Browsers from 2020 on (module scripts, optional chaining): nothing they support is transpiled. */
const CLIENT_TARGET = 'es2020';

/** @param {string} root the project's folder */
export async function buildPortal(root) {
  execFileSync(join(root, 'node_modules', '.bin', 'remix'), ['build'], {
    cwd: root,
    stdio: 'pipe',
    env: { ...process.env, NODE_ENV: 'production' },
  });

  // A route module without a default export would answer its loader's data instead of a page;
  // a resource route (a fragment, a file) says it is one with `handle = { resource: true }`.
  const server = /** @type {import('@remix-run/node').ServerBuild} */ (
    await import(`${pathToFileURL(join(root, 'build', 'index.js')).href}?t=${Date.now()}`)
  );
  const withoutComponent = Object.keys(server.routes).filter(
    (id) =>
      typeof server.routes[id].module.default !== 'function' &&
      /** @type {{ resource?: boolean } | undefined} */ (server.routes[id].module.handle)?.resource !== true,
  );
  if (withoutComponent.length > 0) {
    throw new Error(`route modules without a default export (a component): ${withoutComponent.join(', ')}`);
  }

  const clientDirectory = join(root, 'public', 'build', 'client');
  rmSync(clientDirectory, { recursive: true, force: true });
  const client = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { portal: 'app/client/main.ts' },
    entryNames: '[name]-[hash]',
    // The reference's code is a chunk of its own, imported only on /rest-api.
    chunkNames: 'chunk-[hash]',
    splitting: true,
    outdir: clientDirectory,
    bundle: true,
    minify: true,
    format: 'esm',
    target: CLIENT_TARGET,
    metafile: true,
    logLevel: 'error',
  });
  const [clientFile] = Object.entries(client.metafile.outputs)
    .filter(([, output]) => output.entryPoint !== undefined)
    .map(([file]) => file);

  const backOffice = await buildBackOffice(root);

  // The index is made from the same Markdown the pages render, by the portal's own TypeScript.
  const toolFile = join(root, '.cache', 'portal-build', 'searchIndex.server.mjs');
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['app/search/searchIndex.server.ts'],
    outfile: toolFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'error',
  });
  const { writeSearchIndex } = /** @type {typeof import('../app/search/searchIndex.server.js')} */ (
    await import(`${pathToFileURL(toolFile).href}?t=${Date.now()}`)
  );
  const searchDirectory = join(root, 'public', 'build', 'search');
  rmSync(searchDirectory, { recursive: true, force: true });
  const searchIndex = writeSearchIndex(join(root, 'docs', 'pages'), searchDirectory);

  const assets = {
    clientScript: publicUrl(root, join(root, clientFile)),
    searchIndex: searchIndex.url,
    backOffice,
    stylesheets: builtStylesheets(root),
  };
  mkdirSync(join(root, 'build'), { recursive: true });
  writeFileSync(join(root, 'build', 'portal-assets.json'), `${JSON.stringify(assets, null, 2)}\n`);
  return assets;
}

/**
 * The back office's scripts, a build of their own so that no chunk is shared with the portal's
 * script (a portal page loads none of it): React and Apollo Client for its screens and the
 * console's, and GraphiQL with its styles for /graphql.
 * @param {string} root
 */
async function buildBackOffice(root) {
  const directory = join(root, 'public', 'build', 'backoffice');
  rmSync(directory, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      backoffice: 'app/backoffice/client/main.tsx',
      console: 'app/console/client/main.tsx',
      graphiql: 'app/backoffice/client/graphiql.tsx',
    },
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: 'asset-[hash]',
    splitting: true,
    outdir: directory,
    bundle: true,
    minify: true,
    format: 'esm',
    target: CLIENT_TARGET,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"', 'globalThis.__DEV__': 'false' },
    loader: { '.woff': 'file', '.woff2': 'file', '.ttf': 'file', '.svg': 'file' },
    metafile: true,
    logLevel: 'error',
  });
  const outputs = Object.entries(result.metafile.outputs);
  /** @param {string} entry @param {string} extension */
  const outputOf = (entry, extension) => {
    const found = outputs.find(([file, output]) => output.entryPoint === entry && file.endsWith(extension));
    if (!found) throw new Error(`back office build: no ${extension} output for ${entry}`);
    return publicUrl(root, join(root, found[0]));
  };
  const graphiqlStyles = outputs.find(([file]) => /graphiql-[^/]*\.css$/.test(file));
  if (!graphiqlStyles) throw new Error('back office build: no GraphiQL stylesheet');
  return {
    script: outputOf('app/backoffice/client/main.tsx', '.js'),
    consoleScript: outputOf('app/console/client/main.tsx', '.js'),
    graphiqlScript: outputOf('app/backoffice/client/graphiql.tsx', '.js'),
    graphiqlStyles: publicUrl(root, join(root, graphiqlStyles[0])),
  };
}

/**
 * @param {string} root
 * @param {string} file
 */
function publicUrl(root, file) {
  return `/${relative(join(root, 'public'), file).split('\\').join('/')}`;
}

/** The CSS that `remix build` wrote, by URL: the pages carry it inline (app/components/Stylesheets.tsx). */
/** @param {string} root */
function builtStylesheets(root) {
  const directory = join(root, 'public', 'build', '_assets');
  const files = readdirSync(directory)
    .filter((name) => name.endsWith('.css'))
    .sort();
  return Object.fromEntries(
    files.map((name) => [publicUrl(root, join(directory, name)), readFileSync(join(directory, name), 'utf8')]),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildPortal(join(dirname(fileURLToPath(import.meta.url)), '..'));
}

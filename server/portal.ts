import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import compression from 'compression';
import express from 'express';
import type { Router } from 'express';
import { createRequestHandler } from '@remix-run/express';
import { type ServerBuild, createRequestHandler as createFetchHandler } from '@remix-run/node';
import type { BackOfficeSession, PageSession } from '../app/backoffice/context.js';
import type { OpenApiDocument, PortalAssets, PortalContext } from '../app/portalContext.js';
import { docsAddressesOf } from '../app/docs/addresses.server.js';
import { compressedPageRoute } from './compressedPage.js';
import { findProjectRoot } from './projectRoot.js';

export { findProjectRoot };

/** File names under /build carry a content hash, so a browser may keep them forever. */
export const HASHED_ASSET_CACHE = { maxAge: '1y', immutable: true } as const;
/** Other files in public/ keep their names across releases, so they are only cached briefly. */
export const PUBLIC_FILE_CACHE = { maxAge: '1h' } as const;

export interface PortalOptions {
  mode: 'production' | 'development';
  /** Defaults to the nearest directory above this module that holds a package.json. */
  projectRoot?: string;
  /** The document /openapi.json serves; the reference at /rest-api renders it. */
  openApiDocument: object;
  /** Serves the test-only pages under /test-fixtures (never set by `npm start`). */
  testFixtures?: boolean;
  /**
   * Renders the REST reference once before the first reader asks for it (`npm start` sets it): it
   * is a few hundred milliseconds of work that would otherwise delay that reader's first byte.
   */
  warmUp?: boolean;
}

/** The page every reader gets the same copy of, kept rendered and compressed (server/compressedPage.ts). */
export const REFERENCE_PATH = '/rest-api';

export function portalBuildPath(projectRoot: string): string {
  return join(projectRoot, 'build', 'index.js');
}

export function portalBuildExists(projectRoot: string): boolean {
  return existsSync(portalBuildPath(projectRoot));
}

/** Written by scripts/build-portal.mjs: the fingerprinted client script and search index. */
export function portalAssetsPath(projectRoot: string): string {
  return join(projectRoot, 'build', 'portal-assets.json');
}

function readPortalAssets(projectRoot: string): PortalAssets {
  return JSON.parse(readFileSync(portalAssetsPath(projectRoot), 'utf8')) as PortalAssets;
}

/** Paths that belong to the API contract: never rewritten, whatever their form. */
const CONTRACT_PREFIXES = ['/public', '/v2', '/graphql', '/openapi.json'];

/**
 * Portal pages have no trailing slash: `/docs/` answers a permanent redirect to `/docs` (query
 * kept). Leading slashes are collapsed, so `//host/` can never become a redirect to another site.
 */
export function canonicalPortalPaths(
  request: express.Request,
  response: express.Response,
  next: express.NextFunction,
): void {
  const { path } = request;
  const isPage = request.method === 'GET' || request.method === 'HEAD';
  if (
    !isPage ||
    path === '/' ||
    !path.endsWith('/') ||
    CONTRACT_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
  ) {
    next();
    return;
  }
  const canonical = `/${path.replace(/^\/+/, '').replace(/\/+$/, '')}`;
  const query = request.originalUrl.slice(
    request.originalUrl.indexOf('?') === -1 ? request.originalUrl.length : request.originalUrl.indexOf('?'),
  );
  response.redirect(301, `${canonical}${query}`);
}

async function importServerBuild(buildFile: string): Promise<ServerBuild> {
  // The query string is the file's mtime, so a rebuilt bundle is imported afresh in development.
  const version = statSync(buildFile).mtimeMs;
  return (await import(`${pathToFileURL(buildFile).href}?v=${version}`)) as ServerBuild;
}

/**
 * The developer portal as one Express router: hashed assets, other public files, then Remix for
 * every remaining request. Mount it after the API routes, since it answers any path.
 */
export async function createPortalHandler(options: PortalOptions): Promise<Router> {
  const projectRoot = resolve(options.projectRoot ?? findProjectRoot());
  const buildFile = portalBuildPath(projectRoot);
  for (const file of [buildFile, portalAssetsPath(projectRoot)]) {
    if (!existsSync(file)) throw new Error(`Portal not built: run npm run build (missing ${file})`);
  }

  const build =
    options.mode === 'development' ? () => importServerBuild(buildFile) : await importServerBuild(buildFile);
  const context = (): PortalContext => ({
    // Read per request in development, so a rebuilt client is picked up without a restart.
    assets: options.mode === 'development' ? readPortalAssets(projectRoot) : assets,
    openApiDocument: options.openApiDocument as OpenApiDocument,
    addresses,
    testFixtures: options.testFixtures === true,
  });
  const assets = readPortalAssets(projectRoot);
  const addresses = docsAddressesOf(options.openApiDocument as OpenApiDocument);

  const router = express.Router();
  router.use(canonicalPortalPaths);
  if (typeof build !== 'function') {
    // In development the build changes under the server: every request renders afresh.
    const renderPage = createFetchHandler(build, options.mode);
    const reference = compressedPageRoute(REFERENCE_PATH, () =>
      renderPage(new Request(`http://localhost${REFERENCE_PATH}`), { portal: context() }),
    );
    router.use(reference);
    // After start-up's own work: the listening socket is open by then, and a request that comes
    // first simply renders the page itself.
    if (options.warmUp) setImmediate(() => void reference.make());
  }
  // Pages, scripts, styles and the search index leave compressed (gzip or brotli, as accepted).
  router.use(compression());
  router.use('/build', express.static(join(projectRoot, 'public', 'build'), HASHED_ASSET_CACHE));
  router.use(express.static(join(projectRoot, 'public'), PUBLIC_FILE_CACHE));

  const remix = createRequestHandler({
    build,
    mode: options.mode,
    // The back office's and the console's sessions, read by server/http/keySession.ts for their pages and GraphiQL.
    getLoadContext: (_req, res) => ({
      portal: context(),
      backOffice: res.locals.backOffice as BackOfficeSession,
      console: res.locals.console as PageSession | undefined,
    }),
  });
  // Remix's handler catches its own errors and passes them to next().
  router.all('*', (req, res, next) => void remix(req, res, next));
  return router;
}

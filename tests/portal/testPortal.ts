import { collectionDownloads } from '../../server/http/collectionDownloads.js';
import express from 'express';
import type { DocsAddresses } from '../../app/docs/addresses.server.js';
import { allCategories, allDocPaths } from '../../app/docs/sidebar.js';
import { routes } from '../../rest-facade/index.js';
import { generateOpenApiDocument } from '../../rest-facade/openapi.js';
import { loadConfig } from '../../server/config.js';
import { createPortalHandler } from '../../server/portal.js';
import { ensurePortalBuilt } from './ensureBuilt.js';

/**
 * The test portal's configuration: an integration server at an address of its own (not the default
 * localhost), so that a page showing it shows what the configuration gave.
 */
const testPortalConfig = loadConfig({
  APP_ENV: 'integration',
  PUBLIC_URL: 'https://sandbox.example.net',
  PRODUCTION_URL: 'https://api.example.net',
  SUPPORT_EMAIL: 'providers@example.net',
});

/** The integration environment's document, as `npm start` gives it to the portal. */
export const testOpenApiDocument = () => generateOpenApiDocument(routes, testPortalConfig);

/** The addresses the test portal's docs show: those of its configuration. */
export const testDocsAddresses: DocsAddresses = {
  baseUrl: testPortalConfig.publicUrl,
  supportEmail: testPortalConfig.supportEmail,
};

/**
 * The built portal on an Express app, with /openapi.json beside it as the API serves it, and
 * (when asked) the test-only pages under /test-fixtures.
 */
export async function createTestPortal(
  options: { mode?: 'production' | 'development'; testFixtures?: boolean } = {},
): Promise<express.Express> {
  const projectRoot = ensurePortalBuilt();
  const openApiDocument = testOpenApiDocument();
  const app = express();
  app.get('/openapi.json', (_request, response) => {
    response.json(openApiDocument);
  });
  app.use(collectionDownloads(projectRoot, 'http://localhost', openApiDocument));
  app.use(
    await createPortalHandler({
      mode: options.mode ?? 'production',
      projectRoot,
      openApiDocument,
      testFixtures: options.testFixtures,
    }),
  );
  return app;
}

/** The pages a reader reaches by following links from the home page: the docs, every category and page, the reference, the change log. */
export function linkedPortalPaths(): string[] {
  return [
    '/',
    '/docs',
    '/rest-api',
    '/change-logs',
    ...allCategories().map((category) => `/docs/category/${category.slug}`),
    ...allDocPaths().map((path) => `/docs/${path}`),
  ];
}

/** Text as the server-rendered HTML spells it (React escapes these five characters). */
export function escapedHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#x27;');
}

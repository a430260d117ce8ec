import express from 'express';
import { routes } from '../../rest-facade/index.js';
import { generateOpenApiDocument } from '../../rest-facade/openapi.js';
import { createPortalHandler } from '../../server/portal.js';
import { ensurePortalBuilt } from './ensureBuilt.js';

/** The integration environment's document, as `npm start` gives it to the portal. */
export const testOpenApiDocument = () => generateOpenApiDocument(routes, 'integration');

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

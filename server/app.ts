import express, { type RequestHandler } from 'express';
import { createFacadeRouter } from '../rest-facade/router.js';
import { authenticate } from './http/authenticate.js';
import { apiNotFound, errorHandler } from './http/errorHandler.js';
import { JSON_BODY_LIMIT } from './http/limits.js';
import { serveImages } from './http/images.js';
import { requestId } from './http/requestId.js';
import { requestLog } from './http/requestLog.js';
import { documentGuard } from './graphqlCost/documentGuard.js';
import { servedOpenApiDocument } from './openApiDocument.js';
import type { Runtime } from './runtime.js';

export interface AppOptions {
  /** The portal's request handler; the API alone is served without it (as in API tests). */
  portal?: RequestHandler;
}

const apiPrefixes = ['/public', '/v2'];

/** The HTTP application, separate from listen(): tests drive it with supertest. */
export function createApp(runtime: Runtime, options: AppOptions = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Flat query strings: `a[b]=1` stays a plain key, never a nested object.
  app.set('query parser', 'simple');
  app.use(requestId, requestLog(runtime.logger));

  app.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('Cache-Control', 'public, max-age=300').send(servedOpenApiDocument(runtime).json);
  });
  app.use(serveImages(runtime.services.images));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  const guard = [authenticate(runtime), runtime.rateLimiter.middleware];
  app.use(apiPrefixes, express.json({ limit: JSON_BODY_LIMIT }));
  app.use(createFacadeRouter(runtime.compiledRoutes, guard));
  app.use(apiPrefixes, apiNotFound);

  // /graphql is counted 1 per request like REST, then charged its operation's cost (decision 017).
  app.use(
    '/graphql',
    express.json({ limit: JSON_BODY_LIMIT }),
    authenticate(runtime),
    runtime.rateLimiter.graphqlMiddleware,
    documentGuard,
    runtime.graphql.handler,
  );

  if (options.portal) app.use(options.portal);
  app.use(errorHandler(runtime.logger));
  return app;
}

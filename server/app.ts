import express, { type RequestHandler } from 'express';
import { createFacadeRouter } from '../rest-facade/router.js';
import { authenticate, identifyCaller, identifyCallerOfRefusal } from './http/authenticate.js';
import { collectionDownloads } from './http/collectionDownloads.js';
import { attachKeySession } from './http/keySession.js';
import { AUDIT_CSV_PATH, auditCsv } from './http/auditCsv.js';
import { attachStaffSession } from './http/staffSession.js';
import { apiNotFound, errorHandler } from './http/errorHandler.js';
import { healthRoutes } from './http/health.js';
import { idempotentWrites } from './http/idempotency.js';
import { JSON_BODY_LIMIT } from './http/limits.js';
import { serveImages } from './http/images.js';
import { requestId } from './http/requestId.js';
import { requestLog } from './http/requestLog.js';
import { keepRawBody, recordRequests } from './http/requestRecording.js';
import { documentGuard } from './graphqlCost/documentGuard.js';
import { httpMetrics } from './metrics/httpMetrics.js';
import { servedOpenApiDocument } from './openApiDocument.js';
import { findProjectRoot } from './projectRoot.js';
import type { Runtime } from './runtime.js';

export interface AppOptions {
  /** The portal's request handler; the API alone is served without it (as in API tests). */
  portal?: RequestHandler;
  /**
   * False leaves the request log out (default true): only `npm run bench` does so, to measure what
   * recording costs a read against the same app without it.
   */
  recordRequests?: boolean;
}

const apiPrefixes = ['/public', '/v2'];

/** A browser's visit (a GET preferring HTML, with no operation in the URL), not a GraphQL request. */
function wantsGraphiql(req: express.Request): boolean {
  return req.method === 'GET' && req.query.query === undefined && req.accepts(['json', 'html']) === 'html';
}

/** The HTTP application, separate from listen(): tests drive it with supertest. */
export function createApp(runtime: Runtime, options: AppOptions = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Flat query strings: `a[b]=1` stays a plain key, never a nested object.
  app.set('query parser', 'simple');
  if (runtime.config.metrics) {
    const templates = new Map(runtime.routes.map((route) => [route.operationId, route.path]));
    app.use(httpMetrics(runtime.metrics.httpRequestDuration, templates));
  }
  app.use(requestId, requestLog(runtime.logger));

  app.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('Cache-Control', 'public, max-age=300').send(servedOpenApiDocument(runtime).json);
  });
  // The Postman and Bruno collections of the document, and their sandbox environment naming this server.
  app.use(collectionDownloads(findProjectRoot(), runtime.config.publicUrl, servedOpenApiDocument(runtime).document));
  app.use(serveImages(runtime.services.images));
  const health = healthRoutes(runtime.orm, runtime.subgraphLinks, runtime.redisLink);
  // /healthz: the name load balancers were first given; /health/ready also checks what the process depends on.
  app.get(['/health', '/healthz'], health.live);
  app.get('/health/ready', health.ready);

  const guard = [authenticate(runtime), runtime.rateLimiter.middleware];
  // Before the body reader and the routes, so that it sees every answer, refusals included.
  if (options.recordRequests !== false) app.use(apiPrefixes, recordRequests(runtime.requestLog, runtime.clock));
  app.use(apiPrefixes, express.json({ limit: JSON_BODY_LIMIT, verify: keepRawBody }));
  app.use(createFacadeRouter(runtime.compiledRoutes, guard, [idempotentWrites(runtime.idempotency, runtime.logger)]));
  // An unknown path, or a body refused before any route: the 404 or the error stays, the caller is named for the request log.
  app.use(apiPrefixes, identifyCaller(runtime), apiNotFound, identifyCallerOfRefusal(runtime));

  // The back office's and the console's pages and sign-in read their session; /graphql also takes one instead of a key.
  app.use(['/backoffice', '/graphql'], attachStaffSession(runtime));
  app.use('/console', attachKeySession(runtime, 'console'));
  app.get(AUDIT_CSV_PATH, auditCsv(runtime));
  // /graphql is counted 1 per request like REST, then charged its operation's cost (decision 017).
  const graphql = express.Router();
  graphql.use(
    express.json({ limit: JSON_BODY_LIMIT }),
    authenticate(runtime, { sessions: true }),
    runtime.rateLimiter.graphqlMiddleware,
    documentGuard,
    runtime.graphql.handler,
  );
  // A browser asking for a page at /graphql gets GraphiQL, a page of the portal's app.
  app.use('/graphql', (req, res, next) => (wantsGraphiql(req) ? next() : graphql(req, res, next)));

  if (options.portal) app.use(options.portal);
  app.use(errorHandler(runtime.logger));
  return app;
}

import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express4';
import type { Server } from 'node:http';
import express, { type RequestHandler } from 'express';
import { GraphQLError, Kind, type OperationDefinitionNode, OperationTypeNode } from 'graphql';
import type { GraphContext } from '../../graphql/shared/context.js';
import { inSpan } from '../../platform/tracing.js';
import type { SubgraphName } from '../../graphql/subgraphNames.js';
import { callerFacingError } from '../graphqlEndpoint.js';
import { JSON_BODY_LIMIT } from '../http/limits.js';
import { databaseState } from '../http/health.js';
import { CompiledDocuments } from './compiledDocuments.js';
import { serviceSdlOf } from './link.js';
import { requestId } from '../http/requestId.js';
import { requestLog } from '../http/requestLog.js';
import { httpMetrics } from '../metrics/httpMetrics.js';
import type { Logger } from '../logger.js';
import { requestContext } from '../requestContext.js';
import type { Core } from '../runtime.js';
import { acceptHops, type HopListener } from './hopServer.js';
import { isObject } from './routeCalls.js';
import { routeCallHandler } from './routeService.js';
import {
  type CallRefusal,
  callerRefusal,
  digestOf,
  type HopCaller,
  type HopTarget,
  SIGNED_CALLER_HEADER,
  targetRefusal,
  verifyCaller,
} from './signedCaller.js';

/** What anyone may ask a subgraph service without a signed caller: its schema, for composition tools. */
const PUBLIC_ROOT_FIELDS = new Set(['_service', '__typename']);

/** An unsigned request carries a schema query, never a 16 MB image: its body is read up to this. */
const UNSIGNED_BODY_LIMIT = '16kb';

/** Apollo's context on a subgraph service: a signed caller's request context, or nothing to act on. */
type ServiceContext = GraphContext | { unsigned: true };

export interface SubgraphAppOptions {
  /** The process that hosts the subgraph: its database, clock, event bus and services. */
  core: Core;
  name: SubgraphName;
  secret: string;
  logger: Logger;
}

export interface SubgraphApp {
  app: express.Express;
  /** Serves the API process's route calls (a WebSocket at `/graphql`, decision 036) on the server of `app`. */
  acceptHops(server: Server): void;
  /** Closes the route calls' connections once their calls are answered (a graceful stop). */
  drainHops(): void;
  stop(): Promise<void>;
}

function isUnsigned(context: ServiceContext): context is { unsigned: true } {
  return 'unsigned' in context;
}

/** A query of public root fields only: a fragment is counted as data, which it may hold. */
function onlyPublicRootFields(operation: OperationDefinitionNode): boolean {
  if (operation.operation !== OperationTypeNode.QUERY) return false;
  return operation.selectionSet.selections.every(
    (selection) => selection.kind === Kind.FIELD && PUBLIC_ROOT_FIELDS.has(selection.name.value),
  );
}

const signedCallerOnly: ApolloServerPlugin<ServiceContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ contextValue, operation }) {
        if (isUnsigned(contextValue) && (!operation || !onlyPublicRootFields(operation))) {
          throw new GraphQLError(
            'A subgraph serves its data to a caller the platform signed, and its schema to anyone',
            {
              extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
            },
          );
        }
      },
    };
  },
};

/**
 * One subgraph over HTTP, as a federation subgraph (`_service`, `_entities`): the API process's
 * gateway and facade call it with the caller they authenticated, signed; anything unsigned,
 * expired or altered reads the schema at most.
 */
export async function createSubgraphApp(options: SubgraphAppOptions): Promise<SubgraphApp> {
  const { core, logger } = options;
  const subgraph = core.graph.subgraphs[options.name];
  const server = new ApolloServer<ServiceContext>({
    schema: subgraph.schema,
    introspection: false,
    // The API process sends whole documents; a registry of hashes is one more thing an unsigned caller could fill.
    persistedQueries: false,
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    formatError: (formatted, error) => callerFacingError(formatted, logger, error),
    // No Apollo Studio here: traces would only cost each answer their weight.
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginInlineTraceDisabled(), signedCallerOnly],
  });
  await server.start();

  /** A call refused before anything runs: logged for the operator, answered as a GraphQL error for the link. */
  const refuse = (res: express.Response, { status, code, message }: CallRefusal) => {
    logger.warn({ requestId: res.locals.requestId, status, code }, `subgraph: ${message}`);
    res.status(status).json({ errors: [{ message, extensions: { code } }] });
  };
  const checkSignature: RequestHandler = (req, res, next) => {
    const header = req.get(SIGNED_CALLER_HEADER);
    if (header === undefined) {
      next();
      return;
    }
    const check = verifyCaller(options.secret, header);
    if (!check.ok) {
      refuse(res, callerRefusal(check.reason));
      return;
    }
    res.locals.hop = check.hop;
    res.locals.target = check.target;
    next();
  };
  const ownSchema = { digest: digestOf(serviceSdlOf(subgraph.schema)), serves: 'another schema' };
  /** The signature covers this service's schema and this body: another build, or another document, is refused unrun. */
  const checkTarget: RequestHandler = (_req, res, next) => {
    const target = res.locals.target as HopTarget | undefined;
    const refusal = target && targetRefusal(target, ownSchema, res.locals.bodyDigest as string);
    if (refusal) {
      refuse(res, refusal);
      return;
    }
    next();
  };
  const documents = new CompiledDocuments(subgraph.schema);
  /** A signed caller's document that compiles runs compiled; anything else goes on to Apollo Server. */
  const runCompiled: RequestHandler = (req, res, next) => {
    const hop = res.locals.hop as HopCaller | undefined;
    const body = req.body as { query?: unknown; variables?: unknown; operationName?: unknown } | undefined;
    if (!hop || req.method !== 'POST' || !isObject(body) || typeof body.query !== 'string') {
      next();
      return;
    }
    const plan = documents.plan(body.query, typeof body.operationName === 'string' ? body.operationName : undefined);
    if (!plan) {
      next();
      return;
    }
    const operationName = plan.operationName ?? 'anonymous';
    // A document run on the subgraph: the compiled plan (graphql-jit) has no instrumentation of its own.
    inSpan(
      `graphql ${operationName}`,
      { attributes: { 'graphql.operation.name': operationName, subgraph: subgraph.name } },
      async () =>
        plan.query(
          undefined,
          requestContext(core, core.orm.em.fork(), hop),
          isObject(body.variables) ? body.variables : {},
        ),
    ).then((result) => {
      const errors = result.errors?.map((error) => callerFacingError(error.toJSON(), logger, error));
      res.json(errors ? { errors, data: result.data ?? null } : { data: result.data ?? null });
    }, next);
  };
  const signedBody = express.json({
    limit: JSON_BODY_LIMIT,
    verify: (_req, res, buffer) => {
      (res as express.Response).locals.bodyDigest = digestOf(buffer);
    },
  });
  const unsignedBody = express.json({ limit: UNSIGNED_BODY_LIMIT });

  const app = express();
  app.disable('x-powered-by');
  if (core.config.metrics) app.use(httpMetrics(core.metrics.httpRequestDuration, new Map()));
  app.use(requestId, requestLog(logger));
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok', subgraph: subgraph.name });
  });
  app.get('/health/ready', (_req, res, next) => {
    databaseState(core.orm).then((database) => {
      const ready = database === 'ok';
      res
        .status(ready ? 200 : 503)
        .json({ status: ready ? 'ready' : 'unavailable', subgraph: subgraph.name, checks: { database } });
    }, next);
  });
  app.use(
    '/graphql',
    checkSignature,
    (req, res, next) => (res.locals.hop ? signedBody : unsignedBody)(req, res, next),
    checkTarget,
    runCompiled,
    expressMiddleware(server, {
      context: async ({ res }) => {
        const hop = res.locals.hop as HopCaller | undefined;
        return hop ? requestContext(core, core.orm.em.fork(), hop) : { unsigned: true as const };
      },
    }),
  );
  app.use((error: { type?: string }, _req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (error.type === 'entity.too.large') {
      res.status(413).json({ errors: [{ message: 'The request body is too large' }] });
      return;
    }
    next(error);
  });
  const routeCalls = routeCallHandler({ core, name: options.name, secret: options.secret, logger });
  const hopServers: HopListener[] = [];
  return {
    app,
    acceptHops: (httpServer) => {
      hopServers.push(acceptHops(httpServer, '/graphql', routeCalls));
    },
    drainHops: () => {
      for (const hops of hopServers) hops.drain();
    },
    async stop() {
      for (const hops of hopServers.splice(0)) hops.close();
      await server.stop();
    },
  };
}

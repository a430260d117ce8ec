import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express4';
import type { RequestHandler } from 'express';
import type { GraphQLFormattedError } from 'graphql';
import type { Histogram } from 'prom-client';
import { type Audience, audienceOf } from '../graphql/audiences.js';
import { createGateway, type RemoteSubgraph } from '../graphql/gateway.js';
import type { Graph, SubgraphName } from '../graphql/graph.js';
import type { AppEnv } from '../platform/appEnv.js';
import type { GraphContext } from '../graphql/shared/context.js';
import { describeErrorChain } from '../platform/errors/errorChain.js';
import { isDatabaseUnavailable } from '../platform/sql/databaseUnavailable.js';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../rest-facade/httpErrors.js';
import { costPlugin, type EndpointContext } from './graphqlCost/costPlugin.js';
import { LimitCode, MAX_TOKENS } from './graphqlCost/policy.js';
import { CSRF_HEADER } from './http/keySession.js';
import { graphqlMetricsPlugin } from './metrics/graphqlMetrics.js';
import type { RateLimiter } from './rateLimit.js';
import { SERVICE_UNAVAILABLE_CODE } from './subgraphs/remoteDataSource.js';

export interface GraphqlEndpoint {
  handler: RequestHandler;
  stop(): Promise<void>;
}

/**
 * The composed graph at /graphql: Apollo Server over an in-process gateway. The request's
 * context (caller, entity manager) is made by the authentication middleware that runs first.
 */
/** Errors whose message is meant for the caller: the domain's, and GraphQL's own about the request. */
const CALLER_ERROR_CODES = new Set([
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'GONE',
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
  SERVICE_UNAVAILABLE_CODE,
  ...Object.values(LimitCode),
]);

interface ErrorLogger {
  warn?(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

/**
 * A database that does not answer is the caller's cue to retry, as a subgraph service down is
 * (`SERVICE_UNAVAILABLE`). Any other error is a bug: its message (a driver's, which may quote SQL
 * and the data in it) is logged, never answered.
 */
export function callerFacingError(
  formatted: GraphQLFormattedError,
  logger?: ErrorLogger,
  error?: unknown,
): GraphQLFormattedError {
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && CALLER_ERROR_CODES.has(code)) return formatted;
  if (isDatabaseUnavailable(error)) {
    logger?.warn?.({ err: formatted.message, path: formatted.path }, 'database unavailable: graphql error');
    return {
      message: DATABASE_UNAVAILABLE_MESSAGE,
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: { code: SERVICE_UNAVAILABLE_CODE },
    };
  }
  logger?.error(
    { err: formatted.message, path: formatted.path, ...describeErrorChain(error) },
    'graphql: unexpected error',
  );
  return {
    message: 'Internal server error',
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  };
}

export interface GraphqlEndpointOptions {
  appEnv: AppEnv;
  /** The keys' budget, which an operation is charged its cost in (decision 017). */
  limiter: Pick<RateLimiter, 'charge'>;
  logger?: ErrorLogger;
  /** Subgraphs served by processes of their own; the others run in this one. */
  remote?: Partial<Record<SubgraphName, RemoteSubgraph>>;
  /** With metrics on: each operation observed by name and outcome. */
  operationDuration?: Histogram<'operation' | 'outcome'>;
}

/**
 * One Apollo Server per audience over the same subgraphs (decision 033): a provider's key is
 * served the provider supergraph, whose API schema has no staff element, so its introspection
 * shows none and a document naming one fails validation before anything runs.
 */
export async function startGraphqlEndpoint(graph: Graph, options: GraphqlEndpointOptions): Promise<GraphqlEndpoint> {
  const servers = {
    staff: await startAudienceServer(graph, 'staff', options),
    provider: await startAudienceServer(graph, 'provider', options),
  };
  const handlers = {
    staff: audienceHandler(servers.staff),
    provider: audienceHandler(servers.provider),
  };
  return {
    handler: (req, res, next) => {
      const context = res.locals.graphContext as GraphContext;
      void handlers[audienceOf(context.caller)](req, res, next);
    },
    stop: async () => {
      await Promise.all([servers.staff.stop(), servers.provider.stop()]);
    },
  };
}

function audienceHandler(server: ApolloServer<EndpointContext>): RequestHandler {
  return expressMiddleware(server, {
    // The cost plugin sees Apollo's context, not the response: the budget the request left travels in it.
    context: async ({ res }) => ({ ...(res.locals.graphContext as GraphContext), rateLimit: res.locals.rateLimit }),
  });
}

async function startAudienceServer(
  graph: Graph,
  audience: Audience,
  options: GraphqlEndpointOptions,
): Promise<ApolloServer<EndpointContext>> {
  const { logger } = options;
  const server = new ApolloServer<EndpointContext>({
    gateway: createGateway(graph, options.remote, audience),
    // Production keeps it for internal keys: the cost plugin refuses it to provider keys.
    introspection: true,
    // The document guard counted tokens already; this covers a persisted query registered before a limit changed.
    parseOptions: { maxTokens: MAX_TOKENS },
    // The process owns shutdown (server/main.ts); a second stop() during Apollo's own never returns.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    formatError: (formatted, error) => callerFacingError(formatted, logger, error),
    // Requests a browser may send cross-site without a preflight (GET, forms) need one of these
    // headers; the back office's session also needs the first (server/http/authenticate.ts).
    csrfPrevention: { requestHeaders: [CSRF_HEADER, 'x-apollo-operation-name'] },
    // The default landing page loads a sandbox from a CDN; this API is called by tools, not browsed.
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      costPlugin({ appEnv: options.appEnv, limiter: options.limiter }),
      ...(options.operationDuration ? [graphqlMetricsPlugin(options.operationDuration)] : []),
    ],
  });
  await server.start();
  return server;
}

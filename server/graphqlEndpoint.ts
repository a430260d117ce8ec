import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express4';
import type { RequestHandler } from 'express';
import { createInProcessGateway } from '../graphql/gateway.js';
import type { Graph } from '../graphql/graph.js';
import type { GraphContext } from '../graphql/shared/context.js';

export interface GraphqlEndpoint {
  handler: RequestHandler;
  stop(): Promise<void>;
}

/**
 * The composed graph at /graphql: Apollo Server over an in-process gateway. The request's
 * context (caller, entity manager) is made by the authentication middleware that runs first.
 */
export async function startGraphqlEndpoint(graph: Graph): Promise<GraphqlEndpoint> {
  const server = new ApolloServer<GraphContext>({
    gateway: createInProcessGateway(graph),
    introspection: true,
    // The process owns shutdown (server/main.ts); a second stop() during Apollo's own never returns.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    // The default landing page loads a sandbox from a CDN; this API is called by tools, not browsed.
    plugins: [ApolloServerPluginLandingPageDisabled()],
  });
  await server.start();
  return {
    handler: expressMiddleware(server, {
      context: async ({ res }) => res.locals.graphContext as GraphContext,
    }),
    stop: () => server.stop(),
  };
}

import { ApolloGateway, LocalGraphQLDataSource } from '@apollo/gateway';
import type { Graph, SubgraphName } from './graph.js';

/**
 * An Apollo gateway whose subgraphs live in this process: query plans are executed
 * against the subgraph schemas directly, with the request's context passed through.
 */
export function createInProcessGateway(graph: Graph): ApolloGateway {
  return new ApolloGateway({
    supergraphSdl: graph.supergraphSdl,
    buildService: ({ name }) => new LocalGraphQLDataSource(graph.subgraphs[name as SubgraphName].schema),
  });
}

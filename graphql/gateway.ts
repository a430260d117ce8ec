import { ApolloGateway, type GraphQLDataSource, LocalGraphQLDataSource } from '@apollo/gateway';
import type { Audience } from './audiences.js';
import { type Graph, supergraphOf } from './graph.js';
import type { SubgraphName } from './subgraphNames.js';

/** A subgraph served by a process of its own: where it is, and how to reach it. */
export interface RemoteSubgraph {
  url: string;
  dataSource: GraphQLDataSource;
}

/**
 * `local://offers` -> the service's address. `buildService` picks the data source by name, so the
 * URLs only inform: the query plan and the gateway's errors name where each subgraph runs.
 */
export function withServiceUrls(supergraphSdl: string, remote: Partial<Record<SubgraphName, RemoteSubgraph>>): string {
  return supergraphSdl.replace(
    /@join__graph\(name: "([a-z]+)", url: "local:\/\/\1"\)/g,
    (declaration, name: SubgraphName) =>
      remote[name] ? `@join__graph(name: "${name}", url: ${JSON.stringify(remote[name].url)})` : declaration,
  );
}

/**
 * An Apollo gateway over the graph's subgraphs: those in `remote` are called over HTTP, the others
 * execute in this process against their schemas, with the request's context passed through. The
 * audience picks the supergraph: the provider's plans over the same subgraphs, but validates and
 * introspects against an API schema without the staff's elements.
 */
export function createGateway(
  graph: Graph,
  remote: Partial<Record<SubgraphName, RemoteSubgraph>> = {},
  audience: Audience = 'staff',
): ApolloGateway {
  // Unless told not to, each ApolloGateway exports usage metrics to Apollo's servers and, to label
  // them, probes the cloud metadata addresses of AWS, GCP, Azure and Alibaba. The platform calls
  // out only where its operators say (decision 016): off, unless they set the variable themselves.
  process.env.APOLLO_TELEMETRY_DISABLED ??= 'true';
  return new ApolloGateway({
    supergraphSdl: withServiceUrls(supergraphOf(graph, audience), remote),
    buildService: ({ name }) =>
      remote[name as SubgraphName]?.dataSource ??
      new LocalGraphQLDataSource(graph.subgraphs[name as SubgraphName].schema),
  });
}

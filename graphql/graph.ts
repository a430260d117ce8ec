import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { type DocumentNode, parse } from 'graphql';
import { type Audience, providerAudienceTypeDefs } from './audiences.js';
import { buildBookingsSubgraph } from './bookings/index.js';
import { buildCollectiveSubgraph } from './collective/index.js';
import { buildOffersSubgraph } from './offers/index.js';
import { buildProvidersSubgraph } from './providers/index.js';
import type { AppEnv } from '../platform/appEnv.js';
import type { Subgraph } from './shared/buildSubgraph.js';
import type { SubgraphName } from './subgraphNames.js';

export { subgraphNames, type SubgraphName } from './subgraphNames.js';

export interface Graph {
  subgraphs: Record<SubgraphName, Subgraph>;
  /** The whole graph, as the staff read it. */
  supergraphSdl: string;
  /** The same graph, its staff elements `@inaccessible`: what a provider's key reads (decision 033). */
  providerSupergraphSdl: string;
}

export function supergraphOf(graph: Graph, audience: Audience): string {
  return audience === 'provider' ? graph.providerSupergraphSdl : graph.supergraphSdl;
}

const built = new Map<string, Graph>();

/**
 * Builds the four subgraphs and composes them, once per process and kind of environment
 * (schemas are immutable). Production's graph has no sandbox mutations; the committed
 * supergraph is the other one.
 */
export function buildGraph(appEnv: AppEnv = 'development'): Graph {
  const kind = appEnv === 'production' ? 'production' : 'sandbox';
  const cached = built.get(kind);
  if (cached) return cached;
  const subgraphs: Record<SubgraphName, Subgraph> = {
    providers: buildProvidersSubgraph(),
    offers: buildOffersSubgraph(),
    bookings: buildBookingsSubgraph(appEnv),
    collective: buildCollectiveSubgraph(appEnv),
  };
  const graph = {
    subgraphs,
    supergraphSdl: composeSupergraph(Object.values(subgraphs)),
    providerSupergraphSdl: composeServiceDefinitions(providerAudienceTypeDefs(Object.values(subgraphs))),
  };
  built.set(kind, graph);
  return graph;
}

export function composeSupergraph(subgraphs: Subgraph[]): string {
  return composeServiceDefinitions(
    subgraphs.map((subgraph) => ({ name: subgraph.name, typeDefs: parse(printSubgraphSchema(subgraph.schema)) })),
  );
}

function composeServiceDefinitions(definitions: { name: string; typeDefs: DocumentNode }[]): string {
  const result = composeServices(definitions.map(({ name, typeDefs }) => ({ name, url: `local://${name}`, typeDefs })));
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((error) => error.message).join('\n')}`);
  }
  return result.supergraphSdl;
}

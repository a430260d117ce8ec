import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { buildBookingsSubgraph } from './bookings/index.js';
import { buildCollectiveSubgraph } from './collective/index.js';
import { buildOffersSubgraph } from './offers/index.js';
import { buildProvidersSubgraph } from './providers/index.js';
import type { Subgraph } from './shared/buildSubgraph.js';

export const subgraphNames = ['providers', 'offers', 'bookings', 'collective'] as const;
export type SubgraphName = (typeof subgraphNames)[number];

export interface Graph {
  subgraphs: Record<SubgraphName, Subgraph>;
  supergraphSdl: string;
}

let built: Graph | undefined;

/** Builds the four subgraphs and composes them, once per process (schemas are immutable). */
export function buildGraph(): Graph {
  if (built) return built;
  const subgraphs: Record<SubgraphName, Subgraph> = {
    providers: buildProvidersSubgraph(),
    offers: buildOffersSubgraph(),
    bookings: buildBookingsSubgraph(),
    collective: buildCollectiveSubgraph(),
  };
  built = { subgraphs, supergraphSdl: composeSupergraph(Object.values(subgraphs)) };
  return built;
}

export function composeSupergraph(subgraphs: Subgraph[]): string {
  const result = composeServices(
    subgraphs.map((subgraph) => ({
      name: subgraph.name,
      url: `local://${subgraph.name}`,
      typeDefs: parse(printSubgraphSchema(subgraph.schema)),
    })),
  );
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((error) => error.message).join('\n')}`);
  }
  return result.supergraphSdl;
}

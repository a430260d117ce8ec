/** The graph's four domains, each a federation subgraph that may run in this process or as a service of its own. */
export const subgraphNames = ['providers', 'offers', 'bookings', 'collective'] as const;
export type SubgraphName = (typeof subgraphNames)[number];

export function isSubgraphName(value: string): value is SubgraphName {
  return (subgraphNames as readonly string[]).includes(value);
}

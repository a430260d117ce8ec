import { buildSubgraph, type Subgraph } from '../shared/buildSubgraph.js';
import { CollectiveOffer } from './CollectiveOffer.js';
import { collectiveOfferInScope, CollectiveOfferResolver } from './CollectiveOfferResolver.js';

export const collectiveEntities = [CollectiveOffer];

export function buildCollectiveSubgraph(): Subgraph {
  return buildSubgraph({
    name: 'collective',
    resolvers: [CollectiveOfferResolver],
    references: {
      CollectiveOffer: {
        __resolveReference: (reference, context) => collectiveOfferInScope(context, reference.id),
      },
    },
  });
}

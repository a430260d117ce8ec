import { buildSubgraph, type Subgraph } from '../shared/buildSubgraph.js';
import { AttributesResolver } from './attributes/AttributesResolver.js';
import { Offer } from './Offer.js';
import { PriceCategory } from './PriceCategory.js';
import { Stock } from './Stock.js';
import { offerInScope, OfferResolver } from './OfferResolver.js';

export const offerEntities = [Offer, PriceCategory, Stock];

export function buildOffersSubgraph(): Subgraph {
  return buildSubgraph({
    name: 'offers',
    resolvers: [OfferResolver, AttributesResolver],
    references: {
      Offer: { __resolveReference: (reference, context) => offerInScope(context, reference.id) },
    },
  });
}

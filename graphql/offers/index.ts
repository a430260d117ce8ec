import { buildSubgraph, type Subgraph } from '../shared/buildSubgraph.js';
import { AttributesResolver } from './attributes/AttributesResolver.js';
import { DateResolver } from './dates/DateResolver.js';
import { EventResolver } from './events/EventResolver.js';
import { Offer } from './Offer.js';
import { PriceCategory } from './PriceCategory.js';
import { PriceCategoryResolver } from './priceCategories/PriceCategoryResolver.js';
import { Stock } from './Stock.js';
import { offerInScope } from './access.js';
import { OfferResolver } from './OfferResolver.js';

export const offerEntities = [Offer, PriceCategory, Stock];

export function buildOffersSubgraph(): Subgraph {
  return buildSubgraph({
    name: 'offers',
    resolvers: [OfferResolver, EventResolver, PriceCategoryResolver, DateResolver, AttributesResolver],
    references: {
      Offer: { __resolveReference: (reference, context) => offerInScope(context, reference.id) },
    },
  });
}

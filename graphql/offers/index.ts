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
import { OfferReviewResolver } from './OfferReviewResolver.js';
import { CatalogueProduct } from './eanCatalogue/CatalogueProduct.js';
import { ProductImport } from './products/ProductImport.js';
import { ProductResolver } from './products/ProductResolver.js';
import { offersInputRules } from './inputRules.js';

export const offerEntities = [Offer, PriceCategory, Stock, CatalogueProduct, ProductImport];

export function buildOffersSubgraph(): Subgraph {
  return buildSubgraph({
    name: 'offers',
    resolvers: [
      OfferResolver,
      EventResolver,
      ProductResolver,
      PriceCategoryResolver,
      DateResolver,
      AttributesResolver,
      OfferReviewResolver,
    ],
    inputRules: offersInputRules,
    references: {
      Offer: { __resolveReference: (reference, context) => offerInScope(context, reference.id) },
    },
  });
}

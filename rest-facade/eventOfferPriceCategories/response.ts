import { graphql } from '../subgraphs/graphql.js';

/** The selection of a PriceCategoryResponse. */
export const PriceCategoryFields = graphql.offers(`
  fragment PriceCategoryFields on PriceCategory { id label price idAtProvider }`);

import { graphql } from '../subgraphs/graphql.js';

/** The selection of an AddressResponse. */
export const AddressFields = graphql.providers(`
  fragment AddressFields on Address { id banId street city postalCode latitude longitude }`);

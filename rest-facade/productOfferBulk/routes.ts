import { ProductFields, toProductsResponse } from '../productOffers/response.js';
import { ProductOffersByEanResponse } from '../productOffers/schemas.js';
import { datesAsText } from '../graphInput.js';
import { defineRoute } from '../route.js';
import { graphql } from '../subgraphs/graphql.js';
import {
  AvailableEANsResponse,
  eansAtVenueQuery,
  eansQuery,
  PRODUCTS_PER_UPSERT_MAX,
  ProductsOfferByEanCreation,
} from './schemas.js';

const TAG = 'Product Offer Bulk Operations';

export const getProductByEan = defineRoute({
  method: 'get',
  path: '/public/offers/v1/products/ean',
  tag: TAG,
  operationId: 'GetProductByEan',
  summary: 'Get product offers by EAN',
  description:
    'Your product offers at one of your venues that have these EANs (at most 100). An EAN whose check digit is wrong is a 422.',
  subgraph: 'offers',
  document: graphql.offers(
    `query GetProductByEan($eans: [String!]!, $venueId: Int!) {
      productsByEan(eans: $eans, venueId: $venueId) { ...ProductFields }
    }`,
    [ProductFields],
  ),
  request: { query: eansAtVenueQuery },
  variables: ({ query }) => ({ eans: query.eans, venueId: query.venueId }),
  response: {
    status: 200,
    description: 'The product offers found, the newest first (in decreasing id order).',
    schema: ProductOffersByEanResponse,
    select: (data) => toProductsResponse(data.productsByEan),
  },
  errors: [403, 404],
});

export const postProductOfferByEan = defineRoute({
  method: 'post',
  path: '/public/offers/v1/products/ean',
  tag: TAG,
  operationId: 'PostProductOfferByEan',
  summary: 'Create or update product offers by EAN',
  description:
    `Puts up to ${PRODUCTS_PER_UPSERT_MAX} products of the catalogue on sale at one location, by EAN: each creates ` +
    "your offer of that EAN at the venue (from the catalogue's title, author and category) or updates it, and sets " +
    'its stock; a quantity of 0 deletes the stock and cancels its unused bookings. Asynchronous: 204 means the ' +
    'upsert is recorded and will be applied within seconds, even across a restart. EANs the catalogue rejects ' +
    '(see check_availability) are skipped.',
  subgraph: 'offers',
  document: graphql.offers(
    'mutation PostProductOfferByEan($input: ProductsByEanInput!) { importProductsByEan(input: $input) { id } }',
  ),
  request: { body: ProductsOfferByEanCreation },
  variables: ({ body }) => ({ input: datesAsText(body) }),
  response: { status: 204, description: 'The upsert is queued.' },
  errors: [400, 403, 404],
});

export const checkEansAvailability = defineRoute({
  method: 'get',
  path: '/public/offers/v1/products/ean/check_availability',
  tag: TAG,
  operationId: 'CheckEansAvailability',
  summary: 'Check whether EANs can be sold',
  description:
    'Sorts EANs (at most 100) into those you can put on sale by EAN and those you cannot, by reason: unknown to ' +
    'the catalogue (`notFound`, a wrong check digit included), of a category that cannot be sold by EAN ' +
    '(`subcategoryNotAllowed`: only paper books, CDs and vinyl records can) or not compliant with the terms of ' +
    'use (`notCompliantWithCgu`).',
  subgraph: 'offers',
  document: graphql.offers(`query CheckEansAvailability($eans: [String!]!) {
    eanAvailability(eans: $eans) { available rejected { notCompliantWithCgu notFound subcategoryNotAllowed } }
  }`),
  request: { query: eansQuery },
  variables: ({ query }) => ({ eans: query.eans }),
  response: {
    status: 200,
    description: 'The EANs, sorted.',
    schema: AvailableEANsResponse,
    select: (data) => data.eanAvailability,
  },
  errors: [403],
});

export const productOfferBulkRoutes = [getProductByEan, postProductOfferByEan, checkEansAvailability];

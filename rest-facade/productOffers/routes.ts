import { datesAsText } from '../graphInput.js';
import { conditionalFieldsAsMap } from '../offerAttributes/schemas.js';
import { oneOf } from '../graphAnswer.js';
import { defineRoute } from '../route.js';
import { CategoryEnum, LocationTypeEnum } from '../schemas/enums.js';
import { idInPath } from '../schemas/inputs.js';
import { offerPageQuery, offerPageVariables } from '../schemas/offerPages.js';
import { graphql } from '../subgraphs/graphql.js';
import { z } from '../zod.js';
import { ProductFields, toProductResponse, toProductsResponse } from './response.js';
import { ProductOfferCreation, ProductOfferEdition, ProductOfferResponse, ProductOffersResponse } from './schemas.js';

const TAG = 'Product Offers';

export const ProductCategoryResponse = z
  .object({
    id: CategoryEnum,
    conditionalFields: conditionalFieldsAsMap.schema,
    locationType: LocationTypeEnum.nullable().optional().openapi({
      description: 'DIGITAL or PHYSICAL when the category allows only one kind of location.',
    }),
  })
  .openapi('ProductCategoryResponse');

export const getProductCategories = defineRoute({
  method: 'get',
  path: '/public/offers/v1/products/categories',
  tag: TAG,
  operationId: 'GetProductCategories',
  summary: 'Get product categories',
  description:
    'The product categories an offer can be created in, the category-related fields each accepts ' +
    '(and whether each is mandatory on creation), and the kind of location it requires.',
  subgraph: 'offers',
  document: graphql.offers(
    'query GetProductCategories { productCategories { id conditionalFields { name mandatory } locationType } }',
  ),
  response: {
    status: 200,
    description: 'The product categories.',
    schema: z.array(ProductCategoryResponse).openapi('GetProductCategoriesResponse'),
    select: (data) =>
      data.productCategories.map(({ id, conditionalFields, locationType }) => ({
        id: oneOf(CategoryEnum, id),
        conditionalFields: conditionalFieldsAsMap.from(conditionalFields),
        locationType: locationType === null ? null : oneOf(LocationTypeEnum, locationType),
      })),
  },
});

export const getProducts = defineRoute({
  method: 'get',
  path: '/public/offers/v1/products',
  tag: TAG,
  operationId: 'GetProducts',
  summary: 'Get product offers',
  description:
    'Your product offers, in id order, a page at a time: pass the last id you received plus one as `firstIndex` ' +
    'to read the next page. Filter by venue (a venue your key does not reach is 404), address or your own ' +
    'identifiers.',
  subgraph: 'offers',
  document: graphql.offers(
    `query GetProducts($page: PageInput, $venueId: Int, $addressId: Int, $idsAtProvider: [String!]) {
      products(page: $page, venueId: $venueId, addressId: $addressId, idsAtProvider: $idsAtProvider) {
        ...ProductFields
      }
    }`,
    [ProductFields],
  ),
  request: { query: offerPageQuery },
  variables: offerPageVariables,
  response: {
    status: 200,
    description: 'A page of your product offers.',
    schema: ProductOffersResponse,
    select: (data) => toProductsResponse(data.products),
  },
  errors: [403, 404],
});

export const postProductOffer = defineRoute({
  method: 'post',
  path: '/public/offers/v1/products',
  tag: TAG,
  operationId: 'PostProductOffer',
  summary: 'Create a product offer',
  description:
    'Creates a product offer at one of your venues, with its stock if you give one. The offer is reviewed for ' +
    'compliance (PENDING, up to 72 hours) before it can be booked. Paper books, CDs and vinyl records are ' +
    'created by EAN instead (POST /public/offers/v1/products/ean).',
  subgraph: 'offers',
  document: graphql.offers(
    'mutation PostProductOffer($input: ProductCreateInput!) { createProduct(input: $input) { ...ProductFields } }',
    [ProductFields],
  ),
  request: { body: ProductOfferCreation },
  variables: ({ body }) => ({ input: datesAsText(body) }),
  response: {
    status: 201,
    description: 'The product offer.',
    schema: ProductOfferResponse,
    select: (data) => toProductResponse(data.createProduct),
  },
  errors: [400, 403, 404],
});

export const getProduct = defineRoute({
  method: 'get',
  path: '/public/offers/v1/products/{product_id}',
  tag: TAG,
  operationId: 'GetProduct',
  summary: 'Get a product offer',
  description: 'One of your product offers, with its status and stock.',
  subgraph: 'offers',
  document: graphql.offers('query GetProduct($id: Int!) { product(id: $id) { ...ProductFields } }', [ProductFields]),
  request: { params: z.object({ product_id: idInPath }) },
  variables: ({ params }) => ({ id: params.product_id }),
  response: {
    status: 200,
    description: 'The product offer.',
    schema: ProductOfferResponse,
    select: (data) => toProductResponse(data.product),
  },
  errors: [403, 404],
});

export const editProduct = defineRoute({
  method: 'patch',
  path: '/public/offers/v1/products',
  tag: TAG,
  operationId: 'EditProduct',
  summary: 'Update a product offer',
  description:
    'Changes the fields sent of the product offer `offerId`; the others stay as they are. null clears a field ' +
    'that may be empty. `stock: null` deletes the stock and cancels its unused bookings. isActive: false ' +
    'deactivates the offer without cancelling its bookings; without a publicationDatetime, isActive also sets it ' +
    '(true: now, false: null). The category cannot change, nor an offer PENDING or REJECTED. A product stays ' +
    'at its venue (a location naming another venue is 400) and keeps its EAN (an EAN sent is ignored); ' +
    'image: null and categoryRelatedFields: null change nothing.',
  subgraph: 'offers',
  document: graphql.offers(
    `mutation EditProduct($id: Int!, $input: ProductEditInput!) {
      editProduct(id: $id, input: $input) { ...ProductFields }
    }`,
    [ProductFields],
  ),
  request: { body: ProductOfferEdition },
  variables: ({ body }) => {
    const { offerId, ...input } = body;
    return { id: offerId, input: datesAsText(input) };
  },
  response: {
    status: 200,
    description: 'The product offer, updated.',
    schema: ProductOfferResponse,
    select: (data) => toProductResponse(data.editProduct),
  },
  errors: [400, 403, 404],
});

export const productOfferRoutes = [getProductCategories, getProducts, postProductOffer, getProduct, editProduct];

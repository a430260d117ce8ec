import { conditionalFieldsAsMap, type GraphCategory } from '../offerAttributes/schemas.js';
import { defineRoute } from '../route.js';
import { CategoryEnum, LocationTypeEnum } from '../schemas/enums.js';
import { z } from '../zod.js';

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
  document: 'query GetProductCategories { productCategories { id conditionalFields { name mandatory } locationType } }',
  response: {
    status: 200,
    description: 'The product categories.',
    schema: z.array(ProductCategoryResponse).openapi('GetProductCategoriesResponse'),
    select: (data) =>
      (data.productCategories as GraphCategory[]).map(({ id, conditionalFields, locationType }) => ({
        id,
        conditionalFields: conditionalFieldsAsMap.from(conditionalFields),
        locationType,
      })),
  },
});

export const productOfferRoutes = [getProductCategories];

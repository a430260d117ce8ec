import { PRICE_CATEGORIES_MAX } from '../../graphql/offers/limits.js';
import { defineRoute } from '../route.js';
import { eventInPath, eventPageQuery, eventPageVariables } from '../schemas/eventPages.js';
import { idInPath } from '../schemas/inputs.js';
import { graphql } from '../subgraphs/graphql.js';
import { z } from '../zod.js';
import { PriceCategoryFields } from './response.js';
import {
  PriceCategoriesCreation,
  PriceCategoriesResponse,
  PriceCategoryEdition,
  PriceCategoryResponse,
} from './schemas.js';

const TAG = 'Event Offer Price Categories';
const PATH = '/public/offers/v1/events/{event_id}/price_categories';

export const getEventPriceCategories = defineRoute({
  method: 'get',
  path: PATH,
  tag: TAG,
  operationId: 'GetEventPriceCategories',
  summary: "Get an event's price categories",
  description:
    'The price categories of one of your events, in id order: at most `limit`, from the id `firstIndex` ' +
    '(to read the next page, pass the last id received plus one), optionally only those with the given `idsAtProvider`.',
  subgraph: 'offers',
  document: graphql.offers(
    `query GetEventPriceCategories($eventId: Int!, $page: PageInput!, $idsAtProvider: [String!]) {
      eventPriceCategories(eventId: $eventId, page: $page, idsAtProvider: $idsAtProvider) { ...PriceCategoryFields }
    }`,
    [PriceCategoryFields],
  ),
  request: { params: eventInPath, query: eventPageQuery },
  variables: eventPageVariables,
  response: {
    status: 200,
    description: 'A page of price categories (possibly empty).',
    schema: PriceCategoriesResponse,
    select: (data) => ({ priceCategories: data.eventPriceCategories }),
  },
  errors: [403, 404],
});

export const postEventPriceCategories = defineRoute({
  method: 'post',
  path: PATH,
  tag: TAG,
  operationId: 'PostEventPriceCategories',
  summary: 'Add price categories to an event',
  description:
    `Adds price categories to one of your events, all or none: at most ${PRICE_CATEGORIES_MAX} per request and ` +
    `${PRICE_CATEGORIES_MAX} per event in total ` +
    '(400 beyond), each `idAtProvider` unique within the event (400 on a duplicate, in the request or with existing ones).',
  subgraph: 'offers',
  document: graphql.offers(
    `mutation PostEventPriceCategories($eventId: Int!, $priceCategories: [PriceCategoryCreationInput!]!) {
      createEventPriceCategories(eventId: $eventId, priceCategories: $priceCategories) { ...PriceCategoryFields }
    }`,
    [PriceCategoryFields],
  ),
  request: { params: eventInPath, body: PriceCategoriesCreation },
  variables: ({ params, body }) => ({ eventId: params.event_id, priceCategories: body.priceCategories }),
  response: {
    status: 200,
    description: 'The price categories created, in the order given.',
    schema: PriceCategoriesResponse,
    select: (data) => ({ priceCategories: data.createEventPriceCategories }),
  },
  errors: [400, 403, 404],
});

export const patchEventPriceCategory = defineRoute({
  method: 'patch',
  path: `${PATH}/{price_category_id}`,
  tag: TAG,
  operationId: 'PatchEventPriceCategory',
  summary: 'Edit a price category',
  description:
    'Changes the fields sent of a price category of one of your events; `idAtProvider: null` clears it. ' +
    'A new price applies to every date of the category that is not deleted.',
  subgraph: 'offers',
  document: graphql.offers(
    `mutation PatchEventPriceCategory($eventId: Int!, $priceCategoryId: Int!, $input: PriceCategoryEditionInput!) {
      updateEventPriceCategory(eventId: $eventId, priceCategoryId: $priceCategoryId, input: $input) {
        ...PriceCategoryFields
      }
    }`,
    [PriceCategoryFields],
  ),
  request: { params: z.object({ event_id: idInPath, price_category_id: idInPath }), body: PriceCategoryEdition },
  variables: ({ params, body }) => ({
    eventId: params.event_id,
    priceCategoryId: params.price_category_id,
    input: body,
  }),
  response: {
    status: 200,
    description: 'The price category, edited.',
    schema: PriceCategoryResponse,
    select: (data) => data.updateEventPriceCategory,
  },
  errors: [400, 403, 404],
});

export const eventOfferPriceCategoryRoutes = [
  getEventPriceCategories,
  postEventPriceCategories,
  patchEventPriceCategory,
];

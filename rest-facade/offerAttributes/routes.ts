import { oneOf } from '../graphAnswer.js';
import { defineRoute } from '../route.js';
import {
  DeprecatedMusicTypeEnum,
  EventCategoryEnum,
  ShowTypeEnum,
  TiteliveEventMusicTypeEnum,
  TiteliveMusicTypeEnum,
} from '../schemas/enums.js';
import { graphql } from '../subgraphs/graphql.js';
import { z } from '../zod.js';
import { labelledList } from './response.js';
import { conditionalFieldsAsMap } from './schemas.js';

const TAG = 'Offer Attributes';

export const EventCategoryResponse = z
  .object({ id: EventCategoryEnum, conditionalFields: conditionalFieldsAsMap.schema })
  .openapi('EventCategoryResponse');

export const getEventCategories = defineRoute({
  method: 'get',
  path: '/public/offers/v1/events/categories',
  tag: TAG,
  operationId: 'GetEventCategories',
  summary: 'Get event categories',
  description:
    'The event categories an offer can be created in. `conditionalFields` names the category-related ' +
    'fields each accepts, and whether each is mandatory on creation.',
  subgraph: 'offers',
  document: graphql.offers('query GetEventCategories { eventCategories { id conditionalFields { name mandatory } } }'),
  response: {
    status: 200,
    description: 'The event categories.',
    schema: z.array(EventCategoryResponse).openapi('GetEventCategoriesResponse'),
    select: (data) =>
      data.eventCategories.map(({ id, conditionalFields }) => ({
        id: oneOf(EventCategoryEnum, id),
        conditionalFields: conditionalFieldsAsMap.from(conditionalFields),
      })),
  },
});

export const getMusicTypes = defineRoute({
  method: 'get',
  path: '/public/offers/v1/music_types',
  tag: TAG,
  operationId: 'GetMusicTypes',
  summary: 'Get music types (former list)',
  description: 'The former music types. Still served for existing integrations; use `/music_types/all` instead.',
  deprecated: true,
  subgraph: 'offers',
  document: graphql.offers('query GetMusicTypes { legacyMusicTypes { id label } }'),
  response: labelledList('GetMusicTypesResponse', 'MusicTypeResponse', DeprecatedMusicTypeEnum, 'legacyMusicTypes'),
});

export const getAllTiteliveMusicTypes = defineRoute({
  method: 'get',
  path: '/public/offers/v1/music_types/all',
  tag: TAG,
  operationId: 'GetAllTiteliveMusicTypes',
  summary: 'Get all music types',
  description: 'Music types for the `musicType` field of product and event offers.',
  subgraph: 'offers',
  document: graphql.offers('query GetAllTiteliveMusicTypes { musicTypes { id label } }'),
  response: labelledList(
    'GetTiteliveMusicTypesResponse',
    'TiteliveMusicTypeResponse',
    TiteliveMusicTypeEnum,
    'musicTypes',
  ),
});

export const getEventTiteliveMusicTypes = defineRoute({
  method: 'get',
  path: '/public/offers/v1/music_types/event',
  tag: TAG,
  operationId: 'GetEventTiteliveMusicTypes',
  summary: 'Get music types of events',
  description: 'Music types an event offer may have.',
  subgraph: 'offers',
  document: graphql.offers('query GetEventTiteliveMusicTypes { eventMusicTypes { id label } }'),
  response: labelledList(
    'GetTiteliveEventMusicTypesResponse',
    'TiteliveEventMusicTypeResponse',
    TiteliveEventMusicTypeEnum,
    'eventMusicTypes',
  ),
});

export const getShowTypes = defineRoute({
  method: 'get',
  path: '/public/offers/v1/show_types',
  tag: TAG,
  operationId: 'GetShowTypes',
  summary: 'Get show types',
  description: 'Show types for the `showType` field of show offers.',
  subgraph: 'offers',
  document: graphql.offers('query GetShowTypes { showTypes { id label } }'),
  response: labelledList('GetShowTypesResponse', 'ShowTypeResponse', ShowTypeEnum, 'showTypes'),
});

export const offerAttributeRoutes = [
  getEventCategories,
  getMusicTypes,
  getAllTiteliveMusicTypes,
  getEventTiteliveMusicTypes,
  getShowTypes,
];

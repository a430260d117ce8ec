import { BadRequestError } from '../../graphql/shared/errors.js';
import { datesAsText } from '../graphInput.js';
import { defineRoute } from '../route.js';
import { eventInPath } from '../schemas/eventPages.js';
import { offerPageQuery, offerPageVariables } from '../schemas/offerPages.js';
import { graphql } from '../subgraphs/graphql.js';
import { EventFields, toEventResponse } from './response.js';
import { EventOfferCreation, EventOfferEdition, EventOfferResponse, EventOffersResponse } from './schemas.js';

const TAG = 'Event Offers';

/**
 * The body as the graph takes it: datetimes as ISO text in UTC, and the deprecated
 * `publicationDate` standing in for an absent `publicationDatetime` (both given: 400).
 */
function eventInput<Body extends { publicationDatetime?: unknown; publicationDate?: unknown }>(body: Body) {
  const { publicationDate, ...input } = body;
  if (publicationDate != null && input.publicationDatetime != null) {
    throw BadRequestError.on('publicationDate', 'Give publicationDatetime or the deprecated publicationDate, not both');
  }
  if (!('publicationDatetime' in input) && publicationDate !== undefined) input.publicationDatetime = publicationDate;
  return datesAsText(input);
}

export const getEvents = defineRoute({
  method: 'get',
  path: '/public/offers/v1/events',
  tag: TAG,
  operationId: 'GetEvents',
  summary: 'Get event offers',
  description:
    'Your event offers, in id order, a page at a time: pass the last id you received plus one as `firstIndex` ' +
    'to read the next page. Filter by venue (a venue your key does not reach is 404), address or your own ' +
    'identifiers.',
  subgraph: 'offers',
  document: graphql.offers(
    `query GetEvents($page: PageInput, $venueId: Int, $addressId: Int, $idsAtProvider: [String!]) {
      events(page: $page, venueId: $venueId, addressId: $addressId, idsAtProvider: $idsAtProvider) { ...EventFields }
    }`,
    [EventFields],
  ),
  request: { query: offerPageQuery },
  variables: offerPageVariables,
  response: {
    status: 200,
    description: 'A page of your event offers.',
    schema: EventOffersResponse,
    select: (data) => ({ events: data.events.map(toEventResponse) }),
  },
  errors: [403, 404],
});

export const postEventOffer = defineRoute({
  method: 'post',
  path: '/public/offers/v1/events',
  tag: TAG,
  operationId: 'PostEventOffer',
  summary: 'Create an event offer',
  description:
    'Creates an event offer at one of your venues, with its price categories. The offer is reviewed for ' +
    'compliance (PENDING, up to 72 hours) before it can be booked; add its dates with POST .../dates.',
  subgraph: 'offers',
  document: graphql.offers(
    'mutation PostEventOffer($input: EventCreateInput!) { createEvent(input: $input) { ...EventFields } }',
    [EventFields],
  ),
  request: { body: EventOfferCreation },
  variables: ({ body }) => ({ input: eventInput(body) }),
  response: {
    status: 200,
    description: 'The event offer.',
    schema: EventOfferResponse,
    select: (data) => toEventResponse(data.createEvent),
  },
  errors: [400, 403, 404],
});

export const getEvent = defineRoute({
  method: 'get',
  path: '/public/offers/v1/events/{event_id}',
  tag: TAG,
  operationId: 'GetEvent',
  summary: 'Get an event offer',
  description: 'One of your event offers, with its status and price categories.',
  subgraph: 'offers',
  document: graphql.offers('query GetEvent($id: Int!) { event(id: $id) { ...EventFields } }', [EventFields]),
  request: { params: eventInPath },
  variables: ({ params }) => ({ id: params.event_id }),
  response: {
    status: 200,
    description: 'The event offer.',
    schema: EventOfferResponse,
    select: (data) => toEventResponse(data.event),
  },
  errors: [403, 404],
});

export const editEvent = defineRoute({
  method: 'patch',
  path: '/public/offers/v1/events/{event_id}',
  tag: TAG,
  operationId: 'EditEvent',
  summary: 'Update an event offer',
  description:
    'Changes the fields sent; the others stay as they are. null clears a field that may be empty. The category ' +
    'and hasTicket cannot change. isActive: false deactivates the offer without cancelling its bookings; without ' +
    'a publicationDatetime, isActive also sets it (true: now, false: null). An offer PENDING or REJECTED cannot change.',
  subgraph: 'offers',
  document: graphql.offers(
    'mutation EditEvent($id: Int!, $input: EventEditInput!) { editEvent(id: $id, input: $input) { ...EventFields } }',
    [EventFields],
  ),
  request: { params: eventInPath, body: EventOfferEdition },
  variables: ({ params, body }) => ({ id: params.event_id, input: eventInput(body) }),
  response: {
    status: 200,
    description: 'The event offer, updated.',
    schema: EventOfferResponse,
    select: (data) => toEventResponse(data.editEvent),
  },
  errors: [400, 403, 404],
});

export const eventOfferRoutes = [getEvents, postEventOffer, getEvent, editEvent];

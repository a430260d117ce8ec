import { priceCategoryFields } from '../eventOfferPriceCategories/schemas.js';
import { datesAsText } from '../graphInput.js';
import { defineRoute } from '../route.js';
import { offerFieldsSelection } from '../schemas/offerResponse.js';
import { idInPath, idInQuery } from '../schemas/inputs.js';
import { idsAtProviderParameter, pageInput, pageParameters } from '../schemas/pagination.js';
import { z } from '../zod.js';
import { type GraphEvent, toEventResponse } from './response.js';
import { EventOfferCreation, EventOfferEdition, EventOfferResponse, EventOffersResponse } from './schemas.js';

const TAG = 'Event Offers';

const eventFields = `
  fragment EventFields on Offer {${offerFieldsSelection}
    videoUrl hasTicket eventDuration
    priceCategories { ${priceCategoryFields} }
  }`;

/**
 * The body as the graph takes it: datetimes as ISO text in UTC, and the deprecated
 * `publicationDate` standing in for an absent `publicationDatetime`.
 */
function eventInput(body: Record<string, unknown>): Record<string, unknown> {
  const { publicationDate, ...input } = body;
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
    'to read the next page. Filter by venue, address or your own identifiers.',
  subgraph: 'offers',
  document: `query GetEvents($page: PageInput, $venueId: Int, $addressId: Int, $idsAtProvider: [String!]) {
    events(page: $page, venueId: $venueId, addressId: $addressId, idsAtProvider: $idsAtProvider) { ...EventFields }
  } ${eventFields}`,
  request: {
    query: z.object({
      ...pageParameters,
      venueId: idInQuery(),
      addressId: idInQuery(),
      idsAtProvider: idsAtProviderParameter,
    }),
  },
  variables: ({ query }) => ({
    page: pageInput(query),
    venueId: query.venueId ?? null,
    addressId: query.addressId ?? null,
    idsAtProvider: query.idsAtProvider ?? null,
  }),
  response: {
    status: 200,
    description: 'A page of your event offers.',
    schema: EventOffersResponse,
    select: (data) => ({ events: (data.events as GraphEvent[]).map(toEventResponse) }),
  },
  errors: [403],
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
  document: `mutation PostEventOffer($input: EventCreateInput!) { createEvent(input: $input) { ...EventFields } } ${eventFields}`,
  request: { body: EventOfferCreation },
  variables: ({ body }) => ({ input: eventInput(body as Record<string, unknown>) }),
  response: {
    status: 200,
    description: 'The event offer.',
    schema: EventOfferResponse,
    select: (data) => toEventResponse(data.createEvent as GraphEvent),
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
  document: `query GetEvent($id: Int!) { event(id: $id) { ...EventFields } } ${eventFields}`,
  request: { params: z.object({ event_id: idInPath }) },
  variables: ({ params }) => ({ id: params.event_id }),
  response: {
    status: 200,
    description: 'The event offer.',
    schema: EventOfferResponse,
    select: (data) => toEventResponse(data.event as GraphEvent),
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
    'and hasTicket cannot change. isActive: false deactivates the offer without cancelling its bookings.',
  subgraph: 'offers',
  document: `mutation EditEvent($id: Int!, $input: EventEditInput!) { editEvent(id: $id, input: $input) { ...EventFields } } ${eventFields}`,
  request: { params: z.object({ event_id: idInPath }), body: EventOfferEdition },
  variables: ({ params, body }) => ({ id: params.event_id, input: eventInput(body as Record<string, unknown>) }),
  response: {
    status: 200,
    description: 'The event offer, updated.',
    schema: EventOfferResponse,
    select: (data) => toEventResponse(data.editEvent as GraphEvent),
  },
  errors: [400, 403, 404],
});

export const eventOfferRoutes = [getEvents, postEventOffer, getEvent, editEvent];

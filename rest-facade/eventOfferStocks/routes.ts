import { DATES_PER_CALL_MAX, DATES_PER_OFFER_MAX } from '../../graphql/offers/limits.js';
import { defineRoute } from '../route.js';
import { eventInPath, eventPageQuery, eventPageVariables } from '../schemas/eventPages.js';
import { idInPath } from '../schemas/inputs.js';
import { graphql } from '../subgraphs/graphql.js';
import { z } from '../zod.js';
import { DateFields, toDateResponse } from './response.js';
import {
  DateResponse,
  EventStockEdition,
  EventStocksCreation,
  GetDatesResponse,
  PostDatesResponse,
} from './schemas.js';

const TAG = 'Event Offer Stocks';
const PATH = '/public/offers/v1/events/{event_id}/dates';
const datePathParameters = z.object({ event_id: idInPath, stock_id: idInPath });

export const getEventStocks = defineRoute({
  method: 'get',
  path: PATH,
  tag: TAG,
  operationId: 'GetEventStocks',
  summary: "Get an event's dates",
  description:
    'The dates of one of your events (deleted ones never appear), in id order: at most `limit`, from the id ' +
    '`firstIndex` (to read the next page, pass the last id received plus one), optionally only those with the ' +
    'given `idsAtProvider`. `quantity` is the total of places, booked ones (`bookedQuantity`) included.',
  subgraph: 'offers',
  document: graphql.offers(
    `query GetEventStocks($eventId: Int!, $page: PageInput!, $idsAtProvider: [String!]) {
      eventDates(eventId: $eventId, page: $page, idsAtProvider: $idsAtProvider) { ...DateFields }
    }`,
    [DateFields],
  ),
  request: { params: eventInPath, query: eventPageQuery },
  variables: eventPageVariables,
  response: {
    status: 200,
    description: 'A page of dates (possibly empty).',
    schema: GetDatesResponse,
    select: (data) => ({ dates: data.eventDates.map(toDateResponse) }),
  },
  errors: [403, 404],
});

export const postEventStocks = defineRoute({
  method: 'post',
  path: PATH,
  tag: TAG,
  operationId: 'PostEventStocks',
  summary: 'Add dates to an event',
  description:
    `Adds up to ${DATES_PER_CALL_MAX} dates to one of your events, all or none (${DATES_PER_OFFER_MAX} dates per event ` +
    'in total). Each date is one beginning at one price category of the event. Beginnings and booking limits ' +
    'lie ahead (422). A price category the event does not have, the same beginning and price category twice, ' +
    'an `idAtProvider` already used by a date of the event, or a booking limit after the beginning or before ' +
    "the event's publication or opening of bookings (`bookingAllowedDatetime`) is a 400 naming the date's field.",
  subgraph: 'offers',
  document: graphql.offers(
    `mutation PostEventStocks($eventId: Int!, $dates: [EventDateCreationInput!]!) {
      createEventDates(eventId: $eventId, dates: $dates) { ...DateFields }
    }`,
    [DateFields],
  ),
  request: { params: eventInPath, body: EventStocksCreation },
  variables: ({ params, body }) => ({ eventId: params.event_id, dates: body.dates }),
  response: {
    status: 200,
    description: 'The dates created, in the order given.',
    schema: PostDatesResponse,
    select: (data) => ({ dates: data.createEventDates.map(toDateResponse) }),
  },
  errors: [400, 403, 404],
});

export const patchEventStock = defineRoute({
  method: 'patch',
  path: `${PATH}/{stock_id}`,
  tag: TAG,
  operationId: 'PatchEventStock',
  summary: 'Edit a date',
  description:
    'Changes the fields sent of a date of one of your events. A `quantity` sent is the number of places still ' +
    'on sale: the places already booked come on top, and the answer shows the total. A `beginningDatetime` sent, even unchanged, reschedules the ' +
    'date and its bookers are told. A booking limit sent lies ahead (422), not after the beginning nor before ' +
    "the event's publication or opening of bookings (400). A date that has begun, or of an offer `PENDING` or " +
    '`REJECTED`, cannot change (400); an edit that changes nothing of a date that has begun answers it as it is.',
  subgraph: 'offers',
  document: graphql.offers(
    `mutation PatchEventStock($eventId: Int!, $stockId: Int!, $input: EventDateEditionInput!) {
      updateEventDate(eventId: $eventId, stockId: $stockId, input: $input) { ...DateFields }
    }`,
    [DateFields],
  ),
  request: { params: datePathParameters, body: EventStockEdition },
  variables: ({ params, body }) => ({ eventId: params.event_id, stockId: params.stock_id, input: body }),
  response: {
    status: 200,
    description: 'The date, edited.',
    schema: DateResponse,
    select: (data) => toDateResponse(data.updateEventDate),
  },
  errors: [400, 403, 404],
});

export const deleteEventStock = defineRoute({
  method: 'delete',
  path: `${PATH}/{stock_id}`,
  tag: TAG,
  operationId: 'DeleteEventStock',
  summary: 'Delete a date',
  description:
    'Deletes a date of one of your events: its unused bookings are cancelled, and it is never shown again. ' +
    'A date that began more than 48 hours ago, or of an offer `PENDING` or `REJECTED`, stays (400).',
  subgraph: 'offers',
  document: graphql.offers(
    'mutation DeleteEventStock($eventId: Int!, $stockId: Int!) { deleteEventDate(eventId: $eventId, stockId: $stockId) }',
  ),
  request: { params: datePathParameters },
  variables: ({ params }) => ({ eventId: params.event_id, stockId: params.stock_id }),
  response: { status: 204, description: 'The date is deleted.' },
  errors: [400, 403, 404],
});

export const eventOfferStockRoutes = [getEventStocks, postEventStocks, patchEventStock, deleteEventStock];

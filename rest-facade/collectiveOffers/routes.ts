import { datesAsText } from '../graphInput.js';
import { defineRoute } from '../route.js';
import { CollectiveOfferDisplayedStatusEnum, CollectiveOfferStatusEnum } from '../schemas/enums.js';
import { awareDateTimeInput, isStorable } from '../schemas/datetimes.js';
import { idInPath, idInQuery } from '../schemas/inputs.js';
import { graphql } from '../subgraphs/graphql.js';
import { z } from '../zod.js';
import {
  CollectiveOfferFields,
  collectiveOfferInput,
  CollectiveOfferSummaryFields,
  toCollectiveOfferDetail,
  toCollectiveOfferSummary,
} from './response.js';
import {
  ArchiveCollectiveOfferBody,
  CollectiveOfferDetail,
  CollectiveOffersList,
  PatchCollectiveOfferBody,
  PostCollectiveOfferBody,
} from './schemas.js';

const TAG = 'Collective Offers';

/** A day (YYYY-MM-DD, read in UTC) or a timezone-aware moment: the period filters take either. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A day that exists: Date would roll 2027-02-30 over into March. */
const isRealDay = (value: string) => {
  const day = DAY.test(value) ? new Date(`${value}T00:00:00Z`) : null;
  return day !== null && isStorable(day) && day.toISOString().startsWith(value);
};
const periodBound = (edge: 'start' | 'end') =>
  z
    .string()
    .refine((value) => isRealDay(value) || awareDateTimeInput.safeParse(value).success, {
      message: 'Input should be a valid date (YYYY-MM-DD) or a timezone-aware ISO 8601 datetime',
      params: { type: 'date_parsing' },
    })
    .transform((value) =>
      isRealDay(value)
        ? `${value}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`
        : new Date(value).toISOString(),
    )
    .optional()
    .openapi({ example: edge === 'start' ? '2027-01-01' : '2027-06-30' });

export const getCollectiveOffers = defineRoute({
  method: 'get',
  path: '/v2/collective/offers/',
  tag: TAG,
  operationId: 'GetCollectiveOffersPublic',
  summary: 'Get your collective offers',
  description:
    'The collective offers you created through the API, in id order, with their bookings: the first 500 that ' +
    'match. Filter by displayed status (`offerStatus`), venue, or a period the start falls in (a day, taken in ' +
    'UTC, or a datetime); narrow by venue or period to reach offers past the first 500.',
  subgraph: 'collective',
  document: graphql.collective(
    `query GetCollectiveOffersPublic($filter: CollectiveOfferFilter) {
      collectiveOfferSummaries(filter: $filter) { ...CollectiveOfferSummaryFields }
    }`,
    [CollectiveOfferSummaryFields],
  ),
  request: {
    query: z.object({
      status: CollectiveOfferStatusEnum.optional().openapi({
        deprecated: true,
        description: 'Deprecated: use offerStatus.',
      }),
      offerStatus: CollectiveOfferDisplayedStatusEnum.optional(),
      venueId: idInQuery(),
      periodBeginningDate: periodBound('start'),
      periodEndingDate: periodBound('end'),
    }),
  },
  variables: ({ query }) => ({
    filter: {
      status: query.status ?? null,
      offerStatus: query.offerStatus ?? null,
      venueId: query.venueId ?? null,
      periodBeginning: query.periodBeginningDate ?? null,
      periodEnding: query.periodEndingDate ?? null,
    },
  }),
  response: {
    status: 200,
    description: 'Your collective offers.',
    schema: CollectiveOffersList,
    select: (data) => data.collectiveOfferSummaries.map(toCollectiveOfferSummary),
  },
  errors: [403, 404],
});

export const postCollectiveOffer = defineRoute({
  method: 'post',
  path: '/v2/collective/offers/',
  tag: TAG,
  operationId: 'PostCollectiveOfferPublic',
  summary: 'Create a collective offer',
  description:
    'Creates an offer to school groups at one of your venues, whose offerer must be allowed on the school platform ' +
    '(403 otherwise). It is UNDER_REVIEW until the compliance review publishes it (on the integration environment, ' +
    'approved as it is created). A French phone number is stored in its international form (+33). Name the institution by id or ' +
    'by UAI, never both (400); an inactive institution is 403. Dates must not be in the past, and the booking limit ' +
    'not after the start.',
  subgraph: 'collective',
  document: graphql.collective(
    `mutation PostCollectiveOfferPublic($input: CollectiveOfferInput!) {
      createCollectiveOffer(input: $input) { ...CollectiveOfferFields }
    }`,
    [CollectiveOfferFields],
  ),
  request: { body: PostCollectiveOfferBody },
  variables: ({ body }) => ({ input: collectiveOfferInput(datesAsText(body)) }),
  response: {
    status: 201,
    description: 'The collective offer.',
    schema: CollectiveOfferDetail,
    select: (data) => toCollectiveOfferDetail(data.createCollectiveOffer),
  },
  errors: [400, 403, 404],
});

const offerParams = z.object({ offer_id: idInPath });

export const getCollectiveOffer = defineRoute({
  method: 'get',
  path: '/v2/collective/offers/{offer_id}',
  tag: TAG,
  operationId: 'GetCollectiveOfferPublic',
  summary: 'Get a collective offer',
  description: 'One of your collective offers, with its statuses and bookings. Another provider’s offer is 403.',
  subgraph: 'collective',
  document: graphql.collective(
    'query GetCollectiveOfferPublic($id: Int!) { collectiveOffer(id: $id) { ...CollectiveOfferFields } }',
    [CollectiveOfferFields],
  ),
  request: { params: offerParams },
  variables: ({ params }) => ({ id: params.offer_id }),
  response: {
    status: 200,
    description: 'The collective offer.',
    schema: CollectiveOfferDetail,
    select: (data) => toCollectiveOfferDetail(data.collectiveOffer),
  },
  errors: [403, 404],
});

export const patchCollectiveOffer = defineRoute({
  method: 'patch',
  path: '/v2/collective/offers/{offer_id}',
  tag: TAG,
  operationId: 'PatchCollectiveOfferPublic',
  summary: 'Change a collective offer',
  description:
    'Changes the fields sent; the others stay as they are. What may change depends on the offer’s `offerStatus`: ' +
    'PUBLISHED and PREBOOKED, every field but the institution (set at creation); BOOKED and ENDED, only ' +
    '`numberOfTickets`, `educationalPriceDetail` and a lower `totalPrice`; EXPIRED, only the dates; any other ' +
    'status, nothing. A refused change is 400, naming the field.',
  subgraph: 'collective',
  document: graphql.collective(
    `mutation PatchCollectiveOfferPublic($id: Int!, $input: CollectiveOfferInput!) {
      editCollectiveOffer(id: $id, input: $input) { ...CollectiveOfferFields }
    }`,
    [CollectiveOfferFields],
  ),
  request: { params: offerParams, body: PatchCollectiveOfferBody },
  variables: ({ params, body }) => ({ id: params.offer_id, input: collectiveOfferInput(datesAsText(body)) }),
  response: {
    status: 200,
    description: 'The collective offer, changed.',
    schema: CollectiveOfferDetail,
    select: (data) => toCollectiveOfferDetail(data.editCollectiveOffer),
  },
  errors: [400, 403, 404],
});

export const archiveCollectiveOffers = defineRoute({
  method: 'post',
  path: '/v2/collective/offers/archive',
  tag: TAG,
  operationId: 'ArchiveCollectiveOffers',
  summary: 'Archive collective offers',
  description:
    'Archives your offers, all or none: an id you do not own is 404; an offer under review, pre-booked or booked ' +
    'is 400, as is an ended, hidden or already archived one.',
  subgraph: 'collective',
  document: graphql.collective(
    'mutation ArchiveCollectiveOffers($ids: [Int!]!) { archiveCollectiveOffers(ids: $ids) }',
  ),
  request: { body: ArchiveCollectiveOfferBody },
  variables: ({ body }) => ({ ids: body.ids }),
  response: { status: 204, description: 'Archived.' },
  errors: [400, 403, 404],
});

export const collectiveOfferRoutes = [
  getCollectiveOffers,
  postCollectiveOffer,
  archiveCollectiveOffers,
  getCollectiveOffer,
  patchCollectiveOffer,
];

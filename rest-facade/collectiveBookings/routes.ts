import { CollectiveBookingFields } from '../collectiveOffers/response.js';
import { CollectiveBookingResponse } from '../collectiveOffers/schemas.js';
import { CollectiveBookingStatusEnum } from '../schemas/enums.js';
import { defineRoute, type GraphDocument } from '../route.js';
import { idInPath } from '../schemas/inputs.js';
import { graphql } from '../subgraphs/graphql.js';
import { z } from '../zod.js';

const bookingParams = z.object({ booking_id: idInPath });

export const cancelCollectiveBooking = defineRoute({
  method: 'patch',
  path: '/v2/collective/bookings/{booking_id}',
  tag: 'Collective Bookings',
  operationId: 'CancelCollectiveBooking',
  summary: 'Cancel a collective booking',
  description:
    'Cancels a pending or confirmed booking of one of your collective offers while the offer is PREBOOKED, BOOKED ' +
    'or ENDED (after the event too, until the booking is used). Any other state is 403.',
  subgraph: 'collective',
  document: graphql.collective(
    'mutation CancelCollectiveBooking($id: Int!) { cancelCollectiveBooking(id: $id) { id } }',
  ),
  request: { params: bookingParams },
  variables: ({ params }) => ({ id: params.booking_id }),
  response: { status: 204, description: 'Cancelled.' },
  errors: [403, 404],
});

const MOCK_TAG = 'Adage Mock (Collective Bookings)';

/** A mutation of a collective booking named by its id. */
type BookingTransition = GraphDocument<unknown, { id: number }>;

function mockTransition<const OperationId extends string, const Path extends string>(options: {
  path: Path;
  operationId: OperationId;
  summary: string;
  description: string;
  document: BookingTransition;
}) {
  return defineRoute({
    method: 'post',
    path: options.path,
    tag: MOCK_TAG,
    operationId: options.operationId,
    summary: options.summary,
    description: `${options.description} Any other state is 403. Not available in production.`,
    subgraph: 'collective',
    document: options.document,
    request: { params: bookingParams },
    variables: ({ params }) => ({ id: params.booking_id }),
    response: { status: 204, description: 'Done.' },
    errors: [403, 404],
    sandboxOnly: true,
  });
}

export const bookCollectiveOffer = defineRoute({
  method: 'post',
  path: '/v2/collective/adage_mock/offer/{offer_id}/book',
  tag: MOCK_TAG,
  operationId: 'AdageMockBookOffer',
  summary: 'Mock: a school pre-books an offer',
  description:
    'What the school platform does when a teacher pre-books: a PENDING booking of a PUBLISHED offer, for the ' +
    'offer’s institution. Any other offer status, or an offer without an institution, is 403; an offer out of ' +
    'reach is 404. Not available in production.',
  subgraph: 'collective',
  document: graphql.collective(
    'mutation AdageMockBookOffer($offerId: Int!) { adageMockBookOffer(offerId: $offerId) { ...CollectiveBookingFields } }',
    [CollectiveBookingFields],
  ),
  request: { params: z.object({ offer_id: idInPath }) },
  variables: ({ params }) => ({ offerId: params.offer_id }),
  response: {
    status: 200,
    description:
      'The booking, PENDING; `bookingId` and `bookingStatus` repeat its id and status, as pass Culture’s mock names them.',
    schema: CollectiveBookingResponse.extend({
      bookingId: z.int(),
      bookingStatus: CollectiveBookingStatusEnum,
    }).openapi('AdageMockBookingResponseModel'),
    select: (data) => ({
      ...data.adageMockBookOffer,
      bookingId: data.adageMockBookOffer.id,
      bookingStatus: data.adageMockBookOffer.status,
    }),
  },
  errors: [403, 404],
  sandboxOnly: true,
});

export const collectiveBookingRoutes = [
  cancelCollectiveBooking,
  bookCollectiveOffer,
  mockTransition({
    path: '/v2/collective/adage_mock/bookings/{booking_id}/confirm',
    operationId: 'ConfirmCollectiveBooking',
    summary: 'Mock: the school confirms a booking',
    description:
      'What the school platform does when the head of school confirms: PENDING becomes CONFIRMED; a CONFIRMED ' +
      'booking stays so (a no-op).',
    document: graphql.collective(
      'mutation ConfirmCollectiveBooking($id: Int!) { adageMockConfirmBooking(id: $id) { id } }',
    ),
  }),
  mockTransition({
    path: '/v2/collective/adage_mock/bookings/{booking_id}/cancel',
    operationId: 'AdageMockCancelCollectiveBooking',
    summary: 'Mock: the school cancels a booking',
    description:
      'What the school platform does when the school cancels: PENDING, CONFIRMED or USED becomes CANCELLED (a used ' +
      'booking is then no longer used).',
    document: graphql.collective(
      'mutation AdageMockCancelCollectiveBooking($id: Int!) { adageMockCancelBooking(id: $id) { id } }',
    ),
  }),
  mockTransition({
    path: '/v2/collective/adage_mock/bookings/{booking_id}/pending',
    operationId: 'ResetCollectiveBooking',
    summary: 'Mock: a booking goes back to pending',
    description: 'Resets a CONFIRMED or CANCELLED booking to PENDING, to replay a scenario; a PENDING one stays so.',
    document: graphql.collective(
      'mutation ResetCollectiveBooking($id: Int!) { adageMockResetBooking(id: $id) { id } }',
    ),
  }),
  mockTransition({
    path: '/v2/collective/adage_mock/bookings/{booking_id}/reimburse',
    operationId: 'ReimburseCollectiveBooking',
    summary: 'Mock: a booking is reimbursed',
    description: 'What the next payment run does: USED becomes REIMBURSED.',
    document: graphql.collective(
      'mutation ReimburseCollectiveBooking($id: Int!) { adageMockReimburseBooking(id: $id) { id } }',
    ),
  }),
  mockTransition({
    path: '/v2/collective/bookings/{booking_id}/use',
    operationId: 'UseCollectiveBooking',
    summary: 'Mock: a booking is used',
    description: 'What happens 48 hours after the event: CONFIRMED becomes USED.',
    document: graphql.collective('mutation UseCollectiveBooking($id: Int!) { adageMockUseBooking(id: $id) { id } }'),
  }),
];

import { bookingStatuses } from '../../graphql/bookings/Booking.js';
import { tokenRule } from '../../graphql/bookings/inputRules.js';
import { defineRoute, type GraphDocument } from '../route.js';
import { dateTime } from '../schemas/common.js';
import { awareDateTimeInput } from '../schemas/datetimes.js';
import { idInQuery, integerInput, id } from '../schemas/inputs.js';
import { pageInput, pageParameters } from '../schemas/pagination.js';
import { graphql } from '../subgraphs/graphql.js';
import { z } from '../zod.js';

const TAG = 'Bookings';

export const BookingStatusEnum = z.enum(bookingStatuses).openapi('BookingStatus');

const GetBookingResponse = z
  .object({
    id: z.int(),
    status: BookingStatusEnum,
    quantity: z.int(),
    price: z.int().openapi({ description: 'Unit price in euro cents.' }),
    creationDate: dateTime,
    confirmationDate: dateTime.nullable().openapi({
      description: 'Events: the cancellation limit, after which the booking is confirmed and may be validated.',
    }),
    offerId: z.int(),
    offerName: z.string(),
    offerEan: z.string().nullable(),
    offerAddress: z.string().nullable(),
    offerDepartmentCode: z.string().nullable(),
    stockId: z.int(),
    priceCategoryId: z.int().nullable(),
    priceCategoryLabel: z.string().nullable(),
    venueId: z.int(),
    venueName: z.string(),
    userEmail: z.string(),
    userFirstName: z.string().nullable(),
    userLastName: z.string().nullable(),
    userBirthDate: z.string().nullable(),
    userPhoneNumber: z.string().nullable(),
    userPostalCode: z.string().nullable(),
  })
  .openapi('GetBookingResponse');

/** The selection of a GetBookingResponse. */
const BookingFields = graphql.bookings(`
  fragment BookingFields on ProviderBooking {
    id status quantity price creationDate confirmationDate offerId offerName offerEan offerAddress offerDepartmentCode
    stockId priceCategoryId priceCategoryLabel venueId venueName userEmail userFirstName userLastName userBirthDate
    userPhoneNumber userPostalCode
  }`);

const tokenParams = z.object({
  token: tokenRule.openapi({
    description: 'The countermark the beneficiary shows (six characters).',
    example: 'AB3KQ9',
  }),
});

export const getBookingsByOffer = defineRoute({
  method: 'get',
  path: '/public/bookings/v1/bookings',
  tag: TAG,
  operationId: 'GetBookingsByOffer',
  summary: 'Get the bookings of an offer',
  description:
    'The bookings of one of your offers, in id order, a page at a time: pass the last id you received plus one as ' +
    '`firstIndex`. Filter by date (`stockId` or `beginningDatetime`), price category or status.',
  subgraph: 'bookings',
  document: graphql.bookings(
    `query GetBookingsByOffer($offerId: Int!, $page: PageInput, $filters: BookingFiltersInput) {
      offerBookings(offerId: $offerId, page: $page, filters: $filters) { ...BookingFields }
    }`,
    [BookingFields],
  ),
  request: {
    query: z.object({
      ...pageParameters,
      offerId: integerInput(id()),
      priceCategoryId: idInQuery(),
      stockId: idInQuery(),
      status: BookingStatusEnum.optional(),
      beginningDatetime: awareDateTimeInput.optional(),
    }),
  },
  variables: ({ query }) => ({
    offerId: query.offerId,
    page: pageInput(query),
    filters: {
      stockId: query.stockId ?? null,
      priceCategoryId: query.priceCategoryId ?? null,
      status: query.status ?? null,
      beginningDatetime: query.beginningDatetime?.toISOString() ?? null,
    },
  }),
  response: {
    status: 200,
    description: 'A page of the bookings.',
    schema: z.object({ bookings: z.array(GetBookingResponse) }).openapi('GetFilteredBookingsResponse'),
    select: (data) => ({ bookings: data.offerBookings }),
  },
  errors: [403, 404],
});

export const getBookingByToken = defineRoute({
  method: 'get',
  path: '/public/bookings/v1/token/{token}',
  tag: TAG,
  operationId: 'GetBookingByToken',
  summary: 'Get the booking behind a countermark',
  description:
    'The booking a beneficiary shows you, if it can be handed over now: 410 when it is already validated or cancelled, ' +
    '403 when it is reimbursed or when the beneficiary may still cancel it (the answer says until when).',
  subgraph: 'bookings',
  document: graphql.bookings(
    'query GetBookingByToken($token: String!) { bookingByToken(token: $token) { ...BookingFields } }',
    [BookingFields],
  ),
  request: { params: tokenParams },
  variables: ({ params }) => ({ token: params.token }),
  response: {
    status: 200,
    description: 'The booking.',
    schema: GetBookingResponse,
    select: (data) => data.bookingByToken,
  },
  errors: [403, 404, 410],
});

/** A mutation of a booking named by its countermark. */
type CountermarkMutation = GraphDocument<unknown, { token: string }>;

function countermarkRoute<const OperationId extends string, const Verb extends 'use' | 'keep' | 'cancel'>(options: {
  verb: Verb;
  operationId: OperationId;
  summary: string;
  description: string;
  document: CountermarkMutation;
  errors: (400 | 403 | 404 | 410)[];
}) {
  return defineRoute({
    method: 'patch',
    path: `/public/bookings/v1/${options.verb}/token/{token}`,
    tag: TAG,
    operationId: options.operationId,
    summary: options.summary,
    description: options.description,
    subgraph: 'bookings',
    document: options.document,
    request: { params: tokenParams },
    variables: ({ params }) => ({ token: params.token }),
    response: { status: 204, description: 'Done.' },
    errors: options.errors,
  });
}

export const validateBookingByToken = countermarkRoute({
  verb: 'use',
  operationId: 'ValidateBookingByToken',
  summary: 'Validate a countermark',
  description:
    'Marks the booking USED: the beneficiary has received it. 403 while an event booking may still be cancelled by its ' +
    'beneficiary (until 48 hours before the event, or 48 hours after booking when that comes first) and for a reimbursed ' +
    'booking; 410 when it is already used or cancelled.',
  document: graphql.bookings('mutation ValidateBookingByToken($token: String!) { useBooking(token: $token) { id } }'),
  errors: [403, 404, 410],
});

export const cancelBookingValidationByToken = countermarkRoute({
  verb: 'keep',
  operationId: 'CancelBookingValidationByToken',
  summary: 'Undo the validation of a countermark',
  description:
    'Turns a USED booking back to CONFIRMED. 403 when it is not used (or reimbursed), 410 when it is cancelled.',
  document: graphql.bookings(
    'mutation CancelBookingValidationByToken($token: String!) { keepBooking(token: $token) { id } }',
  ),
  errors: [403, 404, 410],
});

export const cancelBookingByToken = countermarkRoute({
  verb: 'cancel',
  operationId: 'CancelBookingByToken',
  summary: 'Cancel a booking',
  description:
    'Cancels a booking and refunds its beneficiary: a product at any time, an event only while it may still be cancelled ' +
    '(403 afterwards). 410 when it is already used or cancelled, 403 when reimbursed. A booking with tickets is first ' +
    'cancelled at the ticketing system: 400, and the booking left as it was, when that system does not agree.',
  document: graphql.bookings('mutation CancelBookingByToken($token: String!) { cancelBooking(token: $token) { id } }'),
  errors: [400, 403, 404, 410],
});

export const bookingRoutes = [
  getBookingsByOffer,
  getBookingByToken,
  validateBookingByToken,
  cancelBookingValidationByToken,
  cancelBookingByToken,
];

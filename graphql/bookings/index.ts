import { buildSubgraph, type Subgraph } from '../shared/buildSubgraph.js';
import { Booking } from './Booking.js';
import { bookingInScope, BookingResolver } from './BookingResolver.js';

export const bookingEntities = [Booking];

export function buildBookingsSubgraph(): Subgraph {
  return buildSubgraph({
    name: 'bookings',
    resolvers: [BookingResolver],
    references: {
      Booking: { __resolveReference: (reference, context) => bookingInScope(context, reference.id) },
    },
  });
}

import type { AppEnv } from '../../platform/appEnv.js';
import { buildSubgraph, type Subgraph } from '../shared/buildSubgraph.js';
import { Beneficiary } from './Beneficiary.js';
import { Booking } from './Booking.js';
import { bookingInScope, BookingResolver } from './BookingResolver.js';
import { bookingsInputRules } from './inputRules.js';
import { BookingTicket } from './BookingTicket.js';
import { MessageAttempt } from './MessageAttempt.js';
import { ProviderMessage } from './ProviderMessage.js';
import { SandboxBookingResolver } from './SandboxBookingResolver.js';
import { DeliveryResolver } from './staff/DeliveryResolver.js';
import { MessageAttemptResolver, MessageResolver } from './console/MessageResolver.js';
import { TicketingCheckResolver } from './console/TicketingCheckResolver.js';

export const bookingEntities = [Beneficiary, Booking, BookingTicket, ProviderMessage, MessageAttempt];

/** The sandbox mutations exist outside production only: in production they are not in the schema at all. */
export function buildBookingsSubgraph(appEnv: AppEnv = 'development'): Subgraph {
  return buildSubgraph({
    name: 'bookings',
    resolvers:
      appEnv === 'production'
        ? [BookingResolver, DeliveryResolver, MessageResolver, MessageAttemptResolver, TicketingCheckResolver]
        : [
            BookingResolver,
            DeliveryResolver,
            MessageResolver,
            MessageAttemptResolver,
            TicketingCheckResolver,
            SandboxBookingResolver,
          ],
    references: {
      Booking: { __resolveReference: (reference, context) => bookingInScope(context, reference.id) },
    },
    inputRules: bookingsInputRules,
  });
}

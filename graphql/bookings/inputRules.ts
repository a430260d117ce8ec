import { withoutNul } from '../shared/fieldRules.js';
import type { InputRules } from '../shared/inputRules.js';
import { z } from '../shared/zod.js';
import { TOKEN_LENGTH } from './limits.js';
import { MESSAGE_STATUSES } from './ProviderMessage.js';

/**
 * The countermark a venue types or scans. A token of some length is looked up (and is a 404 when
 * it is none of the caller's); text far longer than any countermark is malformed input (422).
 */
export const tokenRule = withoutNul(
  z
    .string()
    .min(1)
    .max(TOKEN_LENGTH * 4),
);

/** The rules of the bookings subgraph's inputs; the REST facade's schemas are built from the same. */
export const bookingsInputRules: InputRules = {
  types: { DeliveryFilterInput: z.object({ status: z.enum(MESSAGE_STATUSES).nullish() }) },
  arguments: {
    'Query.bookingByToken': { token: tokenRule },
    'Mutation.useBooking': { token: tokenRule },
    'Mutation.keepBooking': { token: tokenRule },
    'Mutation.cancelBooking': { token: tokenRule },
  },
};

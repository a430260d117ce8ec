import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { OfferReference, referenceTo } from '../shared/references.js';
import { findOwnedOrFail } from '../shared/scope.js';
import { Booking } from './Booking.js';

export function bookingInScope(context: GraphContext, id: number): Promise<Booking> {
  return findOwnedOrFail(context, Booking, id, 'Booking not found');
}

@Resolver(() => Booking)
export class BookingResolver {
  @Query(() => Booking, { description: "A booking of one of the calling provider's offers." })
  booking(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<Booking> {
    return bookingInScope(context, id);
  }

  @FieldResolver(() => OfferReference)
  offer(@Root() booking: Booking): OfferReference | null {
    return referenceTo(booking.offer);
  }
}

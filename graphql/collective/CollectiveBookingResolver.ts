import { Arg, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { CollectiveBooking } from './CollectiveBooking.js';
import { moveCollectiveBooking } from './bookingTransitions.js';

@Resolver(() => CollectiveBooking)
export class CollectiveBookingResolver {
  @Mutation(() => CollectiveBooking, {
    description: 'Cancels a pending or confirmed booking of one of your collective offers, until it is used.',
  })
  cancelCollectiveBooking(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<CollectiveBooking> {
    return moveCollectiveBooking(context, id, 'cancelByProvider');
  }
}

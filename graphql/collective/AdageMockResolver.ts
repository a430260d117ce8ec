import { Arg, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { bookCollectiveOffer, moveCollectiveBooking } from './bookingTransitions.js';
import { CollectiveBooking } from './CollectiveBooking.js';

/** What the school platform does to collective bookings, for sandboxes: absent from production's graph. */
@Resolver(() => CollectiveBooking)
export class AdageMockResolver {
  @Mutation(() => CollectiveBooking, { description: 'Sandbox: a teacher pre-books the offer (PENDING).' })
  adageMockBookOffer(
    @Ctx() context: GraphContext,
    @Arg('offerId', () => Int) offerId: number,
  ): Promise<CollectiveBooking> {
    return bookCollectiveOffer(context, offerId);
  }

  @Mutation(() => CollectiveBooking, {
    description: 'Sandbox: the head of school confirms a PENDING booking (a CONFIRMED one stays so).',
  })
  adageMockConfirmBooking(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<CollectiveBooking> {
    return moveCollectiveBooking(context, id, 'confirm');
  }

  @Mutation(() => CollectiveBooking, {
    description: 'Sandbox: the school cancels a PENDING, CONFIRMED or USED booking.',
  })
  adageMockCancelBooking(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<CollectiveBooking> {
    return moveCollectiveBooking(context, id, 'cancelBySchool');
  }

  @Mutation(() => CollectiveBooking, {
    description: 'Sandbox: a CONFIRMED or CANCELLED booking goes back to PENDING (a PENDING one stays so).',
  })
  adageMockResetBooking(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<CollectiveBooking> {
    return moveCollectiveBooking(context, id, 'resetToPending');
  }

  @Mutation(() => CollectiveBooking, { description: 'Sandbox: a USED booking is reimbursed.' })
  adageMockReimburseBooking(
    @Ctx() context: GraphContext,
    @Arg('id', () => Int) id: number,
  ): Promise<CollectiveBooking> {
    return moveCollectiveBooking(context, id, 'reimburse');
  }

  @Mutation(() => CollectiveBooking, {
    description: 'Sandbox: what happens 48 hours after the event: a CONFIRMED booking is USED.',
  })
  adageMockUseBooking(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<CollectiveBooking> {
    return moveCollectiveBooking(context, id, 'use');
  }
}

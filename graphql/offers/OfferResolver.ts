import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { referenceTo, VenueReference } from '../shared/references.js';
import { findOwnedOrFail } from '../shared/scope.js';
import { Offer } from './Offer.js';

export function offerInScope(context: GraphContext, id: number): Promise<Offer> {
  return findOwnedOrFail(context, Offer, id, 'Offer not found');
}

@Resolver(() => Offer)
export class OfferResolver {
  @Query(() => Offer, { description: 'An individual offer created by the calling provider.' })
  offer(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<Offer> {
    return offerInScope(context, id);
  }

  @FieldResolver(() => VenueReference)
  venue(@Root() offer: Offer): VenueReference | null {
    return referenceTo(offer.venue);
  }
}

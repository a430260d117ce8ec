import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { referenceTo, VenueReference } from '../shared/references.js';
import { findOwnedOrFail } from '../shared/scope.js';
import { CollectiveOffer } from './CollectiveOffer.js';

export function collectiveOfferInScope(context: GraphContext, id: number): Promise<CollectiveOffer> {
  return findOwnedOrFail(context, CollectiveOffer, id, 'Collective offer not found');
}

@Resolver(() => CollectiveOffer)
export class CollectiveOfferResolver {
  @Query(() => CollectiveOffer, { description: 'A collective offer created by the calling provider.' })
  collectiveOffer(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<CollectiveOffer> {
    return collectiveOfferInScope(context, id);
  }

  @FieldResolver(() => VenueReference)
  venue(@Root() offer: CollectiveOffer): VenueReference | null {
    return referenceTo(offer.venue);
  }
}

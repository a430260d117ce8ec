import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { NotFoundError } from '../shared/errors.js';
import { referenceTo, VenueReference } from '../shared/references.js';
import { ownedByCaller } from '../shared/scope.js';
import { CollectiveOffer } from './CollectiveOffer.js';

export async function collectiveOfferInScope(context: GraphContext, id: number): Promise<CollectiveOffer> {
  const offer = await context.em.findOne(CollectiveOffer, { id, ...ownedByCaller(context.caller) });
  if (!offer) throw new NotFoundError('Collective offer not found');
  return offer;
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

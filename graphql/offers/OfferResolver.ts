import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { referenceTo, VenueReference } from '../shared/references.js';
import { offerInScope } from './access.js';
import { Offer } from './Offer.js';

@Resolver(() => Offer)
export class OfferResolver {
  @Query(() => Offer, { description: 'An individual offer (event or product) the calling key reaches.' })
  offer(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<Offer> {
    return offerInScope(context, id);
  }

  @FieldResolver(() => VenueReference)
  venue(@Root() offer: Offer): VenueReference | null {
    return referenceTo(offer.venue);
  }
}

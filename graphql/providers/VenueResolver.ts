import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { venueInScope } from './access.js';
import { Venue } from './Venue.js';

@Resolver(() => Venue)
export class VenueResolver {
  @Query(() => Venue, { description: 'A venue the calling key may act on.' })
  venue(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<Venue> {
    return venueInScope(context.em, context.caller, id);
  }
}

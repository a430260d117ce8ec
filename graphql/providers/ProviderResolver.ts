import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import type { ProviderView } from './apiKeys.js';
import { providerInScope, venuesOfProvider } from './access.js';
import { Provider } from './Provider.js';
import { Venue } from './Venue.js';

@Resolver(() => Provider)
export class ProviderResolver {
  @Query(() => Provider, {
    description: "The calling key's provider. Internal keys name the provider with `id`.",
  })
  provider(
    @Ctx() context: GraphContext,
    @Arg('id', () => Int, { nullable: true }) id?: number | null,
  ): Promise<ProviderView> {
    return providerInScope(context, id);
  }

  @FieldResolver(() => [Venue], { description: 'Venues this provider may act on.' })
  venues(@Root() provider: ProviderView, @Ctx() context: GraphContext): Promise<Venue[]> {
    return venuesOfProvider(context.em, context.caller, provider.id);
  }
}

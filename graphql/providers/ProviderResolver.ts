import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ProviderView } from '../shared/caller.js';
import type { GraphContext } from '../shared/context.js';
import { providerInScope, venuesOfProvider } from './access.js';
import { applyExternalUrls, ExternalUrlsInput } from './externalUrls.js';
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

  @Mutation(() => Provider, {
    description: 'Changes the URLs through which the platform reaches the provider ticketing system.',
  })
  async updateProvider(
    @Ctx() context: GraphContext,
    @Arg('input', () => ExternalUrlsInput) input: ExternalUrlsInput,
    @Arg('id', () => Int, { nullable: true }) id?: number | null,
  ): Promise<Provider> {
    const { id: providerId } = await providerInScope(context, id);
    const provider = await context.em.findOneOrFail(Provider, providerId);
    applyExternalUrls(provider, input);
    await context.em.flush();
    return provider;
  }

  @FieldResolver(() => [Venue], { description: 'Venues this provider may act on.' })
  venues(@Root() provider: ProviderView, @Ctx() context: GraphContext): Promise<Venue[]> {
    return venuesOfProvider(context.em, context.caller, provider.id);
  }
}

import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ProviderView } from '../shared/caller.js';
import type { GraphContext } from '../shared/context.js';
import { providerInScope, venuesOfProvider } from './access.js';
import { ExternalUrlsInput } from './externalUrls.js';
import { Provider } from './Provider.js';
import { changeTicketingUrls, refuseUncallableUrls } from './ticketingUrls.js';
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
    description:
      'Changes the URLs through which the platform reaches the provider ticketing system: bookingUrl and ' +
      'cancelUrl are set together or not at all, and not unset while events with tickets have dates ahead.',
  })
  async updateProvider(
    @Ctx() context: GraphContext,
    @Arg('input', () => ExternalUrlsInput) input: ExternalUrlsInput,
    @Arg('id', () => Int, { nullable: true }) id?: number | null,
  ): Promise<Provider> {
    const { id: providerId } = await providerInScope(context, id);
    await refuseUncallableUrls(context.services.outbound, input);
    return context.em.transactional(async (em) => {
      const provider = await em.findOneOrFail(Provider, providerId);
      await changeTicketingUrls(context, em, provider, input, { providerId, venueId: null });
      await em.flush();
      return provider;
    });
  }

  @FieldResolver(() => [Venue], { description: 'Venues this provider may act on.' })
  venues(@Root() provider: ProviderView, @Ctx() context: GraphContext): Promise<Venue[]> {
    return venuesOfProvider(context.em, context.caller, provider.id);
  }
}

import { Arg, Ctx, Field, FieldResolver, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { NotFoundError } from '../shared/errors.js';
import { isView } from '../../platform/sql/entityViews.js';
import { oncePerRequest, rememberedForRequest, rememberForRequest } from '../shared/requestMemo.js';
import { venueInScope, venueLinkInScope, venueViewsOfCaller } from './access.js';
import { ExternalUrls, ExternalUrlsInput } from './externalUrls.js';
import { changeTicketingUrls, refuseUncallableUrls } from './ticketingUrls.js';
import { Address } from './Address.js';
import { Provider } from './Provider.js';
import { Offerer } from './Offerer.js';
import { Venue } from './Venue.js';
import { VenueProvider } from './VenueProvider.js';

@ObjectType({ description: 'An offerer and those of its venues the calling key may act on.' })
export class OffererVenues {
  @Field(() => Offerer)
  offerer!: Offerer;

  @Field(() => [Venue])
  venues!: Venue[];
}

const CALLER_LINKS = 'providers.callerLinks';

/** The caller's links to venues, loaded once per request for every venue of an answer. */
function callerLinks(context: GraphContext): Promise<Map<number, VenueProvider>> {
  return oncePerRequest(context, CALLER_LINKS, async () => {
    if (context.caller.kind !== 'provider') return new Map<number, VenueProvider>();
    const links = await context.em.find(VenueProvider, { provider: context.caller.providerId, isActive: true });
    return new Map(links.map((link) => [link.venue.id, link]));
  });
}

function urlsOf(link: VenueProvider | undefined): ExternalUrls | null {
  return link
    ? { bookingUrl: link.bookingUrl, cancelUrl: link.cancelUrl, notificationUrl: link.notificationUrl }
    : null;
}

@Resolver(() => Venue)
export class VenueResolver {
  @Query(() => Venue, { description: 'A venue the calling key may act on.' })
  venue(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<Venue> {
    return venueInScope(context.em, context.caller, id);
  }

  @Query(() => Venue, {
    description: 'A venue the calling key may act on, by SIRET (or New Caledonian RIDET: NC, digits, XX).',
  })
  async venueBySiret(@Ctx() context: GraphContext, @Arg('siret', () => String) siret: string): Promise<Venue> {
    const venue = await context.em.findOne(Venue, { siret });
    if (!venue) throw new NotFoundError('Venue not found');
    return venueInScope(context.em, context.caller, venue.id);
  }

  @Query(() => [OffererVenues], {
    description: 'The offerers of the venues the calling key may act on, each with those venues.',
  })
  async offererVenues(
    @Ctx() context: GraphContext,
    @Arg('siren', () => String, { nullable: true }) siren?: string | null,
  ): Promise<OffererVenues[]> {
    const { venues, links } = await venueViewsOfCaller(context);
    rememberForRequest(context, CALLER_LINKS, links);
    const byOfferer = new Map<number, OffererVenues>();
    for (const venue of venues) {
      const offerer = venue.offerer;
      if (siren && offerer.siren !== siren) continue;
      const group = byOfferer.get(offerer.id) ?? { offerer, venues: [] };
      group.venues.push(venue);
      byOfferer.set(offerer.id, group);
    }
    return [...byOfferer.values()];
  }

  @Mutation(() => Boolean, {
    description:
      "Sets a venue's own ticketing and notification URLs, which take priority over the provider's: bookingUrl and " +
      "cancelUrl are set together or not at all, and not unset while the venue's events with tickets have dates " +
      "ahead (unless the provider's own URLs take over).",
  })
  async updateVenueExternalUrls(
    @Ctx() context: GraphContext,
    @Arg('venueId', () => Int) venueId: number,
    @Arg('input', () => ExternalUrlsInput) input: ExternalUrlsInput,
  ): Promise<boolean> {
    await refuseUncallableUrls(context.services.outbound, input);
    return context.em.transactional(async (em) => {
      const link = await venueLinkInScope(em, context.caller, venueId);
      const provider = await em.findOneOrFail(Provider, link.provider.id);
      await changeTicketingUrls(context, em, link, input, {
        providerId: provider.id,
        venueId: link.venue.id,
        fallback: provider,
      });
      await em.flush();
      return true;
    });
  }

  // The field resolvers answer at once when the venue is a view with what its query joined: a
  // promise per venue and field would make GraphQL complete every venue of a list one by one.
  @FieldResolver(() => Offerer)
  offerer(@Root() venue: Venue, @Ctx() context: GraphContext): Offerer | Promise<Offerer> {
    if (isView(venue)) return venue.offerer;
    return context.em.populate(venue, ['offerer']).then(() => venue.offerer);
  }

  @FieldResolver(() => Address, { nullable: true, description: 'Null for a digital venue.' })
  address(@Root() venue: Venue, @Ctx() context: GraphContext): Address | null | Promise<Address | null> {
    if (!venue.address || isView(venue)) return venue.address;
    return context.em.populate(venue, ['address']).then(() => venue.address);
  }

  @FieldResolver(() => ExternalUrls, {
    nullable: true,
    description: "The venue's own URLs for the calling provider (null for internal keys).",
  })
  externalUrls(@Root() venue: Venue, @Ctx() context: GraphContext): ExternalUrls | null | Promise<ExternalUrls | null> {
    const known = rememberedForRequest<Map<number, VenueProvider>>(context, CALLER_LINKS);
    if (known) return urlsOf(known.get(venue.id));
    return callerLinks(context).then((links) => urlsOf(links.get(venue.id)));
  }
}

import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { recordStaffAction } from '../../shared/audit.js';
import type { ProviderView } from '../../shared/caller.js';
import type { GraphContext } from '../../shared/context.js';
import { BadRequestError, NotFoundError } from '../../shared/errors.js';
import { requireRole } from '../../shared/internalOnly.js';
import { PageInput } from '../../shared/pagination.js';
import { ApiKey } from '../ApiKey.js';
import { createApiKey, setIndividualOfferRights, setProviderActive } from '../administration.js';
import { Offerer } from '../Offerer.js';
import { Provider } from '../Provider.js';
import { newMessagingSecret } from '../sandbox.js';
import { VenueProvider } from '../VenueProvider.js';
import { searchProviders } from './providerSearch.js';
import { IssuedApiKeyPayload, MessagingSecretPayload, VenueLink } from './StaffTypes.js';
import { StaffOnly } from '../../shared/staffOnly.js';

const READ = 'read across providers';
const ADMINISTER = 'administer providers';
const MANAGE_KEYS = 'issue and revoke keys';

/** What the back office reads and changes of providers: every field and operation here is internal-only. */
@Resolver(() => Provider)
export class StaffProviderResolver {
  @StaffOnly()
  @Query(() => [Provider], {
    description:
      'Internal tools: providers whose name holds `search` (any case) or acting for the offerer of that SIREN; ' +
      'every provider without it. One page in id order.',
  })
  providers(
    @Ctx() context: GraphContext,
    @Arg('search', () => String, { nullable: true }) search: string | null,
    @Arg('page', () => PageInput, { nullable: true }) page: PageInput | null,
  ): Promise<Provider[]> {
    requireRole(context.caller, 'support', READ);
    return searchProviders(context.em, search, page ?? new PageInput());
  }

  @StaffOnly()
  @FieldResolver(() => Boolean, { description: 'Internal tools: whether the provider may manage individual offers.' })
  async canManageIndividualOffers(@Root() provider: ProviderView, @Ctx() context: GraphContext): Promise<boolean> {
    requireRole(context.caller, 'support', READ);
    return provider.canManageIndividualOffers;
  }

  @StaffOnly()
  @FieldResolver(() => [Offerer], { description: 'Internal tools: the offerers of its venues and of its keys.' })
  async offerers(@Root() provider: ProviderView, @Ctx() context: GraphContext): Promise<Offerer[]> {
    requireRole(context.caller, 'support', READ);
    return context.em.find(
      Offerer,
      {
        $or: [
          { id: { $in: await offererIdsOfLinks(context, provider.id) } },
          { id: { $in: await offererIdsOfKeys(context, provider.id) } },
        ],
      },
      { orderBy: { id: 'asc' } },
    );
  }

  @StaffOnly()
  @FieldResolver(() => [VenueLink], {
    description: 'Internal tools: its links to venues, active or not, with the venues’ own messaging URLs.',
  })
  async venueLinks(@Root() provider: ProviderView, @Ctx() context: GraphContext): Promise<VenueLink[]> {
    requireRole(context.caller, 'support', READ);
    const links = await context.em.find(
      VenueProvider,
      { provider: provider.id },
      { populate: ['venue'], orderBy: { venue: { id: 'asc' } } },
    );
    return links.map((link) => ({
      venueId: link.venue.id,
      venueName: link.venue.publicName ?? link.venue.legalName,
      siret: link.venue.siret,
      offererId: link.venue.offerer.id,
      isActive: link.isActive,
      bookingUrl: link.bookingUrl,
      cancelUrl: link.cancelUrl,
      notificationUrl: link.notificationUrl,
    }));
  }

  @StaffOnly()
  @FieldResolver(() => [ApiKey], { description: 'Internal tools: its keys, revoked ones included, in issue order.' })
  apiKeys(@Root() provider: ProviderView, @Ctx() context: GraphContext): Promise<ApiKey[]> {
    requireRole(context.caller, 'support', READ);
    return context.em.find(ApiKey, { provider: provider.id }, { orderBy: { id: 'asc' } });
  }

  @StaffOnly()
  @Mutation(() => Provider, {
    description: 'Internal tools: activates or deactivates a provider (its keys then get 403).',
  })
  setProviderActive(
    @Ctx() context: GraphContext,
    @Arg('providerId', () => Int) providerId: number,
    @Arg('isActive', () => Boolean) isActive: boolean,
  ): Promise<Provider> {
    requireRole(context.caller, 'admin', ADMINISTER);
    return context.em.transactional(async (em) => {
      const before = { isActive: (await em.findOne(Provider, providerId))?.isActive ?? null };
      const provider = await setProviderActive(em, providerId, isActive);
      const facts = { before, after: { isActive: provider.isActive } };
      await recordStaffAction(em, context, {
        action: 'provider.activation_changed',
        target: targetOf(provider),
        ...facts,
      });
      return provider;
    });
  }

  @StaffOnly()
  @Mutation(() => Provider, {
    description: "Internal tools: grants or withdraws a provider's individual-offer rights.",
  })
  setIndividualOfferRights(
    @Ctx() context: GraphContext,
    @Arg('providerId', () => Int) providerId: number,
    @Arg('allowed', () => Boolean) allowed: boolean,
  ): Promise<Provider> {
    requireRole(context.caller, 'admin', ADMINISTER);
    return context.em.transactional(async (em) => {
      const before = {
        canManageIndividualOffers: (await em.findOne(Provider, providerId))?.canManageIndividualOffers ?? null,
      };
      const provider = await setIndividualOfferRights(em, providerId, allowed);
      const after = { canManageIndividualOffers: provider.canManageIndividualOffers };
      await recordStaffAction(em, context, {
        action: 'provider.offer_rights_changed',
        target: targetOf(provider),
        before,
        after,
      });
      return provider;
    });
  }

  @StaffOnly()
  @Mutation(() => IssuedApiKeyPayload, {
    description: 'Internal tools: issues a key to a provider (optionally limited to one offerer); shown once.',
  })
  async issueApiKey(
    @Ctx() context: GraphContext,
    @Arg('providerId', () => Int) providerId: number,
    @Arg('offererId', () => Int, { nullable: true }) offererId: number | null,
    @Arg('label', () => String, { nullable: true }) label: string | null,
  ): Promise<IssuedApiKeyPayload> {
    requireRole(context.caller, 'support', MANAGE_KEYS);
    return context.em.transactional(async (em) => {
      const issued = await createApiKey(em, context.clock, {
        env: context.appEnv,
        providerId,
        offererId: offererId ?? undefined,
        internal: false,
        label,
      });
      await recordStaffAction(em, context, {
        action: 'api_key.issued',
        target: { type: 'api_key', id: issued.apiKey.id },
        after: { prefix: issued.apiKey.prefix, providerId, offererId: offererId ?? null, label: issued.apiKey.label },
      });
      return { key: issued.key, apiKey: issued.apiKey };
    });
  }

  @StaffOnly()
  @Mutation(() => ApiKey, { description: 'Internal tools: revokes a provider key; it gets 401 from then on.' })
  async revokeApiKey(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<ApiKey> {
    requireRole(context.caller, 'support', MANAGE_KEYS);
    return context.em.transactional(async (em) => {
      const apiKey = await em.findOne(ApiKey, { id, isInternal: false });
      if (!apiKey) throw new NotFoundError('API key not found');
      if (apiKey.revokedAt) throw BadRequestError.on('id', 'This key is revoked already');
      apiKey.revokedAt = context.clock.now();
      await recordStaffAction(em, context, {
        action: 'api_key.revoked',
        target: { type: 'api_key', id },
        before: { prefix: apiKey.prefix, revokedAt: null },
        after: { prefix: apiKey.prefix, revokedAt: apiKey.revokedAt.toISOString() },
      });
      return apiKey;
    });
  }

  @StaffOnly()
  @Mutation(() => MessagingSecretPayload, {
    description: "Internal tools: replaces a provider's messaging secret; the new one is shown in this answer only.",
  })
  async rotateMessagingSecret(
    @Ctx() context: GraphContext,
    @Arg('providerId', () => Int) providerId: number,
  ): Promise<MessagingSecretPayload> {
    requireRole(context.caller, 'admin', ADMINISTER);
    return context.em.transactional(async (em) => {
      const provider = await em.findOne(Provider, providerId);
      if (!provider) throw new NotFoundError('Provider not found');
      const secret = newMessagingSecret();
      provider.messagingSecret = secret;
      // Neither secret is written: the entry says that it changed, by whom and when.
      await recordStaffAction(em, context, { action: 'provider.messaging_secret_rotated', target: targetOf(provider) });
      return { providerId, secret };
    });
  }
}

const targetOf = (provider: Provider) => ({ type: 'provider' as const, id: provider.id });

async function offererIdsOfLinks(context: GraphContext, providerId: number): Promise<number[]> {
  const links = await context.em.find(VenueProvider, { provider: providerId }, { populate: ['venue'] });
  return links.map((link) => link.venue.offerer.id);
}

async function offererIdsOfKeys(context: GraphContext, providerId: number): Promise<number[]> {
  const keys = await context.em.find(ApiKey, { provider: providerId, offerer: { $ne: null } });
  return keys.flatMap((key) => key.offerer?.id ?? []);
}

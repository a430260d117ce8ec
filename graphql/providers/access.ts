import type { EntityManager } from '@mikro-orm/core';
import type { Caller, ProviderView } from '../shared/caller.js';
import type { GraphContext } from '../shared/context.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import { Provider } from './Provider.js';
import { Venue } from './Venue.js';
import { VenueProvider } from './VenueProvider.js';

/**
 * The provider whose data the caller sees: its own for a provider key; the one it
 * names for an internal key.
 */
export async function providerInScope(context: GraphContext, requestedId?: number | null): Promise<ProviderView> {
  const { em, caller } = context;
  if (caller.kind === 'provider') {
    if (requestedId != null && requestedId !== caller.providerId) {
      throw new NotFoundError('Provider not found');
    }
    return context.callerProvider ?? em.findOneOrFail(Provider, caller.providerId);
  }
  if (requestedId == null) {
    throw new ForbiddenError('An internal key must name the provider (argument id)');
  }
  const provider = await em.findOne(Provider, requestedId);
  if (!provider) throw new NotFoundError('Provider not found');
  return provider;
}

/** Venues a provider may act on: linked to it, and for a provider key, of the key's offerer. */
export async function venuesOfProvider(em: EntityManager, caller: Caller, providerId: number): Promise<Venue[]> {
  const links = await em.find(
    VenueProvider,
    {
      provider: providerId,
      isActive: true,
      ...(caller.kind === 'provider' && caller.offererId != null ? { venue: { offerer: caller.offererId } } : {}),
    },
    { populate: ['venue', 'venue.offerer', 'venue.address'], orderBy: { venue: { id: 'asc' } } },
  );
  return links.map((link) => link.venue);
}

/** The provider key's link to a venue, or not found: never reveal another provider's venue. */
export async function venueLinkInScope(em: EntityManager, caller: Caller, venueId: number): Promise<VenueProvider> {
  if (caller.kind === 'internal') throw new NotFoundError('Venue not found');
  const link = await em.findOne(
    VenueProvider,
    {
      venue: { id: venueId, ...(caller.offererId != null ? { offerer: caller.offererId } : {}) },
      provider: caller.providerId,
      isActive: true,
    },
    { populate: ['venue'] },
  );
  if (!link) throw new NotFoundError('Venue not found');
  return link;
}

/** A venue the caller may reach, or not found. Internal keys reach every venue. */
export async function venueInScope(em: EntityManager, caller: Caller, venueId: number): Promise<Venue> {
  if (caller.kind === 'internal') {
    const venue = await em.findOne(Venue, venueId);
    if (!venue) throw new NotFoundError('Venue not found');
    return venue;
  }
  return (await venueLinkInScope(em, caller, venueId)).venue;
}

import type { EntityManager } from '@mikro-orm/core';
import type { Caller, ProviderView } from '../shared/caller.js';
import type { GraphContext } from '../shared/context.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import { viewColumns, viewOf } from '../../platform/sql/entityViews.js';
import { selectRows } from '../../platform/sql/sqlText.js';
import { Address } from './Address.js';
import { Offerer } from './Offerer.js';
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

export interface VenueViewsOfCaller {
  /** Views with their offerer and address joined (entityViews.ts), in id order. */
  venues: Venue[];
  /** The caller's links to those venues, by venue id. */
  links: Map<number, VenueProvider>;
}

/**
 * `venuesOfProvider` for the caller's own provider, read as views in one query with each
 * venue's offerer, address and link: what an answer listing the venues shows, at a poll's cost.
 */
export async function venueViewsOfCaller(context: GraphContext): Promise<VenueViewsOfCaller> {
  const { em, caller } = context;
  if (caller.kind !== 'provider') return { venues: [], links: new Map() };
  const params: unknown[] = [caller.providerId, true];
  let byOfferer = '';
  if (caller.offererId != null) {
    byOfferer = ' and v.offerer_id = ?';
    params.push(caller.offererId);
  }
  const rows = await selectRows<Record<string, unknown>>(
    em,
    `select v.*, ${viewColumns(em, Offerer, 'o', 'offerer__')}, ${viewColumns(em, Address, 'a', 'address__')}, ` +
      `${viewColumns(em, VenueProvider, 'vp', 'link__')} from venue_provider vp join venue v on v.id = vp.venue_id ` +
      'join offerer o on o.id = v.offerer_id left join address a on a.id = v.address_id ' +
      `where vp.provider_id = ? and vp.is_active = ?${byOfferer} order by v.id`,
    params,
  );
  const links = new Map<number, VenueProvider>();
  const venues = rows.map((row) => {
    const venue = viewOf(em, Venue, row);
    venue.offerer = viewOf(em, Offerer, row, 'offerer__');
    venue.address = row.address__id == null ? null : viewOf(em, Address, row, 'address__');
    links.set(venue.id, viewOf(em, VenueProvider, row, 'link__'));
    return venue;
  });
  return { venues, links };
}

/** The provider key's link to a venue, or not found: never reveal another provider's venue. */
export async function venueLinkInScope(em: EntityManager, caller: Caller, venueId: number): Promise<VenueProvider> {
  if (caller.kind !== 'provider') throw new NotFoundError('Venue not found');
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

/** A venue the caller may reach, or not found. Internal keys and staff reach every venue. */
export async function venueInScope(em: EntityManager, caller: Caller, venueId: number): Promise<Venue> {
  if (caller.kind !== 'provider') {
    const venue = await em.findOne(Venue, venueId);
    if (!venue) throw new NotFoundError('Venue not found');
    return venue;
  }
  return (await venueLinkInScope(em, caller, venueId)).venue;
}

/**
 * Whether the calling provider's link to a venue is active: a provider key reaches the offers and
 * bookings of a venue only while it is, and they are not found (404) once it is deactivated, as pass
 * Culture answers. Internal keys are not asked. On a statement prepared once (sqlText.ts): through
 * em.count, MikroORM's query builder and knex built and prepared it anew on each read, about a
 * tenth of a one-event read's time and a fifth of a countermark lookup's on SQLite (npm run bench).
 */
export async function hasActiveVenueLink(context: GraphContext, venueId: number): Promise<boolean> {
  const { caller } = context;
  if (caller.kind !== 'provider') return true;
  const [link] = await selectRows(
    context.em,
    'select 1 as linked from venue_provider where venue_id = ? and provider_id = ? and is_active = ?',
    [venueId, caller.providerId, true],
  );
  return link !== undefined;
}

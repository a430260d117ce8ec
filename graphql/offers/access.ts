import type { FilterQuery } from '@mikro-orm/core';
import type { GraphContext } from '../shared/context.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import { viewOf } from '../../platform/sql/entityViews.js';
import { selectRows } from '../../platform/sql/sqlText.js';
import { hasActiveVenueLink } from '../providers/access.js';
import { Offer } from './Offer.js';

/** A provider whose right to manage individual offers was withdrawn gets 403 on them. */
export function requireIndividualOfferRights(context: GraphContext): void {
  if (
    context.caller.kind === 'provider' &&
    context.callerProvider &&
    !context.callerProvider.canManageIndividualOffers
  ) {
    throw new ForbiddenError('Your provider is not allowed to manage individual offers');
  }
}

/** The provider on whose behalf offers are created or changed: provider keys only (403 otherwise). */
export function callerProviderId(context: GraphContext): number {
  if (context.caller.kind !== 'provider') throw new ForbiddenError('Only a provider key can create or change offers');
  return context.caller.providerId;
}

/**
 * The offers a key reaches: created by its provider, on venues of the key's offerer that
 * are still linked to the provider. Internal keys and staff reach every offer.
 */
export function reachableOffers(context: GraphContext): FilterQuery<Offer> {
  const { caller } = context;
  if (caller.kind !== 'provider') return {};
  return {
    provider: caller.providerId,
    venue: caller.offererId != null ? { offerer: caller.offererId } : {},
  };
}

/**
 * `reachableOffers` as SQL conditions on `offer o join venue v`, for the reads that every poll
 * makes (written as SQL text: see sqlText.ts).
 */
export function reachableOfferConditions(context: GraphContext): { where: string[]; params: unknown[] } {
  const { caller } = context;
  if (caller.kind !== 'provider') return { where: [], params: [] };
  if (caller.offererId == null) return { where: ['o.provider_id = ?'], params: [caller.providerId] };
  return { where: ['o.provider_id = ?', 'v.offerer_id = ?'], params: [caller.providerId, caller.offererId] };
}

function offerNotFound(kind: 'event' | 'product' | 'any'): NotFoundError {
  return new NotFoundError(
    kind === 'product' ? 'Product offer not found' : kind === 'event' ? 'Event offer not found' : 'Offer not found',
  );
}

/** One offer the key reaches, of the given kind, to be read only: a view (entityViews.ts), or 404. */
export async function offerViewInScope(
  context: GraphContext,
  id: number,
  kind: 'event' | 'product' | 'any' = 'any',
): Promise<Offer> {
  requireIndividualOfferRights(context);
  const { where, params } = reachableOfferConditions(context);
  where.unshift('o.id = ?');
  params.unshift(id);
  if (kind !== 'any') {
    where.push('o.is_event = ?');
    params.push(kind === 'event');
  }
  const [row] = await selectRows<Record<string, unknown>>(
    context.em,
    `select o.* from offer o join venue v on v.id = o.venue_id where ${where.join(' and ')}`,
    params,
  );
  if (!row) throw offerNotFound(kind);
  if (kind !== 'any') await requireActiveVenueLink(context, row.venue_id as number, kind);
  return viewOf(context.em, Offer, row);
}

/**
 * A provider key acts on an event or a product (their dates, price categories and image included)
 * only while its provider's link to the offer's venue is active: once the link is deactivated,
 * they are out of reach (404), as pass Culture answers. `offerInScope` and `offerViewInScope` ask
 * it for an event or a product; lookups of any offer (the graph's references from bookings) do
 * not, and the image upload, which takes either, asks it itself.
 */
export async function requireActiveVenueLink(
  context: GraphContext,
  venueId: number,
  kind: 'event' | 'product' | 'any',
): Promise<void> {
  if (!(await hasActiveVenueLink(context, venueId))) throw offerNotFound(kind);
}

/** One offer the key reaches, of the given kind, or 404 (never 403: nothing is revealed). */
export async function offerInScope(
  context: GraphContext,
  id: number,
  kind: 'event' | 'product' | 'any' = 'any',
): Promise<Offer> {
  requireIndividualOfferRights(context);
  const offer = await context.em.findOne(Offer, {
    $and: [{ id }, reachableOffers(context), kind === 'any' ? {} : { isEvent: kind === 'event' }],
  });
  if (!offer) throw offerNotFound(kind);
  if (kind !== 'any') await requireActiveVenueLink(context, offer.venue.id, kind);
  return offer;
}

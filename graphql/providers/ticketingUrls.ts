import type { EntityManager } from '@mikro-orm/core';
import type { GraphContext } from '../shared/context.js';
import { BadRequestError } from '../shared/errors.js';
import type { Outbound } from '../../platform/outbound/index.js';
import { applyExternalUrls, externalUrlFields, type ExternalUrlField, type ExternalUrlsInput } from './externalUrls.js';

declare module '../shared/domainEvents.js' {
  interface DomainEventMap {
    /**
     * A provider (venueId null) or one of its venues is about to lose its ticketing URLs. The
     * offers subgraph, which owns the events, refuses (400) while events of the provider that sell
     * tickets through those URLs still have dates ahead of `at`; the change then rolls back.
     */
    'providers.ticketingUrlsUnset': { providerId: number; venueId: number | null; at: Date };
  }
}

type Urls = Record<ExternalUrlField, string | null>;

const TOGETHER = 'Set bookingUrl and cancelUrl together, or unset both: a ticketing system is reached through both';

/**
 * Applies a change of URLs to a provider or a venue's link, in the caller's unit of work. The
 * booking and cancellation URLs end up both set or both unset (400 naming the one missing);
 * unsetting both publishes `providers.ticketingUrlsUnset`, whose handler may refuse. For a
 * venue, that check applies only where the provider's own URLs would not take over.
 */
export async function changeTicketingUrls(
  context: Pick<GraphContext, 'clock' | 'events'>,
  em: EntityManager,
  target: Urls,
  input: ExternalUrlsInput,
  scope: { providerId: number; venueId: number | null; fallback?: Urls },
): Promise<void> {
  const wereSet = target.bookingUrl != null || target.cancelUrl != null;
  applyExternalUrls(target, input);
  if (input.bookingUrl === undefined && input.cancelUrl === undefined) return;
  if ((target.bookingUrl == null) !== (target.cancelUrl == null)) {
    throw BadRequestError.on(target.bookingUrl == null ? 'bookingUrl' : 'cancelUrl', TOGETHER);
  }
  const fallbackSet = scope.fallback?.bookingUrl != null && scope.fallback.cancelUrl != null;
  if (wereSet && target.bookingUrl == null && !fallbackSet) {
    await context.events.publish(em, 'providers.ticketingUrlsUnset', {
      providerId: scope.providerId,
      venueId: scope.venueId,
      at: context.clock.now(),
    });
  }
}

/**
 * Refuses (400 naming each field) the URLs of a change that the platform would not call: in
 * production anything but https on the default port, and, unless OUTBOUND_ALLOW_PRIVATE, an
 * address outside the public Internet or a name resolving to one. Run before the change's
 * transaction: resolving a name may take a moment and must hold no connection.
 */
export async function refuseUncallableUrls(
  outbound: Pick<Outbound, 'savedUrlRefusal'>,
  input: ExternalUrlsInput,
): Promise<void> {
  const refusals: Record<string, string[]> = {};
  for (const field of externalUrlFields) {
    const url = input[field];
    const refusal = url ? await outbound.savedUrlRefusal(url) : null;
    if (refusal) refusals[field] = [refusal];
  }
  if (Object.keys(refusals).length > 0) throw new BadRequestError(refusals);
}

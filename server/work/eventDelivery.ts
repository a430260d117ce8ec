import type { DomainEventName } from '../../graphql/shared/domainEvents.js';
import type { SubgraphName } from '../../graphql/subgraphNames.js';

/**
 * How a domain event reaches the handler of a subgraph that another process hosts:
 *
 * - `outbox`: an effect that its publisher does not wait for. The publishing process writes a
 *   job in the publisher's transaction (a transactional outbox: the cause and the job commit or
 *   roll back together), and the process hosting the handler runs it in that job's transaction,
 *   moments later, at least once.
 * - `inTransaction`: the publisher needs the handler's answer before it commits, so the handler
 *   runs in the publishing process, inside its transaction, whichever process hosts its
 *   subgraph. A compromise of one codebase on one database: it reads and writes the other
 *   subgraph's tables from the publisher's process.
 *
 * Every event a subgraph subscribes to must be classified here: registering an unclassified one
 * fails at start-up, rather than a split deployment silently turning a veto into an effect.
 */
export type EventDelivery = 'outbox' | 'inTransaction';

const deliveries: { readonly [Name in DomainEventName]?: EventDelivery } = {
  // Bookings cancel or move the bookings of a deleted or rescheduled date; the date's change does not wait for it.
  'offers.stockDeleted': 'outbox',
  'offers.dateRescheduled': 'outbox',
  // A veto: the offers' handler refuses (throws) while events sell tickets through those URLs.
  'providers.ticketingUrlsUnset': 'inTransaction',
  // reviewOffer answers with the collective offer as decided (its displayedStatus), and a 404 when the
  // collective subgraph has no such offer: both come from the handler, before the commit.
  'offers.collectiveReviewDecided': 'inTransaction',
  // The sandbox clock: the handlers add what they ran to the `done` tally that the mutation answers with.
  'sandbox.scheduledJobsDue': 'inTransaction',
};

export function deliveryOf(name: DomainEventName): EventDelivery {
  const delivery = deliveries[name];
  if (!delivery) throw new Error(`Domain event "${name}" has no delivery: classify it in server/work/eventDelivery.ts`);
  return delivery;
}

/**
 * The job that carries `name` to the handlers of `subgraph` in the process hosting it. Stored with
 * every queued job: renaming an event or a subgraph strands the jobs already in a database.
 */
export function forwardedEventJob(subgraph: SubgraphName, name: DomainEventName): string {
  return `${FORWARDED_EVENT_JOB_PREFIX}${subgraph}.${name}`;
}

/** What every forwarded event's job type starts with. */
export const FORWARDED_EVENT_JOB_PREFIX = 'domainEvent.';

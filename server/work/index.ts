import { registerBookingsWork } from '../../graphql/bookings/work.js';
import { registerCollectiveWork } from '../../graphql/collective/work.js';
import { registerOffersWork } from '../../graphql/offers/work.js';
import type { DomainEventHandler, DomainEventMap, DomainEventName } from '../../graphql/shared/domainEvents.js';
import { enqueue } from '../../platform/jobs/outbox.js';
import type { Outbound } from '../../platform/outbound/index.js';
import type { WorkPorts } from '../../graphql/shared/work.js';
import { type SubgraphName, subgraphNames } from '../../graphql/subgraphNames.js';
import { decodeEventPayload, encodeEventPayload } from './eventPayload.js';
import { deliveryOf, forwardedEventJob } from './eventDelivery.js';

export interface WorkOptions {
  /** The subgraphs whose jobs, periodic tasks and event effects run in this process. */
  hosted: readonly SubgraphName[];
  outbound: Pick<Outbound, 'toProviders'>;
  /** Outside production, how long a new offer waits for its automatic approval; null: never. */
  autoApprovalDelayMs: number | null;
}

const subgraphWork: Record<SubgraphName, (ports: WorkPorts, options: WorkOptions) => void> = {
  // The providers subgraph has no background work: it only publishes.
  providers: () => {},
  offers: (ports, { autoApprovalDelayMs }) => registerOffersWork(ports, { autoApprovalDelayMs }),
  bookings: (ports, { outbound }) => registerBookingsWork(ports, { outbound }),
  collective: (ports) => registerCollectiveWork(ports),
};

/**
 * Registers every subgraph's background work on this process's worker, scheduler and bus, each
 * through ports that fit where it runs: its own work for a subgraph hosted here, and for one
 * hosted elsewhere only what hands its events over (see eventDelivery.ts). With every subgraph
 * hosted, handlers run inline as they always did, and no event goes through a job.
 */
export function registerWork(process: WorkPorts, options: WorkOptions): void {
  for (const subgraph of subgraphNames) {
    const ports = options.hosted.includes(subgraph)
      ? hostedPorts(subgraph, process)
      : forwardingPorts(subgraph, process);
    subgraphWork[subgraph](ports, options);
  }
}

/**
 * The process's own ports, and for each event effect the subgraph handles, a job that runs its
 * handlers on an event another process handed over through the outbox.
 */
function hostedPorts(subgraph: SubgraphName, process: WorkPorts): WorkPorts {
  const received = new Map<DomainEventName, DomainEventHandler<never>[]>();
  return {
    ...process,
    events: {
      publish: process.events.publish.bind(process.events),
      on<Name extends DomainEventName>(name: Name, handler: DomainEventHandler<Name>) {
        process.events.on(name, handler);
        if (deliveryOf(name) !== 'outbox') return;
        const handlers = received.get(name) ?? [];
        if (handlers.length === 0) {
          received.set(name, handlers);
          process.jobs.register(forwardedEventJob(subgraph, name), async (payload, { em }) => {
            const event = decodeEventPayload(payload) as DomainEventMap[Name];
            for (const handle of handlers as DomainEventHandler<Name>[]) await handle(em, event);
          });
        }
        handlers.push(handler);
      },
    },
  };
}

/**
 * For a subgraph another process hosts: its jobs and periodic tasks are that process's; its event
 * effects become a job for that process, queued in the publisher's transaction; the handlers its
 * publisher waits for still run here.
 */
function forwardingPorts(subgraph: SubgraphName, process: WorkPorts): WorkPorts {
  const forwarded = new Set<DomainEventName>();
  return {
    clock: process.clock,
    jobs: { register() {} },
    scheduler: { register() {} },
    events: {
      publish: process.events.publish.bind(process.events),
      on<Name extends DomainEventName>(name: Name, handler: DomainEventHandler<Name>) {
        if (deliveryOf(name) === 'inTransaction') return process.events.on(name, handler);
        if (forwarded.has(name)) return;
        forwarded.add(name);
        const type = forwardedEventJob(subgraph, name);
        process.events.on(name, (em, payload) => {
          enqueue(em, process.clock, type, encodeEventPayload(payload));
        });
      },
    },
  };
}

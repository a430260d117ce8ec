import { registerBookingsWork } from '../../graphql/bookings/work.js';
import { registerCollectiveWork } from '../../graphql/collective/work.js';
import { registerOffersWork } from '../../graphql/offers/work.js';
import type { DomainEventHandler, DomainEventMap, DomainEventName } from '../../graphql/shared/domainEvents.js';
import { enqueue } from '../../platform/jobs/outbox.js';
import type { Outbound } from '../../platform/outbound/index.js';
import type { DeliveryFailures } from '../../platform/metrics/index.js';
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
  /** Counts the failed tries at messages to providers (the process's metrics). */
  deliveryFailures?: DeliveryFailures;
}

const subgraphWork: Record<SubgraphName, (ports: WorkPorts, options: WorkOptions) => void> = {
  // The providers subgraph has no background work: it only publishes.
  providers: () => {},
  offers: (ports, { autoApprovalDelayMs }) => registerOffersWork(ports, { autoApprovalDelayMs }),
  bookings: (ports, { outbound, deliveryFailures }) => registerBookingsWork(ports, { outbound, deliveryFailures }),
  collective: (ports) => registerCollectiveWork(ports),
};

/**
 * Registers every subgraph's background work on this process's worker, scheduler and bus, each
 * through ports that fit where it runs: its own work for a subgraph hosted here, and for one
 * hosted elsewhere only what hands its events over (see eventDelivery.ts). With every subgraph
 * hosted, handlers run inline as they always did, and no event goes through a job.
 */
export function registerWork(process: WorkPorts, options: WorkOptions): ReadonlyMap<string, SubgraphName> {
  const owners = new Map<string, SubgraphName>();
  for (const subgraph of subgraphNames) {
    // Every job type and its subgraph, hosted here or not: what a job that waits unhandled needs running (decision 023).
    const note = (type: string) => void owners.set(type, subgraph);
    const ports = options.hosted.includes(subgraph)
      ? hostedPorts(subgraph, { ...process, jobs: noting(process.jobs, note) })
      : forwardingPorts(subgraph, process, note);
    subgraphWork[subgraph](ports, options);
  }
  return owners;
}

function noting(jobs: WorkPorts['jobs'], note: (type: string) => void): WorkPorts['jobs'] {
  return {
    register(type, handler, options) {
      note(type);
      jobs.register(type, handler, options);
    },
  };
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
function forwardingPorts(subgraph: SubgraphName, process: WorkPorts, note: (type: string) => void): WorkPorts {
  const forwarded = new Set<DomainEventName>();
  return {
    clock: process.clock,
    // Its jobs are another process's to run: only noted, for the figures of the jobs that wait.
    jobs: { register: note },
    scheduler: { register() {} },
    events: {
      publish: process.events.publish.bind(process.events),
      on<Name extends DomainEventName>(name: Name, handler: DomainEventHandler<Name>) {
        if (deliveryOf(name) === 'inTransaction') return process.events.on(name, handler);
        if (forwarded.has(name)) return;
        forwarded.add(name);
        const type = forwardedEventJob(subgraph, name);
        note(type);
        process.events.on(name, (em, payload) => {
          enqueue(em, process.clock, type, encodeEventPayload(payload));
        });
      },
    },
  };
}

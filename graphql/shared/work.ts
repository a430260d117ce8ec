import type { Clock } from '../../platform/time/clock.js';
import type { JobRegistrar, TaskScheduler } from '../../platform/jobs/ports.js';
import type { DomainEventPort } from './domainEvents.js';

/**
 * The ports through which a subgraph registers its background work (`graphql/<name>/work.ts`):
 * the handlers of its outbox jobs, its periodic tasks and the domain events it handles. The
 * process (server/) implements them with the platform's job worker and scheduler and its event bus.
 */
/** What each subgraph's registration receives. */
export interface WorkPorts {
  jobs: JobRegistrar;
  scheduler: TaskScheduler;
  /**
   * Handlers run inside the publisher's transaction (see domainEvents.ts), or, for a subgraph
   * that another process hosts, in a job of that process (see server/work).
   */
  events: DomainEventPort;
  clock: Clock;
}

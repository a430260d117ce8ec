import type { EntityManager } from '@mikro-orm/core';
import type { AppEnv } from '../../platform/appEnv.js';
import type { ImageStore } from '../../platform/images/index.js';
import type { Caller, ProviderView } from './caller.js';
import type { Clock } from '../../platform/time/clock.js';
import type { DomainEventBus } from './domainEvents.js';
import type { Geocoder } from './geocoder.js';
import type { Outbound } from '../../platform/outbound/index.js';

/** What every resolver receives: one entity manager fork per request, and who calls. */
export interface GraphContext {
  em: EntityManager;
  caller: Caller;
  /** The provider of a provider key, read with the key: a view; load the entity to change it. */
  callerProvider?: ProviderView | null;
  /** The request's id, which every process that serves part of it logs and passes on. */
  requestId?: string;
  clock: Clock;
  events: DomainEventBus;
  appEnv: AppEnv;
  services: GraphServices;
}

/** Collaborators outside the database that resolvers call, chosen by configuration at boot. */
export interface GraphServices {
  geocoder: Geocoder;
  /** Every outgoing HTTP call, and the rule on the URLs providers save for the platform to call. */
  outbound: Outbound;
  images: ImageStore;
  offerReview: {
    /** Outside production, how long a new offer waits before its automatic approval; null: never. */
    autoApprovalDelayMs: number | null;
  };
  jobs: {
    /** Tells this process's job worker that work was just committed, so it need not wait for its next poll. */
    wake(): void;
  };
}

import type { EntityManager } from '@mikro-orm/core';
import type { AppEnv } from './appEnv.js';
import type { Caller } from './caller.js';
import type { Clock } from './clock.js';
import type { DomainEventBus } from './domainEvents.js';

/** What every resolver receives: one entity manager fork per request, and who calls. */
export interface GraphContext {
  em: EntityManager;
  caller: Caller;
  clock: Clock;
  events: DomainEventBus;
  appEnv: AppEnv;
}

import type { EntityManager } from '@mikro-orm/core';
import type { AppEnv } from './appEnv.js';
import type { Provider } from '../providers/Provider.js';
import type { Caller } from './caller.js';
import type { Clock } from './clock.js';
import type { DomainEventBus } from './domainEvents.js';

/** What every resolver receives: one entity manager fork per request, and who calls. */
export interface GraphContext {
  em: EntityManager;
  caller: Caller;
  /** The provider of a provider key, loaded with the key: most operations start from it. */
  callerProvider?: Provider | null;
  clock: Clock;
  events: DomainEventBus;
  appEnv: AppEnv;
}

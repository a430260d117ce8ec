import type { EntityManager } from '@mikro-orm/core';
import type { GraphContext } from '../graphql/shared/context.js';
import type { Core } from './runtime.js';

/** Who a request is for: resolved from its key here, or by the API process and signed across the hop. */
export type RequestCaller = Pick<GraphContext, 'caller' | 'callerProvider' | 'requestId'>;

/**
 * What every resolver of a request receives, in the API process and on a subgraph service alike:
 * the request's own unit of work `em`, who calls, and the process's clock, bus and services.
 */
export function requestContext(core: Core, em: EntityManager, who: RequestCaller): GraphContext {
  return {
    em,
    caller: who.caller,
    callerProvider: who.callerProvider,
    requestId: who.requestId,
    clock: core.clock,
    events: core.events,
    appEnv: core.config.appEnv,
    services: core.services,
  };
}

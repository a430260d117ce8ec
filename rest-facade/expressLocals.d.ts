import type { Caller } from '../graphql/shared/caller.js';
import type { GraphContext } from '../graphql/shared/context.js';

// What the middleware before a route leaves on `res.locals`, typed once so that readers need no cast.
declare global {
  namespace Express {
    interface Locals {
      requestId?: string;
      /** The operationId of the route the request reached, once the route table found it. */
      operationId?: string;
      /** The path template of that route (`/public/offers/v1/events/{event_id}`): the request's name in traces. */
      route?: string;
      /** Set by the authentication, once the bearer key is resolved. */
      caller?: Caller;
      /** The request's unit of work, handed to the GraphQL operation the route runs. */
      graphContext?: GraphContext;
    }
  }
}

import type { Request, RequestHandler } from 'express';
import { authenticateApiKey } from '../../graphql/providers/apiKeys.js';
import type { GraphContext } from '../../graphql/shared/context.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';
import type { Runtime } from '../runtime.js';

function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const [scheme, token] = header.trim().split(/\s+/, 2);
  return scheme?.toLowerCase() === 'bearer' ? token : undefined;
}

/**
 * Resolves the bearer key and opens the request's unit of work: one entity manager
 * fork per request, shared by the authentication and the operation it serves.
 */
export function authenticate(runtime: Runtime): RequestHandler {
  return asyncHandler(async (req, res, next) => {
    const em = runtime.orm.em.fork();
    const { caller, provider } = await authenticateApiKey(em, bearerToken(req), runtime.clock.now());
    res.locals.caller = caller;
    const context: GraphContext = {
      em,
      caller,
      callerProvider: provider,
      clock: runtime.clock,
      events: runtime.events,
      appEnv: runtime.config.appEnv,
      services: runtime.services,
    };
    res.locals.graphContext = context;
    next();
  });
}

import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { authenticateApiKey } from '../../graphql/providers/apiKeys.js';
import { personOfSession } from '../../graphql/providers/personSessions.js';
import type { Caller, ProviderView } from '../../graphql/shared/caller.js';
import { sessionCallerOf } from '../../graphql/providers/keySessions.js';
import { ForbiddenError, UnauthenticatedError } from '../../graphql/shared/errors.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';
import { requestContext } from '../requestContext.js';
import type { Runtime } from '../runtime.js';
import { CSRF_HEADER, graphqlSessionTokenOf, isSameOrigin, keySessionAllowed } from './keySession.js';

function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const [scheme, token] = header.trim().split(/\s+/, 2);
  return scheme?.toLowerCase() === 'bearer' ? token : undefined;
}

export interface AuthenticateOptions {
  /** /graphql: a request without a bearer key may come from a back-office or console session (its cookie). */
  sessions?: boolean;
}

/**
 * A session (the back office's or the console's), for a request of this server's own pages only: a cookie alone proves
 * nothing against another site's forms or scripts, so the request must also carry the CSRF header
 * (which no cross-site form can set, and no cross-site script without a preflight we refuse) and an
 * Origin of this server.
 */
async function sessionCaller(
  runtime: Runtime,
  req: Request,
  token: string,
): Promise<{ caller: Caller; provider: ProviderView | null }> {
  if (!req.get(CSRF_HEADER) || !isSameOrigin(req, runtime.config.publicUrl)) {
    throw new ForbiddenError(`A session is accepted from this server's pages only, with the ${CSRF_HEADER} header`);
  }
  const em = runtime.orm.em.fork();
  const person = await personOfSession(em, token, runtime.clock.now());
  if (person) return { caller: person.caller, provider: null };
  const found = await sessionCallerOf(em, token, runtime.clock.now());
  if (!found || !keySessionAllowed(runtime, found.caller)) {
    throw new UnauthenticatedError('The session has ended: sign in again');
  }
  return found;
}

/**
 * Resolves the bearer key (or, where allowed, the session of a signed-in page) and opens the request's
 * unit of work: one entity manager fork per request, shared by the authentication and the
 * operation it serves.
 */
export function authenticate(runtime: Runtime, options: AuthenticateOptions = {}): RequestHandler {
  return asyncHandler(async (req, res, next) => {
    const em = runtime.orm.em.fork();
    const bearer = bearerToken(req);
    const session = options.sessions && !bearer ? graphqlSessionTokenOf(req) : undefined;
    const { caller, provider } = session
      ? await sessionCaller(runtime, req, session)
      : await authenticateApiKey(em, bearer, { cache: runtime.callers, now: runtime.clock.now() });
    res.locals.caller = caller;
    res.locals.graphContext = requestContext(runtime, em, {
      caller,
      callerProvider: provider,
      requestId: res.locals.requestId,
    });
    next();
  });
}

/**
 * Names the caller of a request that reached no operation, when its key is valid, and refuses
 * nothing: the answer stays the 404 of an unknown path, and the request log can show the
 * provider the path it got wrong. Only unknown paths pay for the lookup.
 */
export function identifyCaller(runtime: Runtime): RequestHandler {
  return (req, res, next) => {
    const bearer = bearerToken(req);
    if (!bearer) {
      next();
      return;
    }
    authenticateApiKey(runtime.orm.em.fork(), bearer, { cache: runtime.callers, now: runtime.clock.now() }).then(
      ({ caller }) => {
        res.locals.caller = caller;
        next();
      },
      () => next(),
    );
  };
}

/**
 * The same for a request refused before its route authenticated it (a body that is not JSON, or
 * too large): the error goes on to the error handler unchanged, its caller named if the key is valid.
 */
export function identifyCallerOfRefusal(runtime: Runtime): ErrorRequestHandler {
  const identify = identifyCaller(runtime);
  return (error: unknown, req, res, next) => {
    if (res.locals.caller) {
      next(error);
      return;
    }
    identify(req, res, () => next(error));
  };
}

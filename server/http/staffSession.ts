import type { Request, Response } from 'express';
import type { Caller } from '../../graphql/shared/caller.js';
import { endStaffSession, openStaffSession, staffCallerOf } from '../../graphql/providers/staffSessions.js';
import type { BackOfficeSession as PageSession } from '../../app/backoffice/context.js';
import type { Runtime } from '../runtime.js';

/** The cookie of a back-office session: its random token, sent back to this origin only. */
export const STAFF_SESSION_COOKIE = 'backoffice_session';

/** The header every session-authenticated /graphql request carries (Apollo Server's CSRF prevention). */
export const CSRF_HEADER = 'apollo-require-preflight';

export function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

export function sessionTokenOf(req: Request): string | undefined {
  return cookieValue(req, STAFF_SESSION_COOKIE);
}

/**
 * Whether a request that a session would authenticate comes from a page of this server: its
 * Origin (or, for a same-origin GET that has none, Sec-Fetch-Site) names this server, as
 * configured (PUBLIC_URL) or as addressed (the Host it was sent to).
 */
export function isSameOrigin(req: Request, publicUrl: string): boolean {
  const origin = req.get('origin');
  if (!origin) return req.get('sec-fetch-site') === 'same-origin';
  const addressed = `${req.protocol}://${req.get('host') ?? ''}`;
  return origin === new URL(publicUrl).origin || origin === addressed;
}

function cookieAttributes(runtime: Runtime, maxAgeSeconds: number): string {
  const secure = runtime.config.appEnv === 'production' ? '; Secure' : '';
  return `Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

/** What the back office's pages (Remix) may do with the session, given by Express in the load context. */
export interface BackOfficeSession extends PageSession {
  caller: Caller | null;
}

export async function backOfficeSessionOf(runtime: Runtime, req: Request): Promise<BackOfficeSession> {
  const em = runtime.orm.em.fork();
  const token = sessionTokenOf(req);
  const caller = token ? await staffCallerOf(em, token, runtime.clock.now()) : null;
  return {
    caller,
    sameOrigin: isSameOrigin(req, runtime.config.publicUrl),
    async signIn(key) {
      const session = await openStaffSession(em, runtime.clock, key);
      const maxAge = Math.round((session.expiresAt.getTime() - runtime.clock.now().getTime()) / 1000);
      return `${STAFF_SESSION_COOKIE}=${session.token}; ${cookieAttributes(runtime, maxAge)}`;
    },
    async signOut() {
      if (token) await endStaffSession(em, token, runtime.clock.now());
      return `${STAFF_SESSION_COOKIE}=; ${cookieAttributes(runtime, 0)}`;
    },
  };
}

/** Puts the session of the request in `res.locals.backOffice`, for the pages that read it. */
export function attachBackOfficeSession(runtime: Runtime) {
  return (req: Request, res: Response, next: (error?: unknown) => void) => {
    backOfficeSessionOf(runtime, req).then((session) => {
      res.locals.backOffice = session;
      next();
    }, next);
  };
}

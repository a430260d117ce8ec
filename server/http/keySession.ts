import type { Request, Response } from 'express';
import { recordStaffAction } from '../../graphql/shared/audit.js';
import type { Caller } from '../../graphql/shared/caller.js';
import { ForbiddenError } from '../../graphql/shared/errors.js';
import {
  endKeySession,
  openKeySession,
  sessionCallerOf,
  type SessionAudience,
} from '../../graphql/providers/keySessions.js';
import type { PageSession } from '../../app/backoffice/context.js';
import type { Runtime } from '../runtime.js';

/** The cookie of each audience's session: its random token, sent back to this origin only. */
export const SESSION_COOKIES: Record<SessionAudience, string> = {
  staff: 'backoffice_session',
  console: 'console_session',
};
export const STAFF_SESSION_COOKIE = SESSION_COOKIES.staff;
export const CONSOLE_SESSION_COOKIE = SESSION_COOKIES.console;

/** The header every session-authenticated /graphql request carries (Apollo Server's CSRF prevention). */
export const CSRF_HEADER = 'apollo-require-preflight';

/**
 * The header by which the console's pages name their session on /graphql (`console`): a browser
 * may hold a back-office session and a console session at once, and without it the back office's
 * is used first, as before the console existed.
 */
export const SESSION_AUDIENCE_HEADER = 'x-session-audience';

export function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

export function sessionTokenOf(req: Request, audience: SessionAudience): string | undefined {
  return cookieValue(req, SESSION_COOKIES[audience]);
}

/** The session token a /graphql request without a bearer key is authenticated by, if any. */
export function graphqlSessionTokenOf(req: Request): string | undefined {
  if (req.get(SESSION_AUDIENCE_HEADER) === 'console') return sessionTokenOf(req, 'console');
  return sessionTokenOf(req, 'staff') ?? sessionTokenOf(req, 'console');
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

/**
 * How far each audience's cookie travels: the back office's is Lax (decision 031), since the first
 * page after signing in with the identity provider is reached by a redirect that began on the
 * IdP's site, which a Strict cookie would not join; the console's stays Strict.
 */
export const SAME_SITE: Record<SessionAudience, 'Lax' | 'Strict'> = { staff: 'Lax', console: 'Strict' };

export function cookieAttributes(
  runtime: Runtime,
  maxAgeSeconds: number,
  { sameSite = 'Strict', path = '/' }: { sameSite?: 'Lax' | 'Strict'; path?: string } = {},
): string {
  const secure = runtime.config.appEnv === 'production' ? '; Secure' : '';
  return `Path=${path}; HttpOnly; SameSite=${sameSite}; Max-Age=${maxAgeSeconds}${secure}`;
}

/** Why a key no longer opens the back office without the break-glass setting. */
export const KEY_SIGN_IN_CLOSED =
  "Staff sign in with the organisation's identity provider: internal keys open the back office only with BACKOFFICE_BREAK_GLASS=true";

/** What an audience's pages (Remix) may do with the session, given by Express in the load context. */
export interface KeySessionOfPages extends PageSession {
  caller: Caller | null;
}

/**
 * Whether a key's session still opens the back office: an internal key's only while the
 * break-glass setting is on (a person signs in with the identity provider otherwise).
 */
export function keySessionAllowed(runtime: Runtime, caller: Caller): boolean {
  return caller.kind !== 'internal' || runtime.config.backOfficeBreakGlass;
}

/**
 * The caller of the session, for the pages of its audience only (a staff session opens no console
 * page). An inactive provider's session opens none either: its sign-in page says why.
 */
export async function pageCallerOf(runtime: Runtime, token: string, audience: SessionAudience) {
  const found = await sessionCallerOf(runtime.orm.em.fork(), token, runtime.clock.now()).catch((error: unknown) => {
    if (error instanceof ForbiddenError) return null;
    throw error;
  });
  if (!found || (found.caller.kind === 'internal') !== (audience === 'staff')) return null;
  if (!keySessionAllowed(runtime, found.caller)) return null;
  return found;
}

/**
 * The key session of the request's cookie, with its sign-in and sign-out; `lookUp: false` when the
 * token is already known to be another kind of session (a person's), so that it is not read twice.
 */
export async function keySessionOf(
  runtime: Runtime,
  req: Request,
  audience: SessionAudience,
  { lookUp = true }: { lookUp?: boolean } = {},
): Promise<KeySessionOfPages> {
  const em = runtime.orm.em.fork();
  const cookie = SESSION_COOKIES[audience];
  const token = sessionTokenOf(req, audience);
  const found = token && lookUp ? await pageCallerOf(runtime, token, audience) : null;
  // Staff signing in and out are staff actions: their entries commit with the session's change.
  const audit = (caller: Caller) => ({ caller, clock: runtime.clock, requestId: req.res?.locals.requestId });
  return {
    caller: found?.caller ?? null,
    providerName: found?.provider?.name ?? null,
    sameOrigin: isSameOrigin(req, runtime.config.publicUrl),
    async signIn(key) {
      if (audience === 'staff' && !runtime.config.backOfficeBreakGlass) throw new ForbiddenError(KEY_SIGN_IN_CLOSED);
      const session = await em.transactional(async (tx) => {
        const opened = await openKeySession(tx, runtime.clock, key, audience);
        const target = { type: 'staff_session', id: opened.sessionId } as const;
        if (audience === 'staff')
          await recordStaffAction(tx, audit(opened.caller), { action: 'staff.signed_in', target });
        return opened;
      });
      const maxAge = Math.round((session.expiresAt.getTime() - runtime.clock.now().getTime()) / 1000);
      return `${cookie}=${session.token}; ${cookieAttributes(runtime, maxAge, { sameSite: SAME_SITE[audience] })}`;
    },
    async signOut() {
      if (token)
        await em.transactional(async (tx) => {
          const ended = await endKeySession(tx, token, runtime.clock.now());
          if (audience !== 'staff' || ended === null || !found) return;
          const target = { type: 'staff_session', id: ended } as const;
          await recordStaffAction(tx, audit(found.caller), { action: 'staff.signed_out', target });
        });
      return `${cookie}=; ${cookieAttributes(runtime, 0, { sameSite: SAME_SITE[audience] })}`;
    },
  };
}

export function consoleSessionOf(runtime: Runtime, req: Request): Promise<KeySessionOfPages> {
  return keySessionOf(runtime, req, 'console');
}

/** Where the pages read each audience's session: `res.locals.backOffice` or `res.locals.console`. */
const LOCALS: Record<SessionAudience, 'backOffice' | 'console'> = { staff: 'backOffice', console: 'console' };

/** Puts the audience's session of the request in `res.locals`, for the pages that read it. */
export function attachKeySession(runtime: Runtime, audience: SessionAudience) {
  return (req: Request, res: Response, next: (error?: unknown) => void) => {
    keySessionOf(runtime, req, audience).then((session) => {
      res.locals[LOCALS[audience]] = session;
      next();
    }, next);
  };
}

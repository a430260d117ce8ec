import type { Request, Response } from 'express';
import { z } from 'zod';
import type { BackOfficeSession, OidcOutcome, OidcProblem } from '../../app/backoffice/context.js';
import { KEY_SESSION_TTL_MS } from '../../graphql/providers/keySessions.js';
import { endPersonSession, openPersonSession, personOfSession } from '../../graphql/providers/personSessions.js';
import type { Caller } from '../../graphql/shared/caller.js';
import { recordStaffAction } from '../../graphql/shared/audit.js';
import { rolesOf } from '../../graphql/shared/internalOnly.js';
import type { Runtime } from '../runtime.js';
import {
  IdentityProviderUnavailable,
  OIDC_CALLBACK_PATH,
  SignInRejected,
  SIGNED_OUT_PATH,
  type SignInTransaction,
} from '../staffSignIn/oidcSignIn.js';
import { staffPersonOf } from '../staffSignIn/staffClaims.js';
import {
  cookieAttributes,
  cookieValue,
  keySessionOf,
  SAME_SITE,
  STAFF_SESSION_COOKIE,
  sessionTokenOf,
} from './keySession.js';

/** The sign-in under way with the identity provider: state, nonce, PKCE verifier and the page asked for. */
export const OIDC_TRANSACTION_COOKIE = 'backoffice_oidc';

/** Long enough to type a password and answer a second factor; a sign-in left longer starts again. */
const TRANSACTION_TTL_SECONDS = 10 * 60;

const transactionSchema: z.ZodType<SignInTransaction> = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  codeVerifier: z.string().min(43),
  next: z.string().startsWith('/'),
});

function transactionOf(req: Request): SignInTransaction | null {
  const value = cookieValue(req, OIDC_TRANSACTION_COOKIE);
  if (!value) return null;
  try {
    const parsed = transactionSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The transaction's cookie: HttpOnly, only sent to the callback's path, and SameSite=Lax because
 * the IdP sends the browser back with a top-level GET from its own site, which Strict would not join.
 */
function transactionCookie(runtime: Runtime, transaction: SignInTransaction | null): string {
  const value = transaction ? Buffer.from(JSON.stringify(transaction)).toString('base64url') : '';
  const attributes = cookieAttributes(runtime, transaction ? TRANSACTION_TTL_SECONDS : 0, {
    sameSite: 'Lax',
    path: OIDC_CALLBACK_PATH,
  });
  return `${OIDC_TRANSACTION_COOKIE}=${value}; ${attributes}`;
}

function sessionCookie(runtime: Runtime, token: string, maxAgeSeconds: number): string {
  return `${STAFF_SESSION_COOKIE}=${token}; ${cookieAttributes(runtime, maxAgeSeconds, { sameSite: SAME_SITE.staff })}`;
}

const REFUSED_PEOPLE: Record<'no-email' | 'unverified-email' | 'domain' | 'no-role', string> = {
  'no-email': 'The identity provider gave no e-mail address for this account.',
  'unverified-email': 'The identity provider says this e-mail address is not verified.',
  domain: "This account's e-mail address is outside the organisation's domain.",
  'no-role': 'This account holds no back-office role (reviewer, support or admin).',
};

function signedInAs(caller: Caller | null, name: string | null): string | null {
  if (caller?.kind === 'staff') return `${name ?? caller.email} (${caller.roles.join(', ')})`;
  if (caller?.kind === 'internal') return `Internal key ${caller.apiKeyPrefix} (break-glass)`;
  return null;
}

/**
 * The back office's session for its pages: a person signed in with the organisation's identity
 * provider, or, with the break-glass setting, an internal key (decision 031).
 */
export async function staffSessionOf(
  runtime: Runtime,
  req: Request,
): Promise<BackOfficeSession & { caller: Caller | null }> {
  const em = runtime.orm.em.fork();
  const token = sessionTokenOf(req, 'staff');
  const person = token ? await personOfSession(em, token, runtime.clock.now()) : null;
  // The cookie holds one token: a person's session found, it is no key's, and is not looked up again.
  const keySession = await keySessionOf(runtime, req, 'staff', { lookUp: person === null });
  const caller: Caller | null = person?.caller ?? keySession.caller;
  const auditOf = (actor: Caller) => ({ caller: actor, clock: runtime.clock, requestId: req.res?.locals.requestId });
  const refused = (problem: OidcProblem, message: string): OidcOutcome => ({
    ok: false,
    problem,
    message,
    cookies: [transactionCookie(runtime, null)],
  });
  return {
    ...keySession,
    caller,
    roles: caller ? rolesOf(caller) : [],
    signedInAs: signedInAs(caller, person?.name ?? null),
    oidcConfigured: runtime.staffSignIn !== null,
    keySignIn: runtime.config.backOfficeBreakGlass,
    async signOut() {
      if (!token) return sessionCookie(runtime, '', 0);
      // Signing out is a staff action: its entry commits with the session's end.
      const endedPerson = await em.transactional(async (tx) => {
        const ended = await endPersonSession(tx, token, runtime.clock.now());
        if (ended !== null && person) {
          const target = { type: 'person_session', id: ended } as const;
          await recordStaffAction(tx, auditOf(person.caller), { action: 'staff.signed_out', target });
        }
        return ended;
      });
      // A break-glass key's session: ended, and its entry written, by the key session's own sign-out.
      if (endedPerson === null) await keySession.signOut();
      return sessionCookie(runtime, '', 0);
    },
    async signOutDestination() {
      const atIdp = person && runtime.staffSignIn ? await runtime.staffSignIn.endSessionUrl() : null;
      return atIdp?.href ?? SIGNED_OUT_PATH;
    },
    async beginOidcSignIn(next) {
      if (!runtime.staffSignIn) {
        return { ok: false, problem: 'not-configured', message: 'No identity provider is configured (OIDC_ISSUER).' };
      }
      try {
        const { location, transaction } = await runtime.staffSignIn.begin(next);
        return { ok: true, location: location.href, cookie: transactionCookie(runtime, transaction) };
      } catch (error) {
        if (!(error instanceof IdentityProviderUnavailable)) throw error;
        runtime.logger.warn({ err: error }, 'the identity provider cannot be reached');
        return { ok: false, problem: 'unavailable', message: error.message };
      }
    },
    async completeOidcSignIn(callbackUrl) {
      if (!runtime.staffSignIn) return refused('not-configured', 'No identity provider is configured (OIDC_ISSUER).');
      const transaction = transactionOf(req);
      if (!transaction) return refused('expired', 'This sign-in expired or was started in another browser.');
      let claims: Record<string, unknown>;
      try {
        claims = await runtime.staffSignIn.complete(new URL(callbackUrl), transaction);
      } catch (error) {
        if (error instanceof SignInRejected) return refused('rejected', error.message);
        if (error instanceof IdentityProviderUnavailable) return refused('unavailable', error.message);
        throw error;
      }
      const result = staffPersonOf(claims, runtime.staffSignIn.config);
      if (!result.ok) return refused(result.refused, REFUSED_PEOPLE[result.refused]);
      const opened = await em.transactional(async (tx) => {
        const session = await openPersonSession(tx, runtime.clock, result.person);
        const target = { type: 'person_session', id: session.sessionId } as const;
        await recordStaffAction(tx, auditOf(session.caller), { action: 'staff.signed_in', target });
        return session;
      });
      return {
        ok: true,
        next: transaction.next,
        cookies: [sessionCookie(runtime, opened.token, KEY_SESSION_TTL_MS / 1000), transactionCookie(runtime, null)],
      };
    },
  };
}

/** Puts the back office's session of the request in `res.locals.backOffice`, for its pages and GraphiQL. */
export function attachStaffSession(runtime: Runtime) {
  return (req: Request, res: Response, next: (error?: unknown) => void) => {
    staffSessionOf(runtime, req).then((session) => {
      res.locals.backOffice = session;
      next();
    }, next);
  };
}

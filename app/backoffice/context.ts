import type { StaffRole } from '../../graphql/shared/staffRoles.js';

/**
 * What the back office's and the console's pages receive from the server (Remix's load context,
 * filled by server/http/keySession.ts): the session of the request, and how to open or end one.
 */
export interface PageSession {
  /** Who is signed in (a person, or a key: internal in the back office, the provider's in the console), or null. */
  caller: { kind: string; apiKeyPrefix?: string } | null;
  /** The console: the signed-in provider's name. */
  providerName?: string | null;
  /** Whether the request came from this server's own pages. */
  sameOrigin: boolean;
  /** Opens a session with a key: the Set-Cookie header (throws the key's 401, or 403 for a key of the other audience). */
  signIn(key: string): Promise<string>;
  /** Ends the session: the Set-Cookie header that clears the cookie. */
  signOut(): Promise<string>;
}

/** Why a sign-in with the identity provider did not open a session: the sign-in page says it. */
export type OidcProblem =
  'not-configured' | 'unavailable' | 'rejected' | 'expired' | 'no-email' | 'unverified-email' | 'domain' | 'no-role';

export type OidcBegin =
  { ok: true; location: string; cookie: string } | { ok: false; problem: OidcProblem; message: string };

export type OidcOutcome =
  | { ok: true; cookies: string[]; next: string }
  | { ok: false; problem: OidcProblem; message: string; cookies: string[] };

/**
 * The back office's session: a member of staff signed in with the organisation's identity
 * provider, or (break-glass, BACKOFFICE_BREAK_GLASS) an internal key (decision 031).
 */
export interface BackOfficeSession extends PageSession {
  /** The roles of who is signed in: the screens hide what these do not allow. */
  roles: readonly StaffRole[];
  /** Who is signed in, said beside the sign-out button. */
  signedInAs: string | null;
  /** Whether an identity provider is configured (OIDC_ISSUER). */
  oidcConfigured: boolean;
  /** Whether a person may sign in with an internal key (BACKOFFICE_BREAK_GLASS). */
  keySignIn: boolean;
  /** Leaves for the identity provider: its address and the transaction's cookie, or why not. */
  beginOidcSignIn(next: string): Promise<OidcBegin>;
  /** Back from the identity provider (the callback's URL): the session's cookie and the page asked for, or why not. */
  completeOidcSignIn(callbackUrl: string): Promise<OidcOutcome>;
  /**
   * Where a sign-out leads: the identity provider's end-session page for a person signed in
   * through it (when it offers one), so that its session ends too; the sign-in page otherwise.
   */
  signOutDestination(): Promise<string>;
}

/** What a route module of the back office (or the console) says in its `handle`. */
export interface BackOfficeHandle {
  /**
   * `app`: a screen, hydrated with the back office's script; `console`: a console screen, with the
   * console's; `page`: plain HTML; `graphiql`: GraphiQL.
   */
  backOffice?: 'app' | 'console' | 'page' | 'graphiql';
}

declare module '@remix-run/node' {
  interface AppLoadContext {
    backOffice?: BackOfficeSession;
    console?: PageSession;
  }
}

/**
 * What the back office's and the console's pages receive from the server (Remix's load context,
 * filled by server/http/keySession.ts): the session of the request, and how to open or end one.
 */
export interface PageSession {
  /** The signed-in key (internal in the back office, the provider's in the console), or null. */
  caller: { kind: string; apiKeyPrefix: string } | null;
  /** The console: the signed-in provider's name. */
  providerName?: string | null;
  /** Whether the request came from this server's own pages. */
  sameOrigin: boolean;
  /** Opens a session with a key: the Set-Cookie header (throws the key's 401, or 403 for a key of the other audience). */
  signIn(key: string): Promise<string>;
  /** Ends the session: the Set-Cookie header that clears the cookie. */
  signOut(): Promise<string>;
}

export type BackOfficeSession = PageSession;

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
    backOffice?: PageSession;
    console?: PageSession;
  }
}

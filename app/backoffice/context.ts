/**
 * What the back office's pages receive from the server (Remix's load context, filled by
 * server/http/staffSession.ts): the session of the request, and how to open or end one.
 */
export interface BackOfficeSession {
  /** The signed-in staff member's internal key, or null when nobody is signed in. */
  caller: { kind: string; apiKeyPrefix: string } | null;
  /** Whether the request came from this server's own pages. */
  sameOrigin: boolean;
  /** Opens a session with a key: the Set-Cookie header (throws the key's 401, or 403 for a provider key). */
  signIn(key: string): Promise<string>;
  /** Ends the session: the Set-Cookie header that clears the cookie. */
  signOut(): Promise<string>;
}

/** What a route module of the back office says in its `handle`. */
export interface BackOfficeHandle {
  /** `app`: a screen, hydrated with the back office's script; `page`: plain HTML; `graphiql`: GraphiQL. */
  backOffice?: 'app' | 'page' | 'graphiql';
}

declare module '@remix-run/node' {
  interface AppLoadContext {
    backOffice?: BackOfficeSession;
  }
}

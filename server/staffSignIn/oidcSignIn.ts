import * as oidc from 'openid-client';
import type { OidcConfig } from '../config.js';

/** Where the identity provider sends the browser back: registered at the IdP as the client's redirect URI. */
export const OIDC_CALLBACK_PATH = '/backoffice/oidc/callback';

/**
 * Where the IdP sends the browser back once its session has ended too (RP-initiated logout):
 * registered at the IdP as the client's post-logout redirect URI.
 */
export const SIGNED_OUT_PATH = '/backoffice/sign-in';

/** How long a discovery may take before the sign-in page says the IdP cannot be reached. */
export const DISCOVERY_TIMEOUT_SECONDS = 5;

/** How long a discovered configuration is reused before the next sign-in discovers again (keys may rotate). */
const DISCOVERY_REUSE_MS = 60 * 60 * 1000;

/** What the browser keeps between leaving for the IdP and coming back (the transaction cookie). */
export interface SignInTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The back-office page asked for before signing in. */
  next: string;
}

/** The identity provider could not be reached or answered nonsense: the sign-in page says so. */
export class IdentityProviderUnavailable extends Error {}

/** The answer on the callback is not one this browser's sign-in can accept (state, code, ID token). */
export class SignInRejected extends Error {}

export interface OidcSignIn {
  readonly config: OidcConfig;
  /** The IdP's authorization URL for a new sign-in, and what the browser must keep until it comes back. */
  begin(next: string): Promise<{ location: URL; transaction: SignInTransaction }>;
  /** The person's claims (ID token, completed by user info when it lacks some) from the callback's URL. */
  complete(callbackUrl: URL, transaction: SignInTransaction): Promise<Record<string, unknown>>;
  /**
   * The IdP's end-session address for a person who just signed out here (OpenID Connect
   * RP-Initiated Logout), back to the sign-in page; null when the IdP offers none, cannot be
   * reached, or OIDC_SIGN_OUT_AT_IDP is false: the session here has ended whatever it answers.
   */
  endSessionUrl(): Promise<URL | null>;
}

/**
 * The back office's OpenID Connect client: authorization code flow with PKCE (S256), state and
 * nonce, with openid-client. Discovery happens at the first sign-in, not at start-up, so that the
 * server starts while the IdP is down; a failed discovery is not kept, the next sign-in tries again.
 */
export function oidcSignIn(config: OidcConfig, publicUrl: string): OidcSignIn {
  const redirectUri = `${publicUrl}${OIDC_CALLBACK_PATH}`;
  const postLogoutRedirectUri = `${publicUrl}${SIGNED_OUT_PATH}`;
  let discovered: { configuration: oidc.Configuration; at: number } | null = null;

  async function configuration(): Promise<oidc.Configuration> {
    if (discovered && Date.now() - discovered.at < DISCOVERY_REUSE_MS) return discovered.configuration;
    const issuer = new URL(config.issuer);
    try {
      const found = await oidc.discovery(issuer, config.clientId, config.clientSecret, undefined, {
        timeout: DISCOVERY_TIMEOUT_SECONDS,
        // http:// is refused in production by the configuration: here it is a local IdP (tests, npm run dev-idp).
        execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      });
      discovered = { configuration: found, at: Date.now() };
      return found;
    } catch (error) {
      throw new IdentityProviderUnavailable(`${config.issuer}: ${(error as Error).message}`, { cause: error });
    }
  }

  return {
    config,
    async begin(next) {
      const found = await configuration();
      const transaction: SignInTransaction = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
        next,
      };
      const location = oidc.buildAuthorizationUrl(found, {
        redirect_uri: redirectUri,
        scope: config.scopes,
        state: transaction.state,
        nonce: transaction.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(transaction.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { location, transaction };
    },

    async complete(callbackUrl, transaction) {
      const found = await configuration();
      // The IdP answers to the address it was given, whatever Host a proxy passed on.
      const answered = new URL(`${redirectUri}${callbackUrl.search}`);
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(found, answered, {
          pkceCodeVerifier: transaction.codeVerifier,
          expectedState: transaction.state,
          expectedNonce: transaction.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        if (error instanceof oidc.ClientError || error instanceof oidc.ResponseBodyError) {
          throw new SignInRejected((error as Error).message, { cause: error });
        }
        if (error instanceof oidc.AuthorizationResponseError) {
          throw new SignInRejected(error.error_description ?? error.error, { cause: error });
        }
        throw new IdentityProviderUnavailable(`${config.issuer}: ${(error as Error).message}`, { cause: error });
      }
      const idToken = tokens.claims() as Record<string, unknown>;
      const lacksClaims = !idToken.email || (config.rolesClaim !== null && !(config.rolesClaim in idToken));
      if (!lacksClaims || !found.serverMetadata().userinfo_endpoint) return idToken;
      const userInfo = await oidc.fetchUserInfo(found, tokens.access_token, idToken.sub as string);
      return { ...userInfo, ...idToken };
    },

    async endSessionUrl() {
      if (!config.signOutAtIdp) return null;
      const found = await configuration().catch((error: unknown) => {
        if (error instanceof IdentityProviderUnavailable) return null;
        throw error;
      });
      if (!found?.serverMetadata().end_session_endpoint) return null;
      try {
        // Without an ID token hint the IdP asks the person to confirm, which suits a shared machine.
        return oidc.buildEndSessionUrl(found, { post_logout_redirect_uri: postLogoutRedirectUri });
      } catch {
        // An endpoint openid-client refuses (http:// at an https:// issuer): the sign-out here stands.
        return null;
      }
    },
  };
}

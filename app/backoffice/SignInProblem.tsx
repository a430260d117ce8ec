import type { OidcProblem } from './context.js';

const TITLES: Record<OidcProblem, string> = {
  'not-configured': 'No identity provider is configured',
  unavailable: 'The identity provider cannot be reached',
  rejected: 'The identity provider’s answer was refused',
  expired: 'This sign-in expired',
  'no-email': 'This account cannot open the back office',
  'unverified-email': 'This account cannot open the back office',
  domain: 'This account cannot open the back office',
  'no-role': 'This account cannot open the back office',
};

const ADVICE: Record<OidcProblem, string> = {
  'not-configured': 'The server needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.',
  unavailable: 'Nothing was changed. Try again in a moment; if it lasts, tell the platform’s operators.',
  rejected: 'Nothing was changed. Start again from the sign-in page.',
  expired: 'Nothing was changed. Start again from the sign-in page.',
  'no-email': 'Ask the organisation’s administrators to give the account an e-mail address.',
  'unverified-email': 'Verify the address with the identity provider, then sign in again.',
  domain: 'Sign in with the organisation’s account, or ask an administrator for access.',
  'no-role': 'Ask an administrator for the reviewer, support or admin role.',
};

/** The page a sign-in with the identity provider ends on when it opens no session: what happened, what to do. */
export function SignInProblem({ problem, message }: { problem: OidcProblem; message: string }) {
  return (
    <main id="main" className="bo-main bo-sign-in">
      <h1>{TITLES[problem]}</h1>
      <p role="alert" className="bo-alert">
        {message}
      </p>
      <p>{ADVICE[problem]}</p>
      <p>
        <a href="/backoffice/sign-in">Back to the sign-in page</a>
      </p>
    </main>
  );
}

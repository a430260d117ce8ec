import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import type { BackOfficeHandle } from '../backoffice/context.js';
import { SignInPage } from '../backoffice/SignInPage.js';
import { safeNext } from '../backoffice/guard.server.js';
import { type SignInRefusal, signInWithKey } from '../backoffice/signIn.server.js';
import styles from '../backoffice/backoffice.css';

export const handle: BackOfficeHandle & { stylesheets: string[] } = { backOffice: 'page', stylesheets: [styles] };

export const meta: MetaFunction = () => [{ title: 'Sign in | Back office' }];

export function loader({ request, context }: LoaderFunctionArgs) {
  const next = safeNext(new URL(request.url).searchParams.get('next'));
  if (context.backOffice?.caller) return redirect(next);
  return {
    next,
    oidcConfigured: context.backOffice?.oidcConfigured ?? false,
    keySignIn: context.backOffice?.keySignIn ?? false,
  };
}

/** Break-glass: an internal key for a session; a provider key is a 403 page, an unknown or revoked key a 401. */
export function action({ request, context }: ActionFunctionArgs) {
  return signInWithKey(context.backOffice, request, safeNext);
}

const REFUSALS = {
  unknown: 'This key is unknown or revoked.',
  origin: 'Sign in from this page.',
};

function refusalText(refusal: SignInRefusal): string {
  return refusal.refused === 'forbidden' ? `${refusal.message}.` : REFUSALS[refusal.refused];
}

export default function SignIn() {
  const { next, oidcConfigured, keySignIn } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>() as SignInRefusal | undefined;
  return (
    <SignInPage
      title="Back office"
      intro="The platform’s staff sign in with the organisation’s account."
      keyLabel="Internal key (break-glass)"
      next={next}
      refusal={refusal}
      refusalText={refusalText}
      keyForm={keySignIn}
      before={
        oidcConfigured ? (
          <p>
            <a className="bo-button" href={`/backoffice/oidc/start?next=${encodeURIComponent(next)}`}>
              Sign in with your organisation
            </a>
          </p>
        ) : null
      }
    >
      {keySignIn ? (
        <p className="bo-hint">
          Break-glass sign-in is on (BACKOFFICE_BREAK_GLASS): an internal key acts as admin, and nobody can tell who
          used it. Turn it off once the identity provider works.
        </p>
      ) : null}
      {!oidcConfigured && !keySignIn ? (
        <p className="bo-hint">
          No identity provider is configured: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET on the server (the
          README says how), or run <code>npm run dev-idp</code> for a local one.
        </p>
      ) : null}
    </SignInPage>
  );
}

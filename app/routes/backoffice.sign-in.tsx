import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import type { BackOfficeHandle } from '../backoffice/context.js';
import { safeNext } from '../backoffice/guard.server.js';
import { type SignInRefusal, signInWithKey } from '../backoffice/signIn.server.js';
import styles from '../backoffice/backoffice.css';

export const handle: BackOfficeHandle & { stylesheets: string[] } = { backOffice: 'page', stylesheets: [styles] };

export const meta: MetaFunction = () => [{ title: 'Sign in | Back office' }];

export function loader({ request, context }: LoaderFunctionArgs) {
  const next = safeNext(new URL(request.url).searchParams.get('next'));
  if (context.backOffice?.caller) return redirect(next);
  return { next };
}

/** The key for a session: a provider key is a 403 page, an unknown or revoked key a 401. */
export function action({ request, context }: ActionFunctionArgs) {
  return signInWithKey(context.backOffice, request, safeNext);
}

const REFUSALS = {
  forbidden: 'Provider keys do not open the back office. Sign in with an internal key.',
  unknown: 'This key is unknown or revoked.',
  origin: 'Sign in from this page.',
};

export default function SignIn() {
  const { next } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>() as SignInRefusal | undefined;
  return (
    <main id="main" className="bo-main bo-sign-in">
      {refusal?.refused === 'forbidden' ? <p className="bo-code">403 Forbidden</p> : null}
      <h1>Back office</h1>
      <p>The platform’s staff sign in with an internal key.</p>
      {refusal ? (
        <p role="alert" className="bo-alert">
          {REFUSALS[refusal.refused]}
        </p>
      ) : null}
      <form method="post" className="bo-form">
        <input type="hidden" name="next" value={next} />
        <label htmlFor="key">Internal key</label>
        <input id="key" name="key" type="password" autoComplete="off" required spellCheck={false} />
        <button type="submit" className="bo-button">
          Sign in
        </button>
      </form>
      <p className="bo-hint">
        No key yet? On the server: <code>npm run cli -- create-key --internal --label "back office"</code>
      </p>
    </main>
  );
}

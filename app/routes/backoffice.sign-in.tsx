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
    <SignInPage
      title="Back office"
      intro="The platform’s staff sign in with an internal key."
      keyLabel="Internal key"
      next={next}
      refusal={refusal}
      refusalText={(refusal) => REFUSALS[refusal.refused]}
    >
      <p className="bo-hint">
        No key yet? On the server: <code>npm run cli -- create-key --internal --label "back office"</code>
      </p>
    </SignInPage>
  );
}

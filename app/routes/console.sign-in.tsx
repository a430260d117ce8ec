import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import type { BackOfficeHandle } from '../backoffice/context.js';
import { SignInPage } from '../backoffice/SignInPage.js';
import { type SignInRefusal, signInWithKey } from '../backoffice/signIn.server.js';
import { consoleNext } from '../console/guard.server.js';
import styles from '../backoffice/backoffice.css';

export const handle: BackOfficeHandle & { stylesheets: string[] } = { backOffice: 'page', stylesheets: [styles] };

export const meta: MetaFunction = () => [{ title: 'Sign in | Console' }];

export function loader({ request, context }: LoaderFunctionArgs) {
  const next = consoleNext(new URL(request.url).searchParams.get('next'));
  if (context.console?.caller) return redirect(next);
  return { next };
}

/**
 * One of the provider's keys for a session. An internal key (or the key of an inactive provider)
 * is a 403 page, an unknown or revoked key a 401, and nothing is set.
 */
export function action({ request, context }: ActionFunctionArgs) {
  return signInWithKey(context.console, request, consoleNext);
}

function refusalText(refusal: SignInRefusal): string {
  if (refusal.refused === 'forbidden') return `${refusal.message}.`;
  return refusal.refused === 'unknown' ? 'This key is unknown or revoked.' : 'Sign in from this page.';
}

export default function ConsoleSignIn() {
  const { next } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>() as SignInRefusal | undefined;
  return (
    <SignInPage
      title="Console"
      intro="Your integration’s requests, messages and keys. Sign in with one of your API keys: it opens a session of 8 hours in this browser, and the key is not kept here."
      keyLabel="API key"
      next={next}
      refusal={refusal}
      refusalText={refusalText}
    />
  );
}

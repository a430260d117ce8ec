import { data, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import type { BackOfficeHandle, OidcProblem } from '../backoffice/context.js';
import { SignInProblem } from '../backoffice/SignInProblem.js';
import styles from '../backoffice/backoffice.css';

export const handle: BackOfficeHandle & { stylesheets: string[] } = { backOffice: 'page', stylesheets: [styles] };

export const meta: MetaFunction = () => [{ title: 'Sign in | Back office' }];

/** How each refusal is answered: the person is known but not let in (403), the answer is unusable (400), the IdP is down (503). */
const STATUS: Record<OidcProblem, number> = {
  'not-configured': 404,
  unavailable: 503,
  rejected: 400,
  expired: 400,
  'no-email': 403,
  'unverified-email': 403,
  domain: 403,
  'no-role': 403,
};

function withCookies(cookies: string[]): Headers {
  const headers = new Headers();
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  return headers;
}

/** Back from the identity provider: a session and the page asked for, or the page that says why not. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = context.backOffice;
  if (!session) throw new Response('No back-office session here', { status: 404 });
  const outcome = await session.completeOidcSignIn(request.url);
  if (outcome.ok) return redirect(outcome.next, { headers: withCookies(outcome.cookies) });
  return data<{ problem: OidcProblem; message: string }>(
    { problem: outcome.problem, message: outcome.message },
    { status: STATUS[outcome.problem], headers: withCookies(outcome.cookies) },
  );
}

export default function OidcCallback() {
  const { problem, message } = useLoaderData<typeof loader>() as unknown as { problem: OidcProblem; message: string };
  return <SignInProblem problem={problem} message={message} />;
}

import { data, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import type { BackOfficeHandle, OidcProblem } from '../backoffice/context.js';
import { safeNext } from '../backoffice/guard.server.js';
import { SignInProblem } from '../backoffice/SignInProblem.js';
import styles from '../backoffice/backoffice.css';

export const handle: BackOfficeHandle & { stylesheets: string[] } = { backOffice: 'page', stylesheets: [styles] };

export const meta: MetaFunction = () => [{ title: 'Sign in | Back office' }];

/**
 * Leaves for the identity provider (discovered now, not at start-up): its sign-in page, with the
 * transaction's cookie set; an IdP that cannot be reached is a 503 page that says so.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = context.backOffice;
  const next = safeNext(new URL(request.url).searchParams.get('next'));
  if (!session) throw new Response('No back-office session here', { status: 404 });
  const begun = await session.beginOidcSignIn(next);
  if (begun.ok) return redirect(begun.location, { headers: { 'Set-Cookie': begun.cookie } });
  return data<{ problem: OidcProblem; message: string }>(
    { problem: begun.problem, message: begun.message },
    { status: begun.problem === 'unavailable' ? 503 : 404 },
  );
}

export default function OidcStart() {
  const { problem, message } = useLoaderData<typeof loader>() as unknown as { problem: OidcProblem; message: string };
  return <SignInProblem problem={problem} message={message} />;
}

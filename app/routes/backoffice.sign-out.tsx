import { type ActionFunctionArgs, redirect } from '@remix-run/node';

/** Sign-out is a POST of this server's pages only; a GET leads back to the back office. */
export const handle = { resource: true };

export function loader() {
  return redirect('/backoffice');
}

export async function action({ context }: ActionFunctionArgs) {
  const session = context.backOffice;
  if (!session?.sameOrigin) throw new Response('Sign out from the back office itself', { status: 403 });
  // Asked before the session ends: only a person's session leads to the identity provider.
  const destination = await session.signOutDestination();
  return redirect(destination, { headers: { 'Set-Cookie': await session.signOut() } });
}

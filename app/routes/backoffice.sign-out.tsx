import { type ActionFunctionArgs, redirect } from '@remix-run/node';

/** Sign-out is a POST of this server's pages only; a GET leads back to the back office. */
export const handle = { resource: true };

export function loader() {
  return redirect('/backoffice');
}

export async function action({ context }: ActionFunctionArgs) {
  const session = context.backOffice;
  if (!session?.sameOrigin) throw new Response('Sign out from the back office itself', { status: 403 });
  return redirect('/backoffice/sign-in', { headers: { 'Set-Cookie': await session.signOut() } });
}

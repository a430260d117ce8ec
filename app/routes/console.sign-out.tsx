import { type ActionFunctionArgs, redirect } from '@remix-run/node';

/** Sign-out is a POST of this server's pages only; a GET leads back to the console. */
export const handle = { resource: true };

export function loader() {
  return redirect('/console');
}

export async function action({ context }: ActionFunctionArgs) {
  const session = context.console;
  if (!session?.sameOrigin) throw new Response('Sign out from the console itself', { status: 403 });
  return redirect('/console/sign-in', { headers: { 'Set-Cookie': await session.signOut() } });
}

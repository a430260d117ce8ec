import { data, redirect } from '@remix-run/node';
import type { PageSession } from './context.js';

/** Why a sign-in form was refused: a key of the other audience (or an inactive provider's), an unknown key, another page. */
export type SignInRefusal = { refused: 'forbidden'; message: string } | { refused: 'unknown' | 'origin' };

/**
 * The action of a sign-in form (the back office's, the console's): the key for a session, then
 * the page asked for. A forbidden key is a 403 page, an unknown or revoked key a 401, and nothing is set.
 */
export async function signInWithKey(
  session: PageSession | undefined,
  request: Request,
  nextOf: (value: string | null) => string,
) {
  if (!session?.sameOrigin) return data<SignInRefusal>({ refused: 'origin' }, { status: 403 });
  const form = await request.formData();
  const key = form.get('key');
  const next = nextOf(typeof form.get('next') === 'string' ? (form.get('next') as string) : null);
  try {
    const cookie = await session.signIn(typeof key === 'string' ? key : '');
    return redirect(next, { headers: { 'Set-Cookie': cookie } });
  } catch (error) {
    const code = (error as { extensions?: { code?: unknown } }).extensions?.code;
    if (code === 'FORBIDDEN') {
      return data<SignInRefusal>({ refused: 'forbidden', message: (error as Error).message }, { status: 403 });
    }
    if (code === 'UNAUTHENTICATED') return data<SignInRefusal>({ refused: 'unknown' }, { status: 401 });
    throw error;
  }
}

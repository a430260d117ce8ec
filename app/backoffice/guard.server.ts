import { type AppLoadContext, redirect } from '@remix-run/node';
import type { BackOfficeSession } from './context.js';

/** The session of a back-office page; without one, the sign-in page, which comes back here after. */
export function requireStaff(context: AppLoadContext, request: Request): BackOfficeSession {
  const session = context.backOffice;
  if (session?.caller) return session;
  const url = new URL(request.url);
  // Remix's way out of a loader: a thrown Response is answered as it is.
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  throw redirect(`/backoffice/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`);
}

/** Where to go after signing in: a path of this server only, never another site. */
export function safeNext(value: string | null, home = '/backoffice'): string {
  return value && /^\/(?!\/)/.test(value) && !value.includes('\\') ? value : home;
}

import { type AppLoadContext, redirect } from '@remix-run/node';
import type { PageSession } from '../backoffice/context.js';
import { safeNext } from '../backoffice/guard.server.js';
import { CONSOLE_HOME } from './navigation.js';

/**
 * The session of a console page, opened with one of a provider's keys; without one, the sign-in
 * page, which comes back here after. A back-office session opens no console page.
 */
export function requireConsole(context: AppLoadContext, request: Request): PageSession {
  const session = context.console;
  if (session?.caller) return session;
  const url = new URL(request.url);
  // Remix's way out of a loader: a thrown Response is answered as it is.
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  throw redirect(`/console/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`);
}

/** Where to go after signing in to the console: a path of this server only, else the console's first screen. */
export function consoleNext(value: string | null): string {
  return safeNext(value, CONSOLE_HOME);
}

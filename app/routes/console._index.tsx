import { type LoaderFunctionArgs, redirect } from '@remix-run/node';
import { requireConsole } from '../console/guard.server.js';
import { CONSOLE_HOME } from '../console/navigation.js';

/** `/console` is no page of its own: it leads to the first screen, or to sign in. */
export const handle = { resource: true };

export function loader({ request, context }: LoaderFunctionArgs) {
  requireConsole(context, request);
  return redirect(CONSOLE_HOME);
}

import { type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import type { BackOfficeHandle } from './context.js';
import { requireStaff } from './guard.server.js';
import { BACK_OFFICE_PATH, navigationFor, screenAllowed, screenOf, titleOf } from './routing.js';
import { backOfficeArea, Shell } from './Shell.js';
import styles from './backoffice.css';

/**
 * What the routes of the back office's screens share: the guard (a screen the roles do not allow
 * is a 403; the home page leads to the first screen they do), the title and the frame to hydrate.
 */
export function screenLoader({ request, context }: LoaderFunctionArgs) {
  const session = requireStaff(context, request);
  const path = new URL(request.url).pathname;
  const screen = screenOf(path);
  if (!screen) throw new Response('No such screen', { status: 404 });
  if (!screenAllowed(screen, session.roles)) {
    const first = navigationFor(session.roles)[0];
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- Remix answers a thrown Response as it is.
    if (path.replace(/\/+$/, '') === BACK_OFFICE_PATH && first) throw redirect(first.href);
    throw new Response('Your roles do not open this screen', { status: 403 });
  }
  return { screen, path, roles: session.roles, signedInAs: session.signedInAs ?? '' };
}

export const screenHandle: BackOfficeHandle & { stylesheets: string[] } = { backOffice: 'app', stylesheets: [styles] };

export const screenMeta: MetaFunction<typeof screenLoader> = ({ data }) => [
  { title: data ? `${titleOf(data.screen)} | Back office` : 'Back office' },
];

/** The element the browser hydrates: the screen's path, the roles and who is signed in travel in `data-*`. */
export function BackOfficeScreen() {
  const { screen, path, roles, signedInAs } = useLoaderData<typeof screenLoader>();
  return (
    <div id="backoffice" data-path={path} data-roles={roles.join(' ')} data-signed-in-as={signedInAs}>
      <Shell screen={screen} area={backOfficeArea(roles, signedInAs)} />
    </div>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import type { BackOfficeHandle } from './context.js';
import { requireStaff } from './guard.server.js';
import { screenOf, titleOf } from './routing.js';
import { Shell } from './Shell.js';
import styles from './backoffice.css';

/** What the routes of the back office's screens share: the guard, the title and the frame to hydrate. */
export function screenLoader({ request, context }: LoaderFunctionArgs) {
  requireStaff(context, request);
  const path = new URL(request.url).pathname;
  const screen = screenOf(path);
  if (!screen) throw new Response('No such screen', { status: 404 });
  return { screen, path };
}

export const screenHandle: BackOfficeHandle & { stylesheets: string[] } = { backOffice: 'app', stylesheets: [styles] };

export const screenMeta: MetaFunction<typeof screenLoader> = ({ data }) => [
  { title: data ? `${titleOf(data.screen)} | Back office` : 'Back office' },
];

/** The element the browser hydrates: the screen's path travels in `data-path`. */
export function BackOfficeScreen() {
  const { screen, path } = useLoaderData<typeof screenLoader>();
  return (
    <div id="backoffice" data-path={path}>
      <Shell screen={screen} />
    </div>
  );
}

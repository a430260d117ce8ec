import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import type { BackOfficeHandle } from '../backoffice/context.js';
import { Shell } from '../backoffice/Shell.js';
import styles from '../backoffice/backoffice.css';
import { requireConsole } from './guard.server.js';
import { consoleArea, consoleScreenOf, consoleTitleOf } from './navigation.js';

/** What the console's screens share: the guard (signed in with a provider key), the title and the frame. */
export function consoleLoader({ request, context }: LoaderFunctionArgs) {
  const session = requireConsole(context, request);
  const path = new URL(request.url).pathname;
  const screen = consoleScreenOf(path);
  if (!screen) throw new Response('No such screen', { status: 404 });
  const prefix = session.caller?.apiKeyPrefix ?? '';
  return {
    screen,
    path,
    keyPrefix: prefix,
    signedInAs: session.providerName ? `${session.providerName} (${prefix})` : prefix,
  };
}

export const consoleHandle: BackOfficeHandle & { stylesheets: string[] } = {
  backOffice: 'console',
  stylesheets: [styles],
};

export const consoleMeta: MetaFunction<typeof consoleLoader> = ({ data }) => [
  { title: data ? `${consoleTitleOf(data.screen)} | Console` : 'Console' },
];

/**
 * The element the browser hydrates (app/console/client/main.tsx): the frame with "Loading…"; the
 * screen's path and who is signed in travel in data attributes, so that the first render in the
 * browser is this one.
 */
export function ConsoleScreen() {
  const { screen, path, keyPrefix, signedInAs } = useLoaderData<typeof consoleLoader>();
  return (
    <div id="console" data-path={path} data-signed-in-as={signedInAs} data-key-prefix={keyPrefix}>
      <Shell screen={screen} area={consoleArea(signedInAs)} />
    </div>
  );
}

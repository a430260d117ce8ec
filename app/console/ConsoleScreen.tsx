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
  const screen = consoleScreenOf(new URL(request.url).pathname);
  if (!screen) throw new Response('No such screen', { status: 404 });
  return { screen, providerName: session.providerName ?? null, keyPrefix: session.caller?.apiKeyPrefix ?? '' };
}

// Plain HTML for now: the screens' script comes with the screens.
export const consoleHandle: BackOfficeHandle & { stylesheets: string[] } = {
  backOffice: 'page',
  stylesheets: [styles],
};

export const consoleMeta: MetaFunction<typeof consoleLoader> = ({ data }) => [
  { title: data ? `${consoleTitleOf(data.screen)} | Console` : 'Console' },
];

/** The frame of a console screen: the console's navigation, who is signed in, and the screen's title. */
export function ConsoleScreen() {
  const { screen, providerName, keyPrefix } = useLoaderData<typeof consoleLoader>();
  const signedInAs = providerName ? `${providerName} (${keyPrefix})` : keyPrefix;
  return (
    <div id="console">
      <Shell screen={screen} area={consoleArea(signedInAs)}>
        <h1>{consoleTitleOf(screen)}</h1>
      </Shell>
    </div>
  );
}

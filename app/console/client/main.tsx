import { ApolloProvider } from '@apollo/client/react/context/ApolloProvider.js';
import { hydrateRoot } from 'react-dom/client';
import { createBackOfficeClient } from '../../backoffice/client/apollo.js';
import { type ScreenRoutes, useScreenRouter } from '../../backoffice/client/screenRouter.js';
import { RequestPage, Requests, requestFiltersOf } from '../../backoffice/screens/Requests.js';
import { Shell } from '../../backoffice/Shell.js';
import {
  consoleArea,
  type ConsoleScreen,
  consoleScreenOf,
  consoleTitleOf,
  CONSOLE_REQUESTS_PATH,
} from '../navigation.js';
import { Keys } from '../screens/Keys.js';
import { Messages } from '../screens/Messages.js';
import { TestEvents } from '../screens/TestEvents.js';

// A browser signed in to both the back office and the console sends both cookies: this header
// (server/http/keySession.ts, SESSION_AUDIENCE_HEADER) says which session the console's calls use.
const client = createBackOfficeClient({ 'X-Session-Audience': 'console' });

const ROUTES: ScreenRoutes<ConsoleScreen> = {
  screenOf: consoleScreenOf,
  titleOf: consoleTitleOf,
  titleSuffix: 'Console',
  fallback: { name: 'requests' },
};

interface Session {
  signedInAs: string;
  /** The prefix of the key the session was opened with. */
  keyPrefix: string;
}

function ScreenView({
  screen,
  session,
  onNavigate,
}: {
  screen: ConsoleScreen;
  session: Session;
  onNavigate: (href: string) => void;
}) {
  switch (screen.name) {
    case 'requests':
      return (
        <Requests
          initial={requestFiltersOf(location.search)}
          basePath={CONSOLE_REQUESTS_PATH}
          onNavigate={onNavigate}
        />
      );
    case 'request':
      return (
        <RequestPage
          key={screen.requestId}
          requestId={screen.requestId}
          basePath={CONSOLE_REQUESTS_PATH}
          onNavigate={onNavigate}
        />
      );
    case 'messages':
      return <Messages />;
    case 'test-events':
      return <TestEvents />;
    case 'keys':
      return <Keys sessionKeyPrefix={session.keyPrefix} />;
  }
}

/** The console in the browser: the frame as the server rendered it, then the screen with its data from /graphql. */
function Console({ initialPath, session }: { initialPath: string; session: Session }) {
  const { screen, hydrated, navigate } = useScreenRouter(ROUTES, initialPath);
  return (
    <Shell screen={screen} area={consoleArea(session.signedInAs)} onNavigate={navigate}>
      {hydrated ? <ScreenView screen={screen} session={session} onNavigate={navigate} /> : undefined}
    </Shell>
  );
}

const root = document.getElementById('console');
if (root) {
  hydrateRoot(
    root,
    <ApolloProvider client={client}>
      <Console
        initialPath={root.dataset.path ?? location.pathname}
        session={{ signedInAs: root.dataset.signedInAs ?? '', keyPrefix: root.dataset.keyPrefix ?? '' }}
      />
    </ApolloProvider>,
  );
}

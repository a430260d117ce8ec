import { ApolloProvider } from '@apollo/client/react/context/ApolloProvider.js';
import { hydrateRoot } from 'react-dom/client';
import { screenOf, type Screen, titleOf } from '../routing.js';
import { Shell } from '../Shell.js';
import { Audit, auditFiltersOf } from '../screens/Audit.js';
import { Jobs } from '../screens/Jobs.js';
import { Messages } from '../screens/Messages.js';
import { ProviderPage } from '../screens/ProviderPage.js';
import { Providers } from '../screens/Providers.js';
import { RequestPage, Requests, requestFiltersOf } from '../screens/Requests.js';
import { ReviewQueue } from '../screens/ReviewQueue.js';
import { createBackOfficeClient } from './apollo.js';
import { type ScreenRoutes, useScreenRouter } from './screenRouter.js';

const client = createBackOfficeClient();

function ScreenView({ screen, onNavigate }: { screen: Screen; onNavigate: (href: string) => void }) {
  switch (screen.name) {
    case 'review':
      return <ReviewQueue />;
    case 'providers':
      return <Providers onNavigate={onNavigate} />;
    case 'provider':
      return <ProviderPage key={screen.id} id={screen.id} />;
    case 'messages':
      return <Messages initialProvider={new URLSearchParams(location.search).get('provider') ?? ''} />;
    case 'requests':
      return (
        <Requests
          initial={requestFiltersOf(location.search)}
          basePath="/backoffice/requests"
          onNavigate={onNavigate}
          withProvider
        />
      );
    case 'request':
      return (
        <RequestPage
          key={screen.requestId}
          requestId={screen.requestId}
          basePath="/backoffice/requests"
          onNavigate={onNavigate}
        />
      );
    case 'jobs':
      return <Jobs />;
    case 'audit':
      return <Audit initial={auditFiltersOf(location.search)} />;
  }
}

const ROUTES: ScreenRoutes<Screen> = { screenOf, titleOf, titleSuffix: 'Back office', fallback: { name: 'review' } };

/** The back office in the browser: the frame as the server rendered it, then the screen with its data from /graphql. */
function BackOffice({ initialPath }: { initialPath: string }) {
  const { screen, hydrated, navigate } = useScreenRouter(ROUTES, initialPath);
  return (
    <Shell screen={screen} onNavigate={navigate}>
      {hydrated ? <ScreenView screen={screen} onNavigate={navigate} /> : undefined}
    </Shell>
  );
}

const root = document.getElementById('backoffice');
if (root) {
  hydrateRoot(
    root,
    <ApolloProvider client={client}>
      <BackOffice initialPath={root.dataset.path ?? location.pathname} />
    </ApolloProvider>,
  );
}

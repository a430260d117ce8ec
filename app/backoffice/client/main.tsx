import { ApolloProvider } from '@apollo/client/react/context/ApolloProvider.js';
import { useCallback, useEffect, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { screenOf, type Screen, titleOf } from '../routing.js';
import { Shell } from '../Shell.js';
import { Jobs } from '../screens/Jobs.js';
import { Messages } from '../screens/Messages.js';
import { ProviderPage } from '../screens/ProviderPage.js';
import { Providers } from '../screens/Providers.js';
import { RequestPage, Requests, requestFiltersOf } from '../screens/Requests.js';
import { ReviewQueue } from '../screens/ReviewQueue.js';
import { createBackOfficeClient } from './apollo.js';

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
  }
}

/**
 * The back office in the browser: its first render is the server's (the frame, "Loading…"), so
 * hydration adopts the HTML as it is; then the screen renders with its data from /graphql.
 */
function BackOffice({ initialPath }: { initialPath: string }) {
  const [screen, setScreen] = useState<Screen>(() => screenOf(initialPath) ?? { name: 'review' });
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    const onPop = () => {
      const next = screenOf(location.pathname);
      if (next) setScreen(next);
      else location.reload();
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  useEffect(() => {
    document.title = `${titleOf(screen)} | Back office`;
  }, [screen]);
  const navigate = useCallback((href: string) => {
    const next = screenOf(new URL(href, location.href).pathname);
    if (!next) {
      location.assign(href);
      return;
    }
    history.pushState(null, '', href);
    setScreen(next);
    // The new screen's heading is where a keyboard or screen-reader user continues.
    requestAnimationFrame(() => document.getElementById('main')?.focus());
  }, []);
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

import { ApolloProvider } from '@apollo/client/react/context/ApolloProvider.js';
import { hydrateRoot } from 'react-dom/client';
import type { StaffRole } from '../../../graphql/shared/staffRoles.js';
import { screenOf, type Screen, titleOf } from '../routing.js';
import { Audit, auditFiltersOf } from '../screens/Audit.js';
import { backOfficeArea, Shell } from '../Shell.js';
import { rolesOfAttribute, StaffRolesContext } from '../staffRoles.js';
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
function BackOffice({
  initialPath,
  roles,
  signedInAs,
}: {
  initialPath: string;
  roles: readonly StaffRole[];
  signedInAs: string;
}) {
  const { screen, hydrated, navigate } = useScreenRouter(ROUTES, initialPath);
  return (
    <StaffRolesContext.Provider value={roles}>
      <Shell screen={screen} area={backOfficeArea(roles, signedInAs)} onNavigate={navigate}>
        {hydrated ? <ScreenView screen={screen} onNavigate={navigate} /> : undefined}
      </Shell>
    </StaffRolesContext.Provider>
  );
}

const root = document.getElementById('backoffice');
if (root) {
  hydrateRoot(
    root,
    <ApolloProvider client={client}>
      <BackOffice
        initialPath={root.dataset.path ?? location.pathname}
        roles={rolesOfAttribute(root.dataset.roles)}
        signedInAs={root.dataset.signedInAs ?? ''}
      />
    </ApolloProvider>,
  );
}

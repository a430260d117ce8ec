import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { aBeneficiary, aBookableDate, drainJobs, graphqlAs } from '../support/builders.js';
import type { CreatedSandbox } from '../../graphql/providers/sandbox.js';
import { createPortalHandler } from '../../server/portal.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { type LocalIdentityProvider, startIdentityProvider } from '../support/identityProvider.js';
import { listenLocally, type LocalServer } from '../support/miscLocalServer.js';
import { aSandboxWithReceiver, type Receiver } from '../support/receiver.js';
import { ensurePortalBuilt } from '../portal/ensureBuilt.js';
import { testOpenApiDocument } from '../portal/testPortal.js';

export interface BackOfficeWorld {
  testApp: TestApp;
  server: LocalServer;
  sandbox: CreatedSandbox;
  receiver: Receiver;
  /** An internal key, as `create-key --internal` gives it. */
  internalKey: string;
  /** The organisation's identity provider, on 127.0.0.1, that the platform is configured with. */
  identityProvider: LocalIdentityProvider;
  close(): Promise<void>;
}

export interface BackOfficeWorldOptions {
  /** Whether a person may sign in with an internal key (BACKOFFICE_BREAK_GLASS); on unless said. */
  breakGlass?: boolean;
}

/**
 * The whole app (API, /graphql, portal and back office) on a local port, with a sandbox whose URLs
 * reach a receiver, and staff signing in through a local identity provider.
 */
export async function aBackOfficeWorld(options: BackOfficeWorldOptions = {}): Promise<BackOfficeWorld> {
  const portal = await createPortalHandler({
    mode: 'production',
    projectRoot: ensurePortalBuilt(),
    openApiDocument: testOpenApiDocument(),
  });
  // The IdP must know the platform's callback, and the platform its IdP: the port first, the app after.
  let app: TestApp['app'] | null = null;
  const server = await listenLocally((req, res) => (app ? app(req, res) : res.writeHead(503).end()));
  const identityProvider = await startIdentityProvider({
    redirectUris: [`${server.baseUrl}/backoffice/oidc/callback`],
    postLogoutRedirectUris: [`${server.baseUrl}/backoffice/sign-in`],
  });
  const testApp = await createTestApp({
    portal,
    env: {
      PUBLIC_URL: server.baseUrl,
      ...identityProvider.env,
      BACKOFFICE_BREAK_GLASS: String(options.breakGlass ?? true),
    },
  });
  app = testApp.app;
  // Real time: sessions and key uses are dated by the clock the browser's requests meet.
  testApp.clock.set(new Date());
  const { sandbox, receiver } = await aSandboxWithReceiver(testApp);
  const fork = testApp.database.orm.em.fork();
  const internalKey = issueApiKey(fork, testApp.clock, { env: 'test', internal: true, label: 'back office' }).key;
  await fork.flush();
  return {
    testApp,
    server,
    sandbox,
    receiver,
    internalKey,
    identityProvider,
    async close() {
      await receiver.close();
      await server.close();
      await identityProvider.close();
      await testApp.close();
    },
  };
}

/**
 * A sandbox booking whose notification the receiver refused (503 with `error`), its first attempt
 * made: what a Messages screen shows as not delivered. Returns the booking's id.
 */
export async function aBookingWithARefusedNotification(world: BackOfficeWorld, error: string): Promise<number> {
  const { stock } = await aBookableDate(
    world.testApp.database.orm.em.fork(),
    world.testApp.clock,
    { providerId: world.sandbox.provider.id, venueId: world.sandbox.venues[0].id },
    { offer: { hasTicket: false } },
  );
  const beneficiary = await aBeneficiary(world.testApp, world.sandbox.apiKey, { postalCode: '75011' });
  world.receiver.answer('/notify', { status: 503, json: { error } });
  const booked = await graphqlAs(
    world.testApp,
    world.sandbox.apiKey,
    'mutation B($input: SandboxBookingInput!) { sandboxBook(input: $input) { id } }',
    { input: { stockId: stock.id, quantity: 1, beneficiaryId: beneficiary.id } },
  );
  await drainJobs(world.testApp);
  return booked.body.data.sandboxBook.id as number;
}

import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { aBeneficiary, aBookableDate, drainJobs, graphqlAs } from '../support/builders.js';
import type { CreatedSandbox } from '../../graphql/providers/sandbox.js';
import { createPortalHandler } from '../../server/portal.js';
import { createTestApp, type TestApp } from '../support/app.js';
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
  close(): Promise<void>;
}

/** The whole app (API, /graphql, portal and back office) on a local port, with a sandbox whose URLs reach a receiver. */
export async function aBackOfficeWorld(): Promise<BackOfficeWorld> {
  const portal = await createPortalHandler({
    mode: 'production',
    projectRoot: ensurePortalBuilt(),
    openApiDocument: testOpenApiDocument(),
  });
  const testApp = await createTestApp({ portal });
  // Real time: sessions and key uses are dated by the clock the browser's requests meet.
  testApp.clock.set(new Date());
  const server = await listenLocally(testApp.app);
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
    async close() {
      await receiver.close();
      await server.close();
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

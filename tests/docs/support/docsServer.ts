import type { RequestListener } from 'node:http';
import { type DocsAddresses, docsAddressesOf } from '../../../app/docs/addresses.server.js';
import { SettableClock } from '../../../platform/time/clock.js';
import type { CreatedSandbox } from '../../../graphql/providers/sandbox.js';
import { ensureDemoSandbox } from '../../../server/demo.js';
import { servedOpenApiDocument } from '../../../server/openApiDocument.js';
import { createTestApp, type TestApp } from '../../support/app.js';
import { listenLocally } from '../../support/miscLocalServer.js';
import { outsideCalls } from './outsideCalls.js';

/**
 * The docs' dates are in 2027: a clock pinned before them keeps every sample's date in the
 * future however long the docs live.
 */
export const DOCS_CLOCK_START = new Date('2026-11-24T09:00:00Z');

/**
 * The platform as `npm start` serves it on a fresh database: listening, with the demo sandbox, its
 * calls out answered on the machine (outsideCalls.ts).
 */
export interface DocsServer {
  baseUrl: string;
  /** What its portal's docs would show: its configured address among them, where the samples call. */
  addresses: DocsAddresses;
  sandbox: CreatedSandbox;
  testApp: TestApp;
  /**
   * Writes the requests recorded so far and runs the jobs the last request left due, as the
   * process's request log and worker would right after it.
   */
  runDueJobs(): Promise<void>;
  close(): Promise<void>;
}

/** Beyond this, a job keeps scheduling work for now: a bug, not a backlog. */
const MAX_JOB_BATCHES = 50;

export async function startDocsServer(): Promise<DocsServer> {
  // Configured with the address it listens at, as a deployment's PUBLIC_URL names its own: the port
  // is known once listening, so the app comes after.
  const target: { app?: RequestListener } = {};
  const server = await listenLocally((request, response) => target.app!(request, response));
  const testApp = await createTestApp({
    clock: new SettableClock(DOCS_CLOCK_START),
    env: { PUBLIC_URL: server.baseUrl },
    outbound: { transport: outsideCalls() },
  });
  target.app = testApp.app;
  const sandbox = (await ensureDemoSandbox(testApp.runtime))!;
  return {
    baseUrl: server.baseUrl,
    addresses: docsAddressesOf(servedOpenApiDocument(testApp.runtime).document),
    sandbox,
    testApp,
    async runDueJobs() {
      // The request log is written by a timer within a second: written here, the console's page
      // finds the request its previous sample made without the sample waiting for the timer.
      await testApp.runtime.requestLog.flush();
      // The worker's own loop polls on real time; draining here makes a page's next sample see
      // the job's effect (the bulk EAN upsert, an approval) without waiting for a poll.
      for (let batch = 0; batch < MAX_JOB_BATCHES; batch += 1) {
        if ((await testApp.runtime.worker.runDueJobs()).claimed === 0) return;
      }
      throw new Error(`jobs still due after ${MAX_JOB_BATCHES} batches`);
    },
    async close() {
      await server.close();
      await testApp.close();
    },
  };
}

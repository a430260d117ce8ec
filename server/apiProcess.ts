import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { addressToShow, demoSandboxLines, ensureDemoSandbox } from './demo.js';
import { stopGracefully } from './http/shutdown.js';
import { listenForMetrics } from './metrics/metricsServer.js';
import { servedOpenApiDocument } from './openApiDocument.js';
import { createPortalHandler } from './portal.js';
import { createRuntime } from './runtime.js';
import type { Tracing } from './tracing/start.js';

/**
 * `--dev` (set by `npm run dev`): the portal is read again from its build on each request, so a
 * rebuilt portal shows without a restart.
 */
const portalMode = process.argv.includes('--dev') ? 'development' : 'production';

/** The API process (`npm start`), loaded by server/main.ts once tracing, if any, has started. */
export async function serveApi(config: Config, tracing: Tracing | null): Promise<void> {
  const runtime = await createRuntime(config);
  const sandbox = await ensureDemoSandbox(runtime);
  const portal = await createPortalHandler({
    mode: portalMode,
    openApiDocument: servedOpenApiDocument(runtime).document,
    warmUp: true,
  });
  const app = createApp(runtime, { portal });
  const metricsServer = config.metrics ? await listenForMetrics(runtime.metrics, config.metrics, runtime.logger) : null;
  runtime.startBackgroundWork();
  const server = app.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    runtime.logger.info(
      { port, appEnv: config.appEnv, database: config.database.kind, subgraphServices: config.subgraphUrls },
      'listening',
    );
    const baseUrl = addressToShow(config.publicUrl, port);
    // Printed, not logged: the key is shown to the person who started the process, once.
    for (const line of demoSandboxLines(sandbox, baseUrl)) console.log(line);
    console.log(`Back office: ${baseUrl}/backoffice (sign in with a key of: npm run cli -- create-key --internal)`);
    console.log(`Portal: ${baseUrl}/  GraphQL: ${baseUrl}/graphql`);
  });

  stopGracefully(server, {
    logger: runtime.logger,
    close: async () => {
      await runtime.close();
      await metricsServer?.close();
      // The spans of the last requests, sent before the process exits.
      await tracing?.shutdown();
    },
  });
}

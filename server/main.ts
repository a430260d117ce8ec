import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { addressToShow, demoSandboxLines, ensureDemoSandbox } from './demo.js';
import { SHUTDOWN_GRACE_MS } from './http/limits.js';
import { servedOpenApiDocument } from './openApiDocument.js';
import { createPortalHandler } from './portal.js';
import { createRuntime } from './runtime.js';

/**
 * `--dev` (set by `npm run dev`): the portal is read again from its build on each request, so a
 * rebuilt portal shows without a restart.
 */
const portalMode = process.argv.includes('--dev') ? 'development' : 'production';

async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await createRuntime(config);
  const sandbox = await ensureDemoSandbox(runtime);
  const portal = await createPortalHandler({
    mode: portalMode,
    openApiDocument: servedOpenApiDocument(runtime).document,
    warmUp: true,
  });
  const app = createApp(runtime, { portal });
  runtime.startBackgroundWork();
  const server = app.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    runtime.logger.info({ port, appEnv: config.appEnv, database: config.database.kind }, 'listening');
    const baseUrl = addressToShow(config.publicUrl, port);
    // Printed, not logged: the key is shown to the person who started the process, once.
    for (const line of demoSandboxLines(sandbox, baseUrl)) console.log(line);
    console.log(`Back office: ${baseUrl}/backoffice (sign in with a key of: npm run cli -- create-key --internal)`);
    console.log(`Portal: ${baseUrl}/  GraphQL: ${baseUrl}/graphql`);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const forced = setTimeout(() => {
      runtime.logger.warn('in-flight requests did not finish in time');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    server.close(() => {
      runtime.close().then(
        () => {
          runtime.logger.info('stopped');
          process.exit(0);
        },
        (error: unknown) => {
          runtime.logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});

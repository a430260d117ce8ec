import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { isSubgraphName, subgraphNames } from '../graphql/subgraphNames.js';
import { ConfigError, loadConfig } from './config.js';
import { stopGracefully } from './http/shutdown.js';
import { listenForMetrics } from './metrics/metricsServer.js';
import { createCore } from './runtime.js';
import { createSubgraphApp } from './subgraphs/serviceApp.js';

/**
 * `npm run subgraph -- offers`: one subgraph as a service of its own, on the same configuration
 * as the API process (database, HOST, PORT), with its resolvers, its jobs and its periodic tasks.
 * The API process reaches it through SUBGRAPH_URLS.
 */
async function main(): Promise<void> {
  const name = process.argv[2];
  if (name === undefined || !isSubgraphName(name)) {
    console.error(`Usage: npm run subgraph -- <${subgraphNames.join('|')}>`);
    process.exit(2);
  }
  const config = loadConfig();
  const secret = config.internalSigningSecret;
  if (!secret) {
    throw new ConfigError(
      'Invalid configuration:\n  INTERNAL_SIGNING_SECRET: is required by a subgraph service, with the value the API process has',
    );
  }
  const core = await createCore(config, [name]);
  const logger = core.logger.child({ subgraph: name });
  const service = await createSubgraphApp({
    core,
    name,
    secret,
    logger,
  });
  const metricsServer = config.metrics ? await listenForMetrics(core.metrics, config.metrics, logger) : null;
  core.startBackgroundWork();
  const server = service.app.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    logger.info({ port, appEnv: config.appEnv, database: config.database.kind }, 'listening');
  });
  stopGracefully(server, {
    logger,
    close: async () => {
      await service.stop();
      await core.close();
      await metricsServer?.close();
    },
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

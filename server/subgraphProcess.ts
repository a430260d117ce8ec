import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { SubgraphName } from '../graphql/subgraphNames.js';
import { type Config, ConfigError } from './config.js';
import { stopGracefully } from './http/shutdown.js';
import { listenForMetrics } from './metrics/metricsServer.js';
import { createCore } from './runtime.js';
import { createSubgraphApp } from './subgraphs/serviceApp.js';
import type { Tracing } from './tracing/start.js';

/**
 * `npm run subgraph -- offers`: one subgraph as a service of its own, on the same configuration
 * as the API process (database, HOST, PORT), with its resolvers, its jobs and its periodic tasks.
 * The API process reaches it through SUBGRAPH_URLS. Loaded by server/subgraphMain.ts once
 * tracing, if any, has started.
 */
export async function serveSubgraph(name: SubgraphName, config: Config, tracing: Tracing | null): Promise<void> {
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
  service.acceptHops(server);
  stopGracefully(server, {
    logger,
    drain: () => service.drainHops(),
    close: async () => {
      await service.stop();
      await core.close();
      await metricsServer?.close();
      await tracing?.shutdown();
    },
  });
}

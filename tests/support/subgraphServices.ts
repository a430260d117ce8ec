import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/time/clock.js';
import { subgraphNames, type SubgraphName } from '../../graphql/subgraphNames.js';
import type { Config } from '../../server/config.js';
import { type Core, createCore, type RuntimeOptions } from '../../server/runtime.js';
import { createSubgraphApp, type SubgraphApp } from '../../server/subgraphs/serviceApp.js';

/** A secret for the services of a test or a benchmark: any 32 characters do, both sides share it. */
export const TEST_SIGNING_SECRET = 'services-in-this-process-share-this-secret';

/** The four subgraph services, each listening on 127.0.0.1, in this process, on one database. */
export interface SubgraphServices {
  /** For SUBGRAPH_URLS. */
  urls: string;
  /** The configuration of an API process in front of them (Config.subgraphUrls and the secret). */
  apiConfig: Config;
  cores: Record<SubgraphName, Core>;
  close(): Promise<void>;
}

/**
 * Each subgraph served over HTTP as `npm run subgraph -- <name>` serves it, but in this process and
 * on the caller's database (an in-memory SQLite included): the API process's hop is real (HTTP,
 * JSON, the signed caller), its work shares the event loop with the API, so that its cost shows.
 */
export async function startSubgraphServices(options: {
  config: Config;
  orm: MikroORM;
  logger: Logger;
  clock?: Clock;
  outbound?: RuntimeOptions['outbound'];
}): Promise<SubgraphServices> {
  const config = { ...options.config, internalSigningSecret: TEST_SIGNING_SECRET, subgraphUrls: {} };
  const started: { name: SubgraphName; core: Core; service: SubgraphApp; server: Server; url: string }[] = [];
  for (const name of subgraphNames) {
    const core = await createCore(config, [name], {
      orm: options.orm,
      logger: options.logger,
      clock: options.clock,
      outbound: options.outbound,
    });
    const service = await createSubgraphApp({
      core,
      name,
      secret: TEST_SIGNING_SECRET,
      logger: options.logger,
    });
    const server = createServer(service.app);
    service.acceptHops(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    started.push({ name, core, service, server, url });
  }
  return {
    urls: started.map(({ name, url }) => `${name}=${url}`).join(','),
    apiConfig: {
      ...config,
      subgraphUrls: Object.fromEntries(started.map(({ name, url }) => [name, url])),
    },
    cores: Object.fromEntries(started.map(({ name, core }) => [name, core])) as Record<SubgraphName, Core>,
    async close() {
      for (const { core, service, server } of started) {
        // First the hop's connections: the server's close waits for upgraded sockets.
        await service.stop();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await core.close();
      }
    },
  };
}

import { ConfigError, loadConfig } from './config.js';
import { startTracing } from './tracing/start.js';

/**
 * `npm start`. Tracing starts before the rest of the process is imported (dynamically, below):
 * OpenTelemetry's instrumentations patch express, pg, ioredis and graphql as they load, and an
 * ES module's static imports all load before its first line runs.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const tracing = await startTracing(config.tracing, { kind: 'api' });
  const { serveApi } = await import('./apiProcess.js');
  await serveApi(config, tracing);
}

main().catch(async (error: unknown) => {
  const { ForeignSubgraphError } = await import('./subgraphs/connect.js');
  if (error instanceof ConfigError || error instanceof ForeignSubgraphError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});

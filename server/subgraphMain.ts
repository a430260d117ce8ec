import { isSubgraphName, subgraphNames } from '../graphql/subgraphNames.js';
import { ConfigError, loadConfig } from './config.js';
import { startTracing } from './tracing/start.js';

/**
 * `npm run subgraph -- <name>`. Tracing starts before the service is imported, for the reason
 * server/main.ts gives.
 */
async function main(): Promise<void> {
  const name = process.argv[2];
  if (name === undefined || !isSubgraphName(name)) {
    console.error(`Usage: npm run subgraph -- <${subgraphNames.join('|')}>`);
    process.exit(2);
  }
  const config = loadConfig();
  const tracing = await startTracing(config.tracing, { kind: 'subgraph', name });
  const { serveSubgraph } = await import('./subgraphProcess.js');
  await serveSubgraph(name, config, tracing);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

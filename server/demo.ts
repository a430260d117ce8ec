import { Provider } from '../graphql/providers/Provider.js';
import { createSandbox } from '../graphql/providers/sandbox.js';
import type { Runtime } from './runtime.js';

/**
 * On an empty database, creates the demo sandbox and returns the lines to show once:
 * the key and the messaging secret are never stored in clear or shown again.
 */
export async function ensureDemoSandbox(runtime: Runtime): Promise<string[]> {
  const em = runtime.orm.em.fork();
  if ((await em.count(Provider, {})) > 0) {
    return [
      'Demo sandbox already set up; its API key is shown only once, when it is created.',
      'Issue another key with: npm run cli -- create-key --provider 1 --offerer 1',
    ];
  }
  const sandbox = await createSandbox(em, runtime.clock, runtime.config.appEnv);
  const baseUrl = `http://localhost:${runtime.config.port}`;
  return [
    `Demo provider #${sandbox.provider.id} "${sandbox.provider.name}" with ${sandbox.venues.length} venues created.`,
    `Demo API key: ${sandbox.apiKey}`,
    `Demo messaging secret: ${sandbox.messagingSecret}`,
    `Try it: curl -H "Authorization: Bearer ${sandbox.apiKey}" ${baseUrl}/public/providers/v1/provider`,
  ];
}

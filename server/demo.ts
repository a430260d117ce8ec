import { Provider } from '../graphql/providers/Provider.js';
import { type CreatedSandbox, createSandbox } from '../graphql/providers/sandbox.js';
import type { Runtime } from './runtime.js';

/** On an empty database, creates the demo sandbox; null when the database already has data. */
export async function ensureDemoSandbox(runtime: Runtime): Promise<CreatedSandbox | null> {
  const em = runtime.orm.em.fork();
  if ((await em.count(Provider, {})) > 0) return null;
  return createSandbox(em, runtime.clock, runtime.config.appEnv);
}

/**
 * The address the start-up lines name: the configured PUBLIC_URL, as the docs' samples show it,
 * unless it is the default built from PORT=0, when only the bound port is known.
 */
export function addressToShow(publicUrl: string, boundPort: number): string {
  return publicUrl.endsWith(':0') ? `http://localhost:${boundPort}` : publicUrl;
}

/**
 * What to show once: the API key is stored only as a prefix and a hash, so this is the only
 * moment it can be read. The messaging secret is stored (the platform signs every message with
 * it) but no operation ever returns it: this is the one place it is shown too.
 */
export function demoSandboxLines(sandbox: CreatedSandbox | null, baseUrl: string): string[] {
  if (!sandbox) {
    return [
      'Demo sandbox already set up; its API key is shown only once, when it is created.',
      'Issue another key with: npm run cli -- create-key --provider 1 --offerer 1',
    ];
  }
  return [
    `Demo provider #${sandbox.provider.id} "${sandbox.provider.name}" with ${sandbox.venues.length} venues created.`,
    `Demo API key: ${sandbox.apiKey}`,
    `Demo messaging secret: ${sandbox.messagingSecret}`,
    `Try it: curl -H "Authorization: Bearer ${sandbox.apiKey}" ${baseUrl}/public/providers/v1/provider`,
  ];
}

import type { Bench } from './harness.js';
import { measureReadPair } from './harness.js';
import { createRawProviderApp } from './rawProviderApp.js';
import { PROVIDER_TARGET } from './targets.js';

/** GET the key's provider, through the facade and by hand (one query, key joined to its provider). */
export const providerBench: Bench = {
  key: 'provider',
  async run(context) {
    await measureReadPair(context, {
      key: this.key,
      title: 'GET provider',
      path: '/public/providers/v1/provider',
      target: PROVIDER_TARGET,
      raw: createRawProviderApp(context.target.runtime),
    });
  },
};

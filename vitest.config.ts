import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  // type-graphql and MikroORM read decorator metadata, which oxc emits only when asked.
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  resolve: {
    // One copy of graphql: the CommonJS one that @apollo/* load, or schemas come from two realms.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['tests/**/*.test.ts'],
    // The compiled server and the portal, built once before the workers start, when the run reads them.
    globalSetup: ['tests/support/globalSetup.ts'],
    setupFiles: ['tests/support/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});

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
    // A worker loads type-graphql, MikroORM and Apollo once and runs file after file on them:
    // module loading was 191 s of a 290 s run when each file had a fresh worker. Files stay
    // independent of each other's data: each makes its own database (tests/support/database.ts).
    isolate: false,
    fileParallelism: true,
    maxWorkers: 2,
  },
});

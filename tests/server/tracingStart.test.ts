import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tracedLibraries } from '../../server/config.js';
import { findProjectRoot } from '../../server/portal.js';
import { ensureServerBuilt } from '../support/serverBuild.js';

const run = promisify(execFile);

/**
 * What a process loads of OpenTelemetry, with tracing off and on: the compiled start-up
 * (dist/server/tracing/start.js) in a Node process of its own, then the packages in its module
 * cache (the SDK and the instrumentations are CommonJS: an import of them lands there too).
 */
async function loadedPackages(tracing: 'off' | 'on'): Promise<string[]> {
  const root = findProjectRoot();
  ensureServerBuilt(root);
  const start = join(root, 'dist', 'server', 'tracing', 'start.js');
  const config =
    tracing === 'on'
      ? `{ protocol: 'http/json', sampler: 'always_on', samplerRatio: 1, serviceName: null, instrumentations: ${JSON.stringify(tracedLibraries)} }`
      : 'null';
  const script = `
    import { createRequire } from 'node:module';
    const { startTracing } = await import(${JSON.stringify(start)});
    const tracing = await startTracing(${config}, { kind: 'api' });
    const loaded = Object.keys(createRequire(import.meta.url).cache)
      .map((path) => /node_modules\\/(@opentelemetry\\/[^/]+)\\//.exec(path)?.[1])
      .filter(Boolean);
    console.log(JSON.stringify([...new Set(loaded)].sort()));
    await tracing?.shutdown();
  `;
  // Nothing of the test's own environment; @remix-run/node's globals make NODE_ENV required in ProcessEnv.
  const childEnv: Record<string, string | undefined> = { PATH: process.env.PATH };
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    env: childEnv as NodeJS.ProcessEnv,
  });
  return JSON.parse(stdout) as string[];
}

describe('starting tracing', () => {
  it('loads nothing of OpenTelemetry without an endpoint', async () => {
    expect(await loadedPackages('off')).toEqual([]);
  });

  it('loads the SDK, an exporter and the instrumentations with one', async () => {
    expect(await loadedPackages('on')).toEqual(
      expect.arrayContaining([
        '@opentelemetry/sdk-trace-node',
        '@opentelemetry/exporter-trace-otlp-http',
        '@opentelemetry/instrumentation-express',
        '@opentelemetry/instrumentation-pg',
      ]),
    );
  });
});

// `npm run bench`'s entry. With --instrumented, tracing starts before the benchmarks' modules are
// imported (dynamically, below): OpenTelemetry's instrumentations patch express, pg and graphql
// as they load, and an ES module's static imports all load before its first line runs.
import { startInstrumentation } from './instrumentation.js';

const instrumentation = process.argv.includes('--instrumented') ? await startInstrumentation() : null;
const { runBench } = await import('./run.js');
try {
  process.exitCode = await runBench(instrumentation);
} catch (error) {
  console.error('bench failed:', error);
  process.exitCode = 1;
} finally {
  await instrumentation?.close();
}

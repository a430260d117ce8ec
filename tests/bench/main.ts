// `npm run bench`'s entry; `npm run bench -- --scale` runs the bench at the programme's size instead. With --instrumented, tracing starts before the benchmarks' modules are
// imported (dynamically, below): OpenTelemetry's instrumentations patch express, pg and graphql
// as they load, and an ES module's static imports all load before its first line runs.
import { startInstrumentation } from './instrumentation.js';

const instrumentation = process.argv.includes('--instrumented') ? await startInstrumentation() : null;
try {
  if (process.argv.includes('--scale')) {
    // The programme's size (issue 41): a run of its own, on PostgreSQL (scale/run.ts).
    const { runScaleBench } = await import('./scale/run.js');
    process.exitCode = await runScaleBench(process.argv.slice(2));
  } else {
    const { runBench } = await import('./run.js');
    process.exitCode = await runBench(instrumentation);
  }
} catch (error) {
  console.error('bench failed:', error);
  process.exitCode = 1;
} finally {
  await instrumentation?.close();
}

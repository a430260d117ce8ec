import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../server/config.js';
import { startTracing, type Tracing } from '../../server/tracing/start.js';

/** What `--instrumented` turned on, and what the bench's own OTLP receiver took in. */
export interface Instrumentation {
  /** One line for the report. */
  describe(): string;
  close(): Promise<void>;
}

/**
 * `npm run bench -- --instrumented`: the run with the instrumentation operators turn on (issue 37),
 * to weigh it against a run without. Tracing at a 10% sample of requests (OpenTelemetry's standard
 * variables; any set in the environment win), exported over OTLP to a receiver of the bench's own on
 * 127.0.0.1 that reads and drops what it gets, and metrics on (METRICS_PORT=0: scraped in-process,
 * target.ts). Started before the server's modules load: the instrumentations patch them as they do.
 */
export async function startInstrumentation(): Promise<Instrumentation> {
  const received = { exports: 0, bytes: 0 };
  const receiver: Server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      received.bytes += chunk.length;
    });
    request.on('end', () => {
      received.exports += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`;
  process.env.OTEL_TRACES_SAMPLER ??= 'parentbased_traceidratio';
  process.env.OTEL_TRACES_SAMPLER_ARG ??= '0.1';
  process.env.OTEL_SERVICE_NAME ??= 'provider-platform-bench';
  process.env.METRICS_PORT ??= '0';
  const config = loadConfig();
  const tracing: Tracing | null = await startTracing(config.tracing, { kind: 'api' });
  return {
    describe: () =>
      `instrumented: traces ${process.env.OTEL_TRACES_SAMPLER} ${process.env.OTEL_TRACES_SAMPLER_ARG} over ` +
      `OTLP ${config.tracing?.protocol ?? '?'} to the bench's own receiver (${received.exports} exports, ` +
      `${(received.bytes / 1024).toFixed(0)} KB received), metrics on (METRICS_PORT=${process.env.METRICS_PORT})`,
    close: async () => {
      await tracing?.shutdown();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    },
  };
}

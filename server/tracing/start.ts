import type { TracingConfig } from '../config.js';

/** The process that traces: the API process, or the subgraph service it is. */
export type TracedProcess = { kind: 'api' } | { kind: 'subgraph'; name: string };

/** Tracing once started: flushes what is buffered when the process stops. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry when an OTLP endpoint is configured, and loads nothing otherwise: the
 * SDK, its exporters and instrumentations are imported here, on demand, so a process without an
 * endpoint pays for none of them. Call it before importing the modules it instruments (express,
 * pg, ioredis, graphql, undici): an instrumentation patches a module as it loads.
 */
export async function startTracing(config: TracingConfig | null, process: TracedProcess): Promise<Tracing | null> {
  if (!config) return null;
  const { startSdk } = await import('./sdk.js');
  return startSdk(config, process);
}

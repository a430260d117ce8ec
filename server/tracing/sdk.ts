import { register } from 'node:module';
import { type Attributes, type Context, type Link, SpanKind, trace } from '@opentelemetry/api';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  type Sampler,
  SamplingDecision,
  type SamplingResult,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import type { TracedLibrary, TracingConfig } from '../config.js';
import type { TracedProcess, Tracing } from './start.js';

/** The sampler OTEL_TRACES_SAMPLER names. */
function samplerOf(config: TracingConfig, process: TracedProcess): Sampler {
  const ratio = new TraceIdRatioBasedSampler(config.samplerRatio);
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_always_on':
    case 'parentbased_traceidratio': {
      const root = config.sampler === 'parentbased_traceidratio' ? ratio : new AlwaysOnSampler();
      // The API process is the edge: a `traceparent` sent by anyone on the internet may place its
      // spans in the caller's trace, but not decide that they are sampled (at 10%, a client could
      // otherwise make every one of its requests cost a full trace). The services behind it follow
      // the API process's decision.
      return process.kind === 'api'
        ? new ParentBasedSampler({ root, remoteParentSampled: root, remoteParentNotSampled: root })
        : new ParentBasedSampler({ root });
    }
  }
}

/**
 * A trace begins with a request served or a job run. Work without a parent that is neither (the
 * start-up's parsing of every facade document, a poll of the job table) is not recorded: it would
 * be hundreds of one-span traces that follow no one's request.
 */
class RequestsAndJobs implements Sampler {
  constructor(private readonly sampler: Sampler) {}

  shouldSample(
    context: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    if (!trace.getSpanContext(context) && kind !== SpanKind.SERVER && kind !== SpanKind.CONSUMER) {
      return { decision: SamplingDecision.NOT_RECORD };
    }
    return this.sampler.shouldSample(context, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `RequestsAndJobs{${this.sampler.toString()}}`;
  }
}

/** The SDK, its exporter and the instrumentations of the libraries the platform uses. */
export function startSdk(config: TracingConfig, process: TracedProcess): Tracing {
  const serviceName =
    config.serviceName ?? (process.kind === 'api' ? 'provider-platform-api' : `provider-platform-${process.name}`);
  // The exporter reads the endpoint, headers and timeout from OTEL_EXPORTER_OTLP_* itself, as the specification says.
  const exporter = config.protocol === 'http/json' ? new JsonExporter() : new ProtobufExporter();
  const provider = new NodeTracerProvider({
    // OTEL_RESOURCE_ATTRIBUTES (and OTEL_SERVICE_NAME) over the process's own name.
    resource: resourceFromAttributes({ 'service.name': serviceName }).merge(
      detectResources({ detectors: [envDetector] }),
    ),
    sampler: new RequestsAndJobs(samplerOf(config, process)),
    // Its delays and sizes come from OTEL_BSP_* (5 s and 512 spans by default).
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // W3C trace context and baggage, and async-hooks context: the defaults.
  provider.register();
  // The server is ES modules. The instrumentations see a module loaded by `require`
  // (require-in-the-middle: graphql, pg through knex), but express and ioredis, which our modules
  // import, only through this loader hook (import-in-the-middle); limited to them, since the hook
  // otherwise wraps every module the process loads.
  const hooked = (['express', 'ioredis'] as const).filter((library) => config.instrumentations.includes(library));
  if (hooked.length > 0)
    register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: hooked } });
  const instrumentations = {
    http: () =>
      new HttpInstrumentation({
        // Probes come every few seconds from every load balancer: traces of nothing.
        ignoreIncomingRequestHook: (request) => request.url?.startsWith('/health') ?? false,
        // A request's span is named by its route's template, which the facade's route table leaves on
        // Express's `res.locals` (the same object as Node's response): a raw path would name every id.
        applyCustomAttributesOnSpan: (span, request, response) => {
          const route = (response as { locals?: { route?: unknown } }).locals?.route;
          if (typeof route !== 'string') return;
          span.setAttribute('http.route', route);
          span.updateName(`${request.method ?? 'GET'} ${route}`);
        },
      }),
    // Each middleware (request id, body parsers, the rate limit) as a span of its own is noise:
    // routers and handlers stay, and the facade's routes have spans of their own.
    express: () => new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    // Resolvers of scalar fields are many and say nothing a slow trace needs.
    graphql: () => new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, mergeItems: true }),
    pg: () => new PgInstrumentation({ requireParentSpan: true }),
    ioredis: () => new IORedisInstrumentation({ requireParentSpan: true }),
    undici: () => new UndiciInstrumentation(),
  } satisfies Record<TracedLibrary, () => unknown>;
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: config.instrumentations.map((library) => instrumentations[library]()),
  });
  return { shutdown: () => provider.shutdown() };
}

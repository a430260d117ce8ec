import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/**
 * Spans of our own, where no library's instrumentation sees the work (a facade route, a document
 * run on a subgraph, a job, a message to a provider, a SQLite statement). Written against
 * OpenTelemetry's API only: without the SDK (server/tracing/, loaded when an endpoint is set)
 * every span here is a no-op that costs a function call.
 */
const tracer = trace.getTracer('provider-platform');

export { SpanKind };

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The context the span belongs to; the active one by default. */
  parent?: Context;
}

/** Runs `work` in a span that ends with it, marked as an error when it throws. */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        failSpan(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** Starts a span for callback-style work (an Express chain): `run` gets it active, the caller ends it. */
export function startSpan<T>(name: string, options: SpanOptions, run: (span: Span) => T): T {
  const span = tracer.startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    options.parent ?? context.active(),
  );
  return context.with(trace.setSpan(options.parent ?? context.active(), span), () => run(span));
}

/** An outcome that is a failure without being an exception (a job to retry, a provider's 500). */
export function markFailed(span: Span, reason: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
}

export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * The W3C `traceparent` of the active span, kept with work done later (a job), so that the work
 * joins the trace of its cause; null when nothing is traced.
 */
export function activeTraceParent(): string | null {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** The context a kept `traceparent` names (the root context without one). */
export function contextOfTraceParent(traceParent: string | null): Context {
  return traceParent ? propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }) : ROOT_CONTEXT;
}

import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (prom-client), one registry per process (per runtime in tests,
 * which run several in one process). What reads the database does so at scrape time only
 * (`addCollector`); what counts events counts them where they happen, with labels from bounded sets.
 */

/** Every metric of ours starts with it; prom-client's default ones keep their standard names. */
export const METRIC_PREFIX = 'platform_';

/** Seconds: a REST route answers in about 1 ms in process, a ticketing call may take 8 s. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Why a try at a message to a provider did not deliver it: the outcome's kind, a status by class. */
export type DeliveryFailureReason =
  'status_4xx' | 'status_5xx' | 'status_other' | 'timeout' | 'refused' | 'oversized' | 'unreachable';

/** Counts the failed tries at messages to providers; what graphql/bookings is given, without prom-client. */
export interface DeliveryFailures {
  failed(kind: string, reason: DeliveryFailureReason, final: boolean): void;
}

/** Where a refusal of the rate limit came from: a REST request, a /graphql request, or an operation's cost. */
export type RateLimitRefusal = 'rest' | 'graphql' | 'graphql_cost';

export interface Metrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status_class'>;
  graphqlOperationDuration: Histogram<'operation' | 'outcome'>;
  rateLimitRefusals: Counter<'source'>;
  deliveryFailures: DeliveryFailures;
  /** A collector run at each scrape, before the text is written (a database read). */
  addCollector(collect: () => Promise<void>): void;
  /** The Prometheus text format, the collectors run first. */
  text(): Promise<string>;
}

export interface MetricsOptions {
  /** The event loop's delay, memory, CPU, handles: prom-client's default metrics (a timer of their own). */
  processMetrics: boolean;
}

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const httpRequestDuration = new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'HTTP requests by route template (never a raw path), method and status class; _count is the number of requests',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const graphqlOperationDuration = new Histogram({
    name: `${METRIC_PREFIX}graphql_operation_duration_seconds`,
    help: '/graphql operations by operation name (anonymous, unresolved or past the first names seen: collapsed) and outcome',
    labelNames: ['operation', 'outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const rateLimitRefusals = new Counter({
    name: `${METRIC_PREFIX}rate_limit_refusals_total`,
    help: 'Requests and operations refused with 429 by the per-key rate limit',
    labelNames: ['source'] as const,
    registers: [registry],
  });
  const deliveryFailureCounter = new Counter({
    name: `${METRIC_PREFIX}message_delivery_failures_total`,
    help: 'Failed tries at messages to providers, by message kind and reason; final="true": the message was given up',
    labelNames: ['kind', 'reason', 'final'] as const,
    registers: [registry],
  });
  const collectors: (() => Promise<void>)[] = [];
  return {
    registry,
    httpRequestDuration,
    graphqlOperationDuration,
    rateLimitRefusals,
    deliveryFailures: {
      failed: (kind, reason, final) => deliveryFailureCounter.inc({ kind, reason, final: String(final) }),
    },
    addCollector: (collect) => void collectors.push(collect),
    async text() {
      await Promise.all(collectors.map((collect) => collect()));
      return registry.metrics();
    },
  };
}

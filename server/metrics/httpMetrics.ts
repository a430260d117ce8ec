import type { RequestHandler } from 'express';
import type { Histogram } from 'prom-client';

type RequestHistogram = Histogram<'method' | 'route' | 'status_class'>;
type Child = ReturnType<RequestHistogram['labels']>;

/** A path of the API's prefixes that no operation of the contract matched: one label, never the path. */
export const UNMATCHED_ROUTE = 'unmatched';
/** Anything else the process serves (the portal's pages and assets, its own 404s). */
export const OTHER_ROUTE = 'other';

/** The paths served outside the contract, labelled by their first segment or their whole fixed path. */
const FIXED_ROUTES: readonly [prefix: string, label: string][] = [
  ['/graphql', '/graphql'],
  ['/health/ready', '/health/ready'],
  ['/healthz', '/health'],
  ['/health', '/health'],
  ['/openapi.json', '/openapi.json'],
  ['/images/', '/images/{key}'],
  ['/backoffice', '/backoffice'],
  ['/console', '/console'],
  ['/public/', UNMATCHED_ROUTE],
  ['/v2/', UNMATCHED_ROUTE],
];

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/** The label of a request no operation claimed: from a fixed list, so that a path never becomes a label. */
export function fixedRouteOf(url: string): string {
  for (const [prefix, label] of FIXED_ROUTES) {
    if (url.startsWith(prefix)) {
      const next = url.charCodeAt(prefix.length);
      // `/graphql` but not `/graphqlx`: the prefix ends the path or a segment.
      if (prefix.endsWith('/') || Number.isNaN(next) || next === 47 /* / */ || next === 63 /* ? */) return label;
    }
  }
  return url === '/public' || url === '/v2' ? UNMATCHED_ROUTE : OTHER_ROUTE;
}

/**
 * Observes each answered request in the duration histogram, labelled by the route template the
 * facade matched (its operationId, looked up in `templates`) or a fixed label, the method and the
 * status class. The histogram's children are made once per label set and kept, so that a request
 * only reads a map and observes (O(buckets)): no label object per request.
 */
export function httpMetrics(histogram: RequestHistogram, templates: ReadonlyMap<string, string>): RequestHandler {
  const childFor = requestObserver(histogram);
  return (req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      const operationId = res.locals.operationId;
      const route = (operationId !== undefined && templates.get(operationId)) || fixedRouteOf(req.originalUrl);
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      childFor(method, route, res.statusCode).observe((performance.now() - started) / 1000);
    });
    next();
  };
}

/** The histogram's child for a method, a route and a status, made once per label set and kept. */
export function requestObserver(histogram: RequestHistogram): (method: string, route: string, status: number) => Child {
  const children = new Map<string, Child[]>();
  return (method, route, status) => {
    const key = `${method} ${route}`;
    let byClass = children.get(key);
    if (!byClass) {
      byClass = STATUS_CLASSES.map((statusClass) => histogram.labels({ method, route, status_class: statusClass }));
      children.set(key, byClass);
    }
    const index = Math.floor(status / 100) - 1;
    return byClass[index >= 0 && index < 5 ? index : 4];
  };
}

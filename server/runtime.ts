import type { MikroORM } from '@mikro-orm/core';
import { buildGraph, type Graph, type SubgraphName, subgraphNames } from '../graphql/graph.js';
import { type Clock, systemClock } from '../platform/time/clock.js';
import type { GraphServices } from '../graphql/shared/context.js';
import { DomainEventBus } from '../graphql/shared/domainEvents.js';
import { createGeocoder } from '../graphql/providers/geocoding/index.js';
import { LocalDiskImageStore } from '../platform/images/index.js';
import { createOutbound, type OutboundOptions } from '../platform/outbound/index.js';
import { routes as allRoutes } from '../rest-facade/index.js';
import { routesFor } from '../rest-facade/openapi.js';
import type { AnyRoute } from '../rest-facade/route.js';
import { compileRoutes } from '../rest-facade/router.js';
import type { Config } from './config.js';
import { migrate, openDatabase } from './db/orm.js';
import { loadReferenceData } from './db/referenceData.js';
import { type GraphqlEndpoint, startGraphqlEndpoint } from './graphqlEndpoint.js';
import { JobRegistry } from '../platform/jobs/registry.js';
import { JobWorker } from '../platform/jobs/worker.js';
import { createLogger, type Logger } from './logger.js';
import { watchCallerChanges } from './db/callerChanges.js';
import { CallerCache } from '../graphql/providers/callerCache.js';
import type { KeyRowCache } from '../graphql/providers/apiKeys.js';
import { createRateLimiter, type RateLimiter } from './rateLimit.js';
import { connectRedis, type RedisLink } from './redis.js';
import { collectRateLimitStore } from './metrics/rateLimitMetrics.js';
import { Scheduler } from '../platform/jobs/scheduler.js';
import { IdempotencyStore } from '../platform/idempotency/index.js';
import { purgeRequestLog, RequestLogWriter } from '../platform/requestLog/index.js';
import { registerWork } from './work/index.js';
import { createMetrics, type Metrics } from '../platform/metrics/index.js';
import { WorkerPresence } from '../platform/jobs/presence.js';
import { unhandledJobsTask } from '../platform/jobs/queueFigures.js';
import { collectCoreMetrics } from './metrics/coreMetrics.js';
import {
  closeSubgraphLinks,
  connectSubgraphs,
  remoteExecutors,
  remoteSubgraphs,
  type SubgraphLinks,
} from './subgraphs/connect.js';
import { type OidcSignIn, oidcSignIn } from './staffSignIn/oidcSignIn.js';

/**
 * What every process of the platform holds once booted, the API process and a subgraph service
 * alike: the database, the graph, the collaborators resolvers call, and the background work of
 * the subgraphs it hosts.
 */
export interface Core {
  config: Config;
  logger: Logger;
  orm: MikroORM;
  clock: Clock;
  events: DomainEventBus;
  services: GraphServices;
  graph: Graph;
  /** The subgraphs whose resolvers, jobs and periodic tasks run in this process. */
  hosted: readonly SubgraphName[];
  jobs: JobRegistry;
  worker: JobWorker;
  /** Tells the other processes which job types this one's worker claims, while it runs. */
  presence: WorkerPresence;
  scheduler: Scheduler;
  /**
   * The process's Prometheus registry. Its counters always count (a few map reads); the HTTP
   * histogram, the process's default metrics and the scrape-time reads exist only with METRICS_PORT.
   */
  metrics: Metrics;
  /** Starts the job worker and the periodic tasks (not in tests, which run them on demand). */
  startBackgroundWork(): void;
  close(): Promise<void>;
}

/** The API process: the core, and the REST facade and /graphql on top, in process or across the hop. */
export interface Runtime extends Core {
  routes: AnyRoute[];
  compiledRoutes: ReturnType<typeof compileRoutes>;
  graphql: GraphqlEndpoint;
  /** Keys and their providers as last read: each request's lookup, without a query when nothing changed. */
  callers: KeyRowCache;
  /** Staff sign-in with the organisation's identity provider (OIDC_ISSUER); null: none configured. */
  staffSignIn: OidcSignIn | null;
  rateLimiter: RateLimiter;
  /** The answers kept for `Idempotency-Key` retries, in the database every API process shares. */
  idempotency: IdempotencyStore;
  /** The requests made with providers' keys, buffered and written in batches (the integrator's console). */
  requestLog: RequestLogWriter;
  /** The subgraph services this process calls (SUBGRAPH_URLS); empty when the whole graph runs here. */
  subgraphLinks: SubgraphLinks;
  /** The Redis the rate limit is shared in (REDIS_URL), and whether it answers now. */
  redisLink?: RedisLink;
}

export interface RuntimeOptions {
  clock?: Clock;
  logger?: Logger;
  /** An already opened database (tests pass their own per-file database). */
  orm?: MikroORM;
  /** Only for benchmarks, which must measure the limiter without being stopped by it. */
  rateLimitPoints?: number;
  /** Tests: the outgoing calls' resolver, the addresses reached despite their range, or a stand-in network. */
  outbound?: Pick<OutboundOptions, 'resolve' | 'allowedAddresses' | 'transport'>;
}

export const IDEMPOTENCY_PURGE_TASK = 'idempotency-keys.purge';
export const REQUEST_LOG_PURGE_TASK = 'request-log.purge';
/** Often enough that a provider's busiest key (200 requests a minute) overshoots the cap by little. */
const REQUEST_LOG_PURGE_INTERVAL_MS = 5 * 60 * 1000;

export async function createCore(
  config: Config,
  hosted: readonly SubgraphName[],
  options: RuntimeOptions = {},
): Promise<Core> {
  const logger = options.logger ?? createLogger(config.logLevel, { traceIds: config.tracing !== null });
  const orm = options.orm ?? (await openDatabase(config.database));
  const applied = await migrate(orm, { loadReference: loadReferenceData });
  if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
  const graph = buildGraph(config.appEnv);
  const events = new DomainEventBus();
  const outbound = createOutbound({
    appEnv: config.appEnv,
    allowPrivate: config.outboundAllowPrivate,
    ...options.outbound,
  });
  const services: GraphServices = {
    geocoder: createGeocoder({ geocoderUrl: config.geocoderUrl, logger, http: outbound.toOperatorServices }),
    outbound,
    images: new LocalDiskImageStore({ directory: config.imageDirectory, publicBaseUrl: config.publicUrl }),
    offerReview: {
      autoApprovalDelayMs: config.appEnv === 'production' ? null : config.autoApprovalDelaySeconds * 1000,
    },
    jobs: { wake: () => worker.wake() },
  };
  const clock = options.clock ?? systemClock;
  const metrics = createMetrics({ processMetrics: config.metrics !== null });
  const jobs = new JobRegistry();
  const worker = new JobWorker({ orm, registry: jobs, clock, logger, leaseMs: config.jobLeaseSeconds * 1000 });
  const scheduler = new Scheduler({ orm, clock, logger });
  // Each subgraph registers its jobs, periodic tasks and event handlers, or, hosted elsewhere, what hands its events over.
  const jobTypeOwners = registerWork(
    { jobs, scheduler, events, clock },
    {
      hosted,
      outbound,
      autoApprovalDelayMs: services.offerReview.autoApprovalDelayMs,
      deliveryFailures: metrics.deliveryFailures,
    },
  );
  const presence = new WorkerPresence({ orm, registry: jobs, clock, logger });
  // In every process, whatever it hosts: the jobs nobody claims are the ones of subgraphs hosted nowhere.
  scheduler.register(unhandledJobsTask(jobTypeOwners, logger));
  if (config.metrics) collectCoreMetrics(metrics, { orm, clock, logger, knownJobTypes: jobTypeOwners.keys() });
  let backgroundStarted = false;
  return {
    config,
    logger,
    orm,
    clock,
    events,
    services,
    graph,
    hosted,
    jobs,
    worker,
    presence,
    scheduler,
    metrics,
    startBackgroundWork() {
      if (backgroundStarted || !config.workerEnabled) return;
      backgroundStarted = true;
      worker.start();
      presence.start();
      scheduler.start();
    },
    async close() {
      await Promise.all([worker.stop(), scheduler.stop()]);
      await presence.stop();
      await outbound.close();
      if (!options.orm) await orm.close();
    },
  };
}

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const hosted = subgraphNames.filter((name) => config.subgraphUrls[name] === undefined);
  const core = await createCore(config, hosted, options);
  const { graph, logger, orm } = core;
  // A service of another schema stops the start-up: what the core opened is closed first.
  const subgraphLinks = await connectSubgraphs(config, graph, logger).catch(async (error: unknown) => {
    await core.close();
    throw error;
  });
  const routes = routesFor(allRoutes, config.appEnv);
  const compiledRoutes = compileRoutes(routes, graph, remoteExecutors(subgraphLinks));
  const redisLink = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;
  if (config.metrics && redisLink) collectRateLimitStore(core.metrics, redisLink);
  const rateLimiter = createRateLimiter({
    points: options.rateLimitPoints,
    onRefusal: (source) => core.metrics.rateLimitRefusals.labels({ source }).inc(),
    redis: redisLink?.redis,
  });
  const graphql = await startGraphqlEndpoint(graph, {
    appEnv: config.appEnv,
    limiter: rateLimiter,
    logger,
    remote: remoteSubgraphs(subgraphLinks, logger),
    operationDuration: config.metrics ? core.metrics.graphqlOperationDuration : undefined,
  });
  const idempotency = new IdempotencyStore(orm, core.clock);
  core.scheduler.register({
    name: IDEMPOTENCY_PURGE_TASK,
    intervalMs: 60 * 60 * 1000,
    run: async () => void (await idempotency.purgeExpired()),
  });
  const requestLog = new RequestLogWriter({ orm, logger });
  requestLog.start();
  core.scheduler.register({
    name: REQUEST_LOG_PURGE_TASK,
    intervalMs: REQUEST_LOG_PURGE_INTERVAL_MS,
    run: async ({ em, clock }) =>
      void (await purgeRequestLog(em, clock.now(), { maxRowsPerProvider: config.requestLogMaxRowsPerProvider })),
  });
  const callerChanges = await watchCallerChanges(orm, logger);
  const callers: KeyRowCache = new CallerCache({ changes: callerChanges });
  return {
    ...core,
    routes,
    compiledRoutes,
    graphql,
    callers,
    staffSignIn: config.oidc ? oidcSignIn(config.oidc, config.publicUrl) : null,
    rateLimiter,
    idempotency,
    requestLog,
    subgraphLinks,
    redisLink,
    async close() {
      // The requests answered last are written before the database closes.
      await requestLog.close();
      await core.close();
      await graphql.stop();
      await rateLimiter.close();
      callers.close();
      await callerChanges.close();
      await closeSubgraphLinks(subgraphLinks);
    },
  };
}

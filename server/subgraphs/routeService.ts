import type { SubgraphName } from '../../graphql/subgraphNames.js';
import { contextOfTraceParent, inSpan, SpanKind } from '../../platform/tracing.js';
import { compileRoutes, type CompiledRoute, type RouteOutcome } from '../../rest-facade/router.js';
import { callerFacingError } from '../graphqlEndpoint.js';
import { keyOrPersonOf } from '../http/requestLog.js';
import type { Logger } from '../logger.js';
import { requestObserver } from '../metrics/httpMetrics.js';
import { requestContext } from '../requestContext.js';
import type { Core } from '../runtime.js';
import type { HopAnswer, HopCall } from './hopFrames.js';
import type { HopHandler } from './hopServer.js';
import { serviceSdlOf } from './link.js';
import { routeCallOf, routesOf, routeTableDigest } from './routeCalls.js';
import {
  type CallRefusal,
  callerRefusal,
  digestOf,
  type HopCaller,
  targetRefusal,
  verifyCaller,
} from './signedCaller.js';

export interface RouteServiceOptions {
  core: Core;
  name: SubgraphName;
  secret: string;
  logger: Logger;
}

type Answered = Omit<HopAnswer, 'id'> & { hop?: HopCaller };

/**
 * A subgraph service's side of the hop (decision 036): the API process asks it to run one of the
 * subgraph's routes for a caller it signed, and it answers what the route answers in process, its
 * status and JSON text, so that the answer is encoded once and the API process sends it as it
 * comes. Every call is checked as a signed GraphQL request over HTTP is: the signature, its
 * lifetime, the body's digest, and the digest of what the caller expects this service to run
 * (the schema and the routes' documents), refused unrun when any differs.
 */
export function routeCallHandler(options: RouteServiceOptions): HopHandler {
  const { core, logger } = options;
  const schema = core.graph.subgraphs[options.name].schema;
  const own = {
    digest: routeTableDigest(options.name, serviceSdlOf(schema)),
    serves: 'another schema or other routes',
  };
  const compiled = new Map<string, CompiledRoute>(
    compileRoutes(routesOf(options.name), core.graph).map((entry) => [entry.route.operationId, entry]),
  );

  const refused = (hop: HopCaller | undefined, { status, code, message }: CallRefusal): Answered => {
    logger.warn({ requestId: hop?.requestId, status, code }, `subgraph: ${message}`);
    return { outcome: 'refused', status, body: JSON.stringify({ errors: [{ message, extensions: { code } }] }), hop };
  };

  const answered = (outcome: RouteOutcome): Omit<Answered, 'hop'> => {
    if ('errors' in outcome) {
      const errors = outcome.errors.map((error) => callerFacingError(error.toJSON(), logger, error));
      return { outcome: 'errors', status: 200, body: JSON.stringify({ errors }) };
    }
    return { outcome: 'answer', status: outcome.status, body: outcome.json ?? '' };
  };

  const answer = async (call: HopCall): Promise<Answered> => {
    const check = verifyCaller(options.secret, call.signedCaller);
    if (!check.ok) return refused(undefined, callerRefusal(check.reason));
    const { hop, target } = check;
    const refusal = targetRefusal(target, own, digestOf(call.body));
    if (refusal) return refused(hop, refusal);
    const routeCall = routeCallOf(call.body);
    const route = routeCall && compiled.get(routeCall.operationId);
    if (!routeCall || !route) {
      return refused(hop, { status: 400, code: 'BAD_REQUEST', message: 'The body is not a call of one of its routes' });
    }
    const outcome = await route.run(requestContext(core, core.orm.em.fork(), hop), routeCall.variables);
    return { ...answered(outcome), hop };
  };

  const observe = core.config.metrics ? requestObserver(core.metrics.httpRequestDuration) : null;
  // In the service's trace, log and metrics as a request over HTTP is; the log line inside the
  // span, so that it names the trace (server/logger.ts).
  return (call) => {
    const started = performance.now();
    return inSpan(
      `hop ${options.name}`,
      { kind: SpanKind.SERVER, parent: contextOfTraceParent(call.traceParent || null) },
      async () => {
        const { hop, ...result } = await answer(call);
        const durationMs = performance.now() - started;
        observe?.('HOP', '/graphql', result.status).observe(durationMs / 1000);
        logger.info(
          {
            requestId: hop?.requestId,
            method: 'HOP',
            path: '/graphql',
            status: result.status,
            outcome: result.outcome,
            durationMs: Math.round(durationMs * 10) / 10,
            ...keyOrPersonOf(hop?.caller),
          },
          'request',
        );
        return { id: call.id, ...result };
      },
    );
  };
}

import { type ApolloServerPlugin, type GraphQLRequestListener, HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { AppEnv } from '../../platform/appEnv.js';
import { budgetNameOf } from '../../graphql/shared/caller.js';
import type { GraphContext } from '../../graphql/shared/context.js';
import { type BudgetState, type RateLimiter, rateLimitField } from '../rateLimit.js';
import { measureOperation } from './operationCost.js';
import { LimitCode, MAX_OPERATION_COST } from './policy.js';

/** Apollo Server's context at `/graphql`: the operation's, and where the key stood when the request was counted. */
export interface EndpointContext extends GraphContext {
  rateLimit?: BudgetState;
}

/** `extensions.cost` of an answer: what the operation cost and what the key has left. */
export interface CostExtension {
  requested: number;
  maximum: number;
  limit: number;
  remaining: number;
  resetAt: string;
}

export interface CostPluginOptions {
  appEnv: AppEnv;
  limiter: Pick<RateLimiter, 'charge'>;
}

/**
 * Before an operation runs (validated, not executed): refuses introspection to provider keys in
 * production, measures the operation's cost, refuses it over {@link MAX_OPERATION_COST}, and
 * charges the key's rate limit the cost (the request itself was counted 1 by the middleware).
 * Every answer of a measured operation says its cost in `extensions.cost` and `X-RateLimit-Cost`.
 */
export function costPlugin(options: CostPluginOptions): ApolloServerPlugin<EndpointContext> {
  return {
    async requestDidStart(): Promise<GraphQLRequestListener<EndpointContext>> {
      let measured: { cost: number; state: BudgetState | undefined } | undefined;
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return;
          // Variables that do not fit are refused by execution before anything runs: one point.
          const measure = measureOperation(schema, document, operation, request.variables) ?? {
            cost: 1,
            introspection: false,
          };
          if (measure.introspection && options.appEnv === 'production' && contextValue.caller.kind === 'provider') {
            throw new GraphQLError('Introspection is open to internal keys only in production.', {
              extensions: { code: LimitCode.introspection, http: { status: 403 } },
            });
          }
          measured = { cost: measure.cost, state: contextValue.rateLimit };
          if (measure.cost > MAX_OPERATION_COST) {
            throw new GraphQLError(
              `This operation may cost ${measure.cost} points, more than the ${MAX_OPERATION_COST} one operation may cost: ask for smaller pages (limit) or fewer nested lists, or split it.`,
              {
                extensions: {
                  code: LimitCode.cost,
                  cost: measure.cost,
                  maximum: MAX_OPERATION_COST,
                  http: { status: 400 },
                },
              },
            );
          }
          if (measure.cost === 1) return;
          const charge = await options.limiter.charge(budgetNameOf(contextValue.caller), measure.cost - 1);
          measured.state = charge.state;
          if (!charge.allowed) {
            const window = charge.state.windowSeconds === 60 ? 'minute' : `${charge.state.windowSeconds} seconds`;
            throw new GraphQLError(
              `Too many requests: this operation costs ${measure.cost} points and the key has ${charge.state.remaining} left of its ${charge.state.limit} per ${window}. Retry after ${charge.retryAfterSeconds} seconds.`,
              {
                extensions: {
                  code: LimitCode.rateLimited,
                  http: { status: 429, headers: new HeaderMap([['retry-after', String(charge.retryAfterSeconds)]]) },
                },
              },
            );
          }
        },
        async willSendResponse({ response }) {
          if (!measured) return;
          const { cost, state } = measured;
          response.http.headers.set('x-ratelimit-cost', String(cost));
          if (!state) return;
          // After the charge, every field that says where the key stands says it again.
          const reset = Math.max(1, Math.ceil(state.msBeforeReset / 1000));
          response.http.headers.set('ratelimit', rateLimitField(state.remaining, reset));
          response.http.headers.set('ratelimit-remaining', String(state.remaining));
          response.http.headers.set('ratelimit-reset', String(reset));
          if (response.body.kind !== 'single') return;
          const extension: CostExtension = {
            requested: cost,
            maximum: MAX_OPERATION_COST,
            limit: state.limit,
            remaining: state.remaining,
            resetAt: new Date(Date.now() + state.msBeforeReset).toISOString(),
          };
          response.body.singleResult.extensions = { ...response.body.singleResult.extensions, cost: extension };
        },
      };
    },
  };
}

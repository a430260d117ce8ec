import type { ApolloServerPlugin } from '@apollo/server';
import type { Histogram } from 'prom-client';

/** At most this many operation names get a label of their own in a process; later ones count as OTHER_OPERATIONS. */
export const MAX_OPERATION_NAMES = 100;
export const ANONYMOUS_OPERATION = '(anonymous)';
/** A request whose operation was never resolved: a parse or validation error, or a name the document lacks. */
export const UNRESOLVED_OPERATION = '(unresolved)';
export const OTHER_OPERATIONS = '(other)';

/** Names as GraphQL spells them, not too long to be a label. */
const OPERATION_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;

/**
 * Labels by operation name from a bounded set. The names are the callers' (internal tools, the
 * back office), so the set is not known in advance: the first MAX_OPERATION_NAMES seen keep
 * theirs, which covers every client of ours many times over, and a caller inventing names cannot
 * grow the series past it.
 */
export class OperationNames {
  private readonly names = new Set<string>();

  labelOf(name: string | null | undefined, resolved: boolean): string {
    if (!resolved) return UNRESOLVED_OPERATION;
    if (!name) return ANONYMOUS_OPERATION;
    if (this.names.has(name)) return name;
    if (this.names.size >= MAX_OPERATION_NAMES || !OPERATION_NAME.test(name)) return OTHER_OPERATIONS;
    this.names.add(name);
    return name;
  }
}

/**
 * An Apollo Server plugin that observes each operation of `/graphql`, from the request's start to
 * the answer, by operation name and outcome (`ok`, or `error` when the answer carries errors).
 */
export function graphqlMetricsPlugin(histogram: Histogram<'operation' | 'outcome'>): ApolloServerPlugin {
  const names = new OperationNames();
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse({ operation, operationName, response }) {
          const body = response.body;
          const errors = body.kind === 'single' ? body.singleResult.errors : body.initialResult.errors;
          histogram
            .labels(names.labelOf(operationName, operation !== undefined), errors?.length ? 'error' : 'ok')
            .observe((performance.now() - started) / 1000);
        },
      };
    },
  };
}

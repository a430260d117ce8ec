import type { GraphContext } from './context.js';

const memos = new WeakMap<GraphContext, Map<string, Promise<unknown>>>();

/**
 * Loads a value once per request: field resolvers of a list then share one query
 * instead of one each. Forgotten with the request's context.
 */
export function oncePerRequest<T>(context: GraphContext, key: string, load: () => Promise<T>): Promise<T> {
  const memo = memoOf(context);
  if (!memo.has(key)) memo.set(key, load());
  return memo.get(key) as Promise<T>;
}

/** What `oncePerRequest(context, key, ...)` will answer, when a query already read it with something else. */
export function rememberForRequest<T>(context: GraphContext, key: string, value: T): void {
  memoOf(context).set(key, Promise.resolve(value));
}

function memoOf(context: GraphContext): Map<string, Promise<unknown>> {
  let memo = memos.get(context);
  if (!memo) {
    memo = new Map();
    memos.set(context, memo);
  }
  return memo;
}

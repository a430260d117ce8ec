import type { GraphContext } from './context.js';

const memos = new WeakMap<GraphContext, Map<string, Promise<unknown>>>();

/**
 * Loads a value once per request: field resolvers of a list then share one query
 * instead of one each. Forgotten with the request's context.
 */
export function oncePerRequest<T>(context: GraphContext, key: string, load: () => Promise<T>): Promise<T> {
  let memo = memos.get(context);
  if (!memo) {
    memo = new Map();
    memos.set(context, memo);
  }
  if (!memo.has(key)) memo.set(key, load());
  return memo.get(key) as Promise<T>;
}

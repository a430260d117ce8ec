import type { GraphContext } from './context.js';

interface Memo {
  loading: Map<string, Promise<unknown>>;
  /** What is known already, readable without waiting. */
  known: Map<string, unknown>;
}

const memos = new WeakMap<GraphContext, Memo>();

/**
 * Loads a value once per request: field resolvers of a list then share one query
 * instead of one each. Forgotten with the request's context.
 */
export function oncePerRequest<T>(context: GraphContext, key: string, load: () => Promise<T>): Promise<T> {
  const memo = memoOf(context);
  if (memo.known.has(key)) return Promise.resolve(memo.known.get(key) as T);
  if (!memo.loading.has(key)) memo.loading.set(key, load());
  return memo.loading.get(key) as Promise<T>;
}

/** What `oncePerRequest(context, key, ...)` will answer, when a query already read it with something else. */
export function rememberForRequest<T>(context: GraphContext, key: string, value: T): void {
  memoOf(context).known.set(key, value);
}

/**
 * The value remembered for the request, if a query did: a field resolver of a list can then
 * answer at once rather than with a promise per item, which GraphQL completes one by one.
 */
export function rememberedForRequest<T>(context: GraphContext, key: string): T | undefined {
  return memos.get(context)?.known.get(key) as T | undefined;
}

function memoOf(context: GraphContext): Memo {
  let memo = memos.get(context);
  if (!memo) {
    memo = { loading: new Map(), known: new Map() };
    memos.set(context, memo);
  }
  return memo;
}

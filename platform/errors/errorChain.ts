/**
 * An error and the ones it wraps, outermost first: GraphQL keeps a resolver's error as
 * `originalError` (and the gateway keeps a subgraph's the same way), Node and the drivers chain
 * theirs as `cause`. Bounded, as a chain may loop.
 */
export function errorChain(error: unknown, maxDepth = 5): Error[] {
  const chain: Error[] = [];
  for (let current = error; current instanceof Error && chain.length < maxDepth;) {
    chain.push(current);
    const wrapped = current as Error & { originalError?: unknown };
    current = wrapped.originalError ?? wrapped.cause;
  }
  return chain;
}

/**
 * What a log line needs to tell an unexpected error's cause: each link's class, code and
 * message, and where the innermost was thrown.
 */
export function describeErrorChain(error: unknown): { causes: object[]; stack?: string } {
  const chain = errorChain(error);
  return {
    causes: chain.map((link) => {
      const { code } = link as Error & { code?: unknown };
      return { name: link.name, ...(typeof code === 'string' ? { code } : {}), message: link.message };
    }),
    stack: chain.at(-1)?.stack,
  };
}

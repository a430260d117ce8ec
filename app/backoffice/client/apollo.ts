import { ApolloClient, type FieldPolicy, HttpLink, InMemoryCache } from '@apollo/client/core';

interface Identified {
  __ref?: string;
  id?: number;
}

/**
 * Pages of the graph's lists (PageInput: ids from `firstIndex`, in id order): the first page
 * replaces the list, a later one (fetchMore) is appended to it.
 */
function pagedById(keyArgs: string[]): FieldPolicy<Identified[]> {
  return {
    keyArgs,
    merge(existing, incoming, { args }) {
      const page = args?.page as { firstIndex?: number } | undefined;
      if (!existing || !page?.firstIndex || page.firstIndex <= 1) return incoming;
      return [...existing, ...incoming];
    },
  };
}

/**
 * Lists read newest first, a page at a time before the last id seen (`before` of the arguments):
 * the first page replaces the list, an older one is appended to it.
 */
function pagedBefore(
  keyArgs: string[],
  before: (args: Record<string, unknown> | null) => number | null | undefined,
): FieldPolicy<Identified[]> {
  return {
    keyArgs,
    merge(existing, incoming, { args }) {
      if (!existing || !before(args)) return incoming;
      return [...existing, ...incoming];
    },
  };
}

/**
 * The client of /graphql of the back office's and the console's screens: the session cookie goes
 * with every request (same origin), with the header that Apollo Server's CSRF prevention and the
 * session require, and any the area adds (the console names its session's audience).
 */
export function createBackOfficeClient(headers: Record<string, string> = {}): ApolloClient<object> {
  return new ApolloClient({
    link: new HttpLink({
      uri: '/graphql',
      credentials: 'same-origin',
      headers: { 'apollo-require-preflight': 'true', ...headers },
    }),
    cache: new InMemoryCache({
      typePolicies: {
        Query: {
          fields: {
            offersAwaitingReview: pagedById(['providerId', 'category']),
            collectiveOffersAwaitingReview: pagedById(['providerId']),
            providers: pagedById(['search']),
            deliveries: pagedById(['filter']),
            jobs: pagedById(['filter']),
            requests: pagedBefore(['filter'], (args) => (args?.page as { before?: number } | undefined)?.before),
            auditEntries: pagedBefore(['filter'], (args) => (args?.page as { before?: number } | undefined)?.before),
            myMessages: pagedBefore(['filter'], (args) => args?.beforeId as number | undefined),
          },
        },
      },
    }),
  });
}

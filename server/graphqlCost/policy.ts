import { EANS_PER_QUERY_MAX } from '../../graphql/offers/limits.js';
import { PAGE_SIZE_MAX } from '../../graphql/shared/pagination.js';
import { RATE_LIMIT_POINTS } from '../../rest-facade/rateLimitPolicy.js';

/**
 * The bounds of one `/graphql` document and of its cost (decision 017). Each is checked before
 * anything runs: the document's shape before GraphQL validation, its cost before execution.
 */

/** Lexical tokens of one document: graphql-js stops parsing past it. Variables do not count. */
export const MAX_TOKENS = 5_000;
/** Nested selection sets, fragments followed: `{ provider { venues { id } } }` is 3 deep. */
export const MAX_DEPTH = 10;
/** Aliased fields in one operation, fragments followed (each is one more resolution of a field). */
export const MAX_ALIASES = 50;
/**
 * Fields of one operation once its fragments are expanded. GraphQL validation compares fields
 * of one name pairwise: past a few hundred, validating alone takes longer than answering.
 */
export const MAX_FIELDS = 250;

/**
 * Introspection answers from the schema in memory: its nesting (a type's `ofType` chain) is
 * deeper than any data query, so it gets its own depth and costs nothing beyond its root field.
 */
export const MAX_INTROSPECTION_DEPTH = 15;

/**
 * Braces, brackets and parentheses open at once, checked while lexing: graphql-js parses
 * recursively, and a few thousand nested braces (well within the token limit) exhaust its stack.
 */
export const MAX_NESTING = 32;

/** The most one operation may cost: half of what a key may spend in a minute. */
export const MAX_OPERATION_COST = RATE_LIMIT_POINTS / 2;

/** One read returns up to one page: a list of more items costs one read per page. */
export const ITEMS_PER_READ = PAGE_SIZE_MAX;

/**
 * Lists without a page-size argument: the most items they return, where a rule bounds it.
 * Any other list counts as one full page ({@link PAGE_SIZE_MAX} items).
 */
export const LIST_SIZES: Readonly<Record<string, number>> = {
  'Query.productsByEan': EANS_PER_QUERY_MAX,
  // The booking call, then the cancellation call.
  'TicketingCheck.steps': 2,
};

/** The `extensions.code` of each refusal. */
export const LimitCode = {
  tokens: 'TOKEN_LIMIT',
  depth: 'MAX_DEPTH',
  aliases: 'TOO_MANY_ALIASES',
  fields: 'TOO_MANY_FIELDS',
  cost: 'QUERY_TOO_COMPLEX',
  rateLimited: 'RATE_LIMITED',
  introspection: 'INTROSPECTION_DISABLED',
} as const;
export type LimitCode = (typeof LimitCode)[keyof typeof LimitCode];

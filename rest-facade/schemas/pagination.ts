import { PAGE_SIZE_MAX } from '../../graphql/shared/pagination.js';
import { z } from '../zod.js';
import { integerInput } from './inputs.js';
import { hasNul, NUL_MESSAGE } from './text.js';

export const IDS_AT_PROVIDER_MAX = 100;

/** `limit` and `firstIndex` of the contract's cursor pagination. */
export const pageParameters = {
  limit: integerInput(z.int().gt(0).max(PAGE_SIZE_MAX).default(PAGE_SIZE_MAX)).openapi({
    description: `How many resources to return, at most ${PAGE_SIZE_MAX}.`,
  }),
  firstIndex: integerInput(z.int().min(1).default(1)).openapi({
    description: 'The lowest id to return: to read the next page, pass the last id you received plus one.',
  }),
};

/** `idsAtProvider`: a comma-separated list of your own identifiers, at most 100. */
export const idsAtProviderParameter = z
  .string()
  .optional()
  .transform((value, context) => {
    if (value === undefined || value.trim() === '') return undefined;
    const ids = value
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    if (ids.some(hasNul)) {
      context.addIssue({
        code: 'custom',
        message: NUL_MESSAGE,
        params: { type: 'string_pattern_mismatch' },
        input: value,
      });
      return z.NEVER;
    }
    if (ids.length > IDS_AT_PROVIDER_MAX) {
      context.addIssue({
        code: 'too_big',
        origin: 'array',
        maximum: IDS_AT_PROVIDER_MAX,
        inclusive: true,
        message: `At most ${IDS_AT_PROVIDER_MAX} identifiers`,
        input: value,
      });
      return z.NEVER;
    }
    return ids;
  })
  .openapi({
    type: 'string',
    description: `Comma-separated identifiers at provider (idAtProvider), at most ${IDS_AT_PROVIDER_MAX}.`,
    example: 'show-101,show-102',
  });

/** The largest value of a GraphQL Int (and of an id). */
const GRAPHQL_INT_MAX = 2_147_483_647;

/**
 * The graph's PageInput for the parsed `limit` and `firstIndex`. A `firstIndex` beyond any
 * possible id is a valid request for an empty page, not a 500 from the graph's 32-bit Int.
 */
export function pageInput(query: { limit: number; firstIndex: number }): { limit: number; firstIndex: number } {
  return { limit: query.limit, firstIndex: Math.min(query.firstIndex, GRAPHQL_INT_MAX) };
}

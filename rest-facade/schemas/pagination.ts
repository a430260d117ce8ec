import { refuseWrongIdsAtProvider } from '../../graphql/offers/fieldRules.js';
import { IDS_AT_PROVIDER_MAX } from '../../graphql/offers/limits.js';
import { ID_MAX } from '../../graphql/shared/fieldRules.js';
import { PAGE_SIZE_MAX, pageRules } from '../../graphql/shared/pagination.js';
import { z } from '../zod.js';
import { commaSeparated, integerInput } from './inputs.js';

export { IDS_AT_PROVIDER_MAX };

/** `limit` and `firstIndex` of the contract's cursor pagination. */
export const pageParameters = {
  limit: integerInput(pageRules.limit.default(PAGE_SIZE_MAX)).openapi({
    description: `How many resources to return, at most ${PAGE_SIZE_MAX}.`,
  }),
  firstIndex: integerInput(pageRules.firstIndex.default(1)).openapi({
    description: 'The lowest id to return: to read the next page, pass the last id you received plus one.',
  }),
};

/** `idsAtProvider`: a comma-separated list of your own identifiers, at most 100. */
export const idsAtProviderParameter = z
  .string()
  .optional()
  .transform((value, context) => {
    if (value === undefined || value.trim() === '') return undefined;
    const ids = commaSeparated(value);
    return refuseWrongIdsAtProvider(ids, context, value) ? z.NEVER : ids;
  })
  .openapi({
    type: 'string',
    description: `Comma-separated identifiers at provider (idAtProvider), at most ${IDS_AT_PROVIDER_MAX}.`,
    example: 'show-101,show-102',
  });

/**
 * The graph's PageInput for the parsed `limit` and `firstIndex`. A `firstIndex` beyond any
 * possible id is a valid request for an empty page, not a 500 from the graph's 32-bit Int.
 */
export function pageInput(query: { limit: number; firstIndex: number }): { limit: number; firstIndex: number } {
  return { limit: query.limit, firstIndex: Math.min(query.firstIndex, ID_MAX) };
}

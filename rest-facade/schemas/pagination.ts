import { PAGE_SIZE_MAX } from '../../graphql/shared/pagination.js';
import { z } from '../zod.js';
import { integerInput } from './inputs.js';

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
    const ids = value.split(',').map((id) => id.trim()).filter((id) => id !== '');
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

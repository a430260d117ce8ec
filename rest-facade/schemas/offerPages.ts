import { z } from '../zod.js';
import { idInQuery } from './inputs.js';
import { idsAtProviderParameter, pageInput, pageParameters } from './pagination.js';

/** A page of your event or product offers, in id order, filtered by venue, address or your own identifiers. */
export const offerPageQuery = z.object({
  ...pageParameters,
  venueId: idInQuery(),
  addressId: idInQuery(),
  idsAtProvider: idsAtProviderParameter,
});

/** The graph's arguments of such a page. */
export function offerPageVariables({ query }: { query: z.output<typeof offerPageQuery> }) {
  return {
    page: pageInput(query),
    venueId: query.venueId ?? null,
    addressId: query.addressId ?? null,
    idsAtProvider: query.idsAtProvider ?? null,
  };
}

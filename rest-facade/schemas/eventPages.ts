import { z } from '../zod.js';
import { idInPath } from './inputs.js';
import { idsAtProviderParameter, pageInput, pageParameters } from './pagination.js';

/** `{event_id}`: the event a route reads or changes, or whose price categories or dates it does. */
export const eventInPath = z.object({ event_id: idInPath });

/**
 * A page of what an event holds (its price categories, its dates), in id order, optionally only
 * the items with the given `idsAtProvider`.
 */
export const eventPageQuery = z.object({ ...pageParameters, idsAtProvider: idsAtProviderParameter });

/** The graph's arguments of such a page. */
export function eventPageVariables({
  params,
  query,
}: {
  params: z.output<typeof eventInPath>;
  query: z.output<typeof eventPageQuery>;
}) {
  return { eventId: params.event_id, page: pageInput(query), idsAtProvider: query.idsAtProvider ?? null };
}

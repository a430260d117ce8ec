import type { GraphContext } from '../shared/context.js';
import { type PageInput, pageQuery } from '../shared/pagination.js';
import { offerInScope } from './access.js';

/**
 * Where a page of an event's price categories or dates starts: the event (one the caller
 * reaches, or 404), then the page's filter and options, in id order, keeping only the items
 * with the given idsAtProvider when some are given.
 */
export async function eventPageQuery(
  context: GraphContext,
  eventId: number,
  page: PageInput,
  idsAtProvider: string[] | null | undefined,
) {
  const offer = await offerInScope(context, eventId, 'event');
  const { where, options } = pageQuery(page);
  return {
    where: { ...where, offer, ...(idsAtProvider?.length ? { idAtProvider: { $in: idsAtProvider } } : {}) },
    options,
  };
}

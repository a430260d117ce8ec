import { ArgsType, Field, Int } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { PageInput, pageQuery } from '../shared/pagination.js';
import { offerInScope } from './access.js';

/**
 * The arguments of `eventDates` and `eventPriceCategories`: a page of what an event holds,
 * optionally only the items with the given idsAtProvider. In the order the schema has always
 * listed them.
 */
@ArgsType()
export class EventPageArgs {
  @Field(() => [String], { nullable: true })
  idsAtProvider?: string[] | null;

  @Field(() => PageInput, { nullable: true })
  page?: PageInput | null;

  @Field(() => Int)
  eventId!: number;
}

/**
 * Where such a page starts: the event (one the caller reaches, or 404), then the page's filter
 * and options, in id order (the first page when none is given).
 */
export async function eventPageQuery(context: GraphContext, { eventId, page, idsAtProvider }: EventPageArgs) {
  const offer = await offerInScope(context, eventId, 'event');
  const { where, options } = pageQuery(page ?? new PageInput());
  return {
    where: { ...where, offer, ...(idsAtProvider?.length ? { idAtProvider: { $in: idsAtProvider } } : {}) },
    options,
  };
}

import { Field, InputType, Int } from 'type-graphql';
import { z } from './zod.js';

/** The contract's page size: default and maximum. */
export const PAGE_SIZE_MAX = 50;

/** The rules of a page: a size from 1 to the maximum, ids from 1 (the contract's). */
export const pageRules = {
  limit: z.int().gt(0).max(PAGE_SIZE_MAX),
  firstIndex: z.int().min(1),
};

/**
 * Cursor pagination as the contract defines it: `firstIndex` is the lowest id returned
 * (so the next page starts at the last id + 1), `limit` the page size.
 */
@InputType({ description: 'Resources with an id of at least firstIndex, in id order, at most limit of them.' })
export class PageInput {
  @Field(() => Int, { defaultValue: 1 })
  firstIndex: number = 1;

  @Field(() => Int, { defaultValue: PAGE_SIZE_MAX })
  limit: number = PAGE_SIZE_MAX;
}

export const pageInputRule = z.object(pageRules);

/** The lowest id and the size of one page, within the contract's bounds. */
export function pageBounds(page: PageInput): { firstIndex: number; limit: number } {
  return { firstIndex: Math.max(1, page.firstIndex), limit: Math.min(Math.max(1, page.limit), PAGE_SIZE_MAX) };
}

/** The MikroORM options and filter of one page. */
export function pageQuery(page: PageInput) {
  const { firstIndex, limit } = pageBounds(page);
  return {
    where: { id: { $gte: firstIndex } },
    options: { orderBy: { id: 'asc' as const }, limit },
  };
}

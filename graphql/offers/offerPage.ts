import type { FilterQuery } from '@mikro-orm/core';
import { ArgsType, Field, Int } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { venueInScope } from '../providers/access.js';
import { PageInput, pageQuery } from '../shared/pagination.js';
import { reachableOffers, requireIndividualOfferRights } from './access.js';
import { Offer } from './Offer.js';
import { primeOffers } from './offerBatch.js';

/**
 * The arguments of `events` and `products`: a page of the caller's offers of that kind, filtered.
 * In the order the schema has always listed them.
 */
@ArgsType()
export class OfferPageArgs {
  @Field(() => [String], { nullable: true })
  idsAtProvider?: string[] | null;

  @Field(() => Int, { nullable: true })
  addressId?: number | null;

  @Field(() => Int, { nullable: true })
  venueId?: number | null;

  @Field(() => PageInput, { nullable: true })
  page?: PageInput | null;
}

export interface OfferListFilters {
  isEvent: boolean;
  venueId?: number | null;
  addressId?: number | null;
  idsAtProvider?: string[] | null;
  eans?: string[] | null;
}

/**
 * A page of the offers a key reaches, untracked (a list is only read). What their fields need
 * (statuses, stocks, price categories) is then loaded for the whole page at once. Reading the
 * rows through the query builder without entities measured slower here than this (bench).
 */
export async function readOfferPage(
  context: GraphContext,
  filters: OfferListFilters,
  page?: PageInput,
): Promise<Offer[]> {
  requireIndividualOfferRights(context);
  // Without a page (offers named by EAN, at most 100), every match, the newest first.
  const { where, options } = page
    ? pageQuery(page)
    : { where: {}, options: { orderBy: { id: 'desc' as const }, limit: undefined } };
  const conditions: FilterQuery<Offer>[] = [reachableOffers(context), where, { isEvent: filters.isEvent }];
  if (filters.venueId != null) conditions.push({ venue: filters.venueId });
  if (filters.addressId != null) conditions.push({ address: filters.addressId });
  if (filters.idsAtProvider) conditions.push({ idAtProvider: { $in: filters.idsAtProvider } });
  if (filters.eans) conditions.push({ ean: { $in: filters.eans } });
  const offers = await context.em.find(Offer, { $and: conditions }, { ...options, disableIdentityMap: true });
  primeOffers(
    context,
    offers.map((offer) => offer.id),
  );
  return offers;
}

/**
 * The page `events` or `products` asks for: the first one when none is given. A venue the key
 * does not reach is not found, rather than an empty page: an integration that names a venue it
 * lost (or mistyped) is told so.
 */
export async function readOfferKindPage(
  context: GraphContext,
  isEvent: boolean,
  args: OfferPageArgs,
): Promise<Offer[]> {
  const { page, ...filters } = args;
  if (filters.venueId != null) {
    requireIndividualOfferRights(context);
    await venueInScope(context.em, context.caller, filters.venueId);
  }
  return readOfferPage(context, { isEvent, ...filters }, page ?? new PageInput());
}

import { viewOf } from '../../platform/sql/entityViews.js';
import { ArgsType, Field, Int } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { venueInScope } from '../providers/access.js';
import { PageInput, pageBounds } from '../shared/pagination.js';
import { placeholders, selectRows } from '../../platform/sql/sqlText.js';
import { reachableOfferConditions, requireIndividualOfferRights } from './access.js';
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
 * A page of the offers a key reaches (as `reachableOffers` says), read as views: a list is only
 * read. What their fields need (statuses, stocks, price categories) is then loaded for the whole
 * page at once.
 */
export async function readOfferPage(
  context: GraphContext,
  filters: OfferListFilters,
  page?: PageInput,
): Promise<Offer[]> {
  requireIndividualOfferRights(context);
  const { where, params } = reachableOfferConditions(context);
  where.push('o.is_event = ?');
  params.push(filters.isEvent);
  if (filters.venueId != null) {
    where.push('o.venue_id = ?');
    params.push(filters.venueId);
  }
  if (filters.addressId != null) {
    where.push('o.address_id = ?');
    params.push(filters.addressId);
  }
  for (const [column, values] of [
    ['o.id_at_provider', filters.idsAtProvider],
    ['o.ean', filters.eans],
  ] as const) {
    if (!values) continue;
    if (values.length === 0) return [];
    where.push(`${column} in (${placeholders(values.length)})`);
    params.push(...values);
  }
  // Without a page (offers named by EAN, at most 100), every match, the newest first.
  let order = 'order by o.id desc';
  if (page) {
    const { firstIndex, limit } = pageBounds(page);
    where.push('o.id >= ?');
    params.push(firstIndex);
    order = 'order by o.id asc limit ?';
    params.push(limit);
  }
  const rows = await selectRows<Record<string, unknown>>(
    context.em,
    `select o.* from offer o join venue v on v.id = o.venue_id where ${where.join(' and ')} ${order}`,
    params,
  );
  const offers = rows.map((row) => viewOf(context.em, Offer, row));
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

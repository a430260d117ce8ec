import { Field, Int, ObjectType } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { ValidationFailedError } from '../shared/errors.js';
import { isStorable } from '../../platform/time/moments.js';
import { asDate, asDateOrNull } from '../../platform/sql/rowValues.js';
import { placeholders, selectRows } from '../../platform/sql/sqlText.js';
import {
  CollectiveBooking,
  type CollectiveBookingStatus,
  type CollectiveCancellationReason,
} from './CollectiveBooking.js';
import type { CollectiveValidation } from './CollectiveOffer.js';
import {
  type CollectiveDisplayedStatus,
  CollectiveDisplayedStatusEnum,
  type CollectiveLegacyStatus,
  CollectiveLegacyStatusEnum,
  collectiveDisplayedStatus,
  collectiveLegacyStatus,
  lastBookingOf,
} from './displayedStatus.js';

/**
 * The list of a provider's collective offers as a read model: rows read with two queries and
 * shaped directly, with no entity built. Hydrating 300 offers and their bookings into entities
 * cost more than the rest of the request (measured by `npm run bench`).
 */
@ObjectType({ description: 'A collective offer as its list shows it: statuses, dates and bookings.' })
export class CollectiveOfferSummary {
  @Field(() => Int)
  id!: number;

  @Field(() => CollectiveLegacyStatusEnum, { description: 'Deprecated: derived from the displayed status.' })
  status!: CollectiveLegacyStatus;

  @Field(() => CollectiveDisplayedStatusEnum)
  displayedStatus!: CollectiveDisplayedStatus;

  @Field(() => Int)
  venueId!: number;

  @Field(() => Date)
  startDatetime!: Date;

  @Field(() => Date)
  endDatetime!: Date;

  @Field(() => [CollectiveBooking])
  bookings!: Partial<CollectiveBooking>[];
}

export interface CollectiveOfferListFilter {
  offerStatus?: string | null;
  status?: string | null;
  venueId?: number | null;
  periodBeginning?: string | null;
  periodEnding?: string | null;
}

interface OfferRow {
  id: number;
  venue_id: number;
  start_datetime: string | number | Date;
  end_datetime: string | number | Date;
  booking_limit_datetime: string | number | Date;
  validation: CollectiveValidation;
  is_active: boolean | number;
  archived_at: string | number | Date | null;
}

interface BookingRow {
  id: number;
  offer_id: number;
  status: CollectiveBookingStatus;
  date_created: string | number | Date;
  confirmation_date: string | number | Date | null;
  date_used: string | number | Date | null;
  reimbursement_date: string | number | Date | null;
  cancellation_limit_date: string | number | Date;
  cancellation_reason: CollectiveCancellationReason | null;
}

/** A moment both databases can compare with. */
function momentOf(text: string, loc: string): Date {
  const moment = new Date(text);
  if (!isStorable(moment)) {
    throw new ValidationFailedError([{ loc: [loc], msg: 'Input should be a valid date', type: 'date_parsing' }]);
  }
  return moment;
}

/**
 * The most offers one list answers, the lowest ids first, as the real system's list does (its
 * repository orders by id and stops at 500). The contract has no pagination here; a provider with
 * more narrows the list by venue or period. It also keeps the answer's cost bounded whatever the
 * provider's size.
 */
export const COLLECTIVE_OFFERS_PER_LIST = 500;

/**
 * The caller's collective offers (internal keys: all), in id order, filtered, at most
 * COLLECTIVE_OFFERS_PER_LIST of them. The venue, if named, is checked by the caller.
 */
export async function readCollectiveOfferSummaries(
  context: GraphContext,
  filter: CollectiveOfferListFilter | null,
): Promise<CollectiveOfferSummary[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const condition = (sql: string, value: unknown) => {
    where.push(sql);
    params.push(value);
  };
  const { caller } = context;
  if (caller.kind === 'provider') {
    condition('o.provider_id = ?', caller.providerId);
    if (caller.offererId != null) condition('v.offerer_id = ?', caller.offererId);
  }
  if (filter?.venueId != null) condition('o.venue_id = ?', filter.venueId);
  if (filter?.periodBeginning)
    condition('o.start_datetime >= ?', momentOf(filter.periodBeginning, 'periodBeginningDate'));
  if (filter?.periodEnding) condition('o.start_datetime <= ?', momentOf(filter.periodEnding, 'periodEndingDate'));

  // The statuses are derived from the bookings, so they filter after the read: the offers are read
  // in id order, a list's worth at a time, until the list is full or none is left.
  const summaries: CollectiveOfferSummary[] = [];
  let afterId = 0;
  for (;;) {
    const offers = await selectRows<OfferRow>(
      context.em,
      'select o.id, o.venue_id, o.start_datetime, o.end_datetime, o.booking_limit_datetime, o.validation, o.is_active, ' +
        `o.archived_at from collective_offer o join venue v on v.id = o.venue_id where ${[...where, 'o.id > ?'].join(' and ')} ` +
        `order by o.id limit ${COLLECTIVE_OFFERS_PER_LIST}`,
      [...params, afterId],
    );
    if (offers.length === 0) return summaries;
    for (const summary of await summariesOf(context, offers, filter)) {
      summaries.push(summary);
      if (summaries.length === COLLECTIVE_OFFERS_PER_LIST) return summaries;
    }
    if (offers.length < COLLECTIVE_OFFERS_PER_LIST) return summaries;
    afterId = Number(offers.at(-1)!.id);
  }
}

/** Offers' rows with their bookings, shaped, those the status filters leave. */
async function summariesOf(
  context: GraphContext,
  offers: OfferRow[],
  filter: CollectiveOfferListFilter | null,
): Promise<CollectiveOfferSummary[]> {
  const ids = offers.map((offer) => offer.id);
  const rows = await selectRows<BookingRow>(
    context.em,
    `select * from collective_booking where offer_id in (${placeholders(ids.length)}) order by id`,
    ids,
  );
  const bookingsOf = new Map<number, Partial<CollectiveBooking>[]>();
  for (const row of rows) {
    const offerId = Number(row.offer_id);
    const list = bookingsOf.get(offerId) ?? [];
    list.push({
      id: Number(row.id),
      status: row.status,
      dateCreated: asDate(row.date_created),
      confirmationDate: asDateOrNull(row.confirmation_date),
      dateUsed: asDateOrNull(row.date_used),
      reimbursementDate: asDateOrNull(row.reimbursement_date),
      cancellationLimitDate: asDate(row.cancellation_limit_date),
      cancellationReason: row.cancellation_reason,
    });
    bookingsOf.set(offerId, list);
  }

  const now = context.clock.now();
  const summaries: CollectiveOfferSummary[] = [];
  for (const row of offers) {
    const bookings = bookingsOf.get(Number(row.id)) ?? [];
    const facts = {
      archivedAt: asDateOrNull(row.archived_at),
      validation: row.validation,
      isActive: Boolean(row.is_active),
      startDatetime: asDate(row.start_datetime),
      endDatetime: asDate(row.end_datetime),
      bookingLimitDatetime: asDate(row.booking_limit_datetime),
    };
    const last = lastBookingOf(
      bookings as {
        id: number;
        status: CollectiveBookingStatus;
        cancellationReason: CollectiveCancellationReason | null;
      }[],
    );
    const displayed = collectiveDisplayedStatus(facts, last, now);
    const status = collectiveLegacyStatus(displayed);
    if (filter?.offerStatus && displayed !== filter.offerStatus) continue;
    if (filter?.status && status !== filter.status) continue;
    summaries.push({
      id: Number(row.id),
      status,
      displayedStatus: displayed,
      venueId: Number(row.venue_id),
      startDatetime: facts.startDatetime,
      endDatetime: facts.endDatetime,
      bookings,
    });
  }
  return summaries;
}

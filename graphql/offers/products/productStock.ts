import { type EntityManager, LockMode } from '@mikro-orm/core';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import type { GraphContext } from '../../shared/context.js';
import { BadRequestError, ValidationFailedError } from '../../shared/errors.js';
import { type Quantity } from '../dates/types.js';
import { bookingLimitProblems, type OfferOpening, totalQuantity } from '../dates/rules.js';
import { futureDatetimeIssues, parseAwareDatetime } from '../datetimes.js';
import type { Offer } from '../Offer.js';
import { Stock } from '../Stock.js';
import { deleteStock } from '../stockDeletion.js';

/**
 * A product's stock as a request gives it; absent fields of an edition stay as they are, and
 * so do a null price or quantity.
 */
export interface ProductStockChange {
  price?: number | null;
  /** Items still on sale (booked ones come on top), or "unlimited"; null or absent on creation is unlimited. */
  quantity?: Quantity | null;
  /** Timezone-aware ISO 8601 text; null removes the booking limit. */
  bookingLimitDatetime?: string | null;
}

/**
 * Inside a transaction on PostgreSQL, the stocks' rows locked: a booking or a cancellation that
 * moves `bookedQuantity` meanwhile waits, so a quantity computed from it is never stale.
 */
export function lockingStocks(em: EntityManager): { lockMode?: LockMode.PESSIMISTIC_WRITE } {
  return em.getPlatform() instanceof PostgreSqlPlatform ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {};
}

/** The product's stock, if it has one (deleted stocks are history, not stock), locked for a change. */
export function liveStockOf(em: EntityManager, offer: Offer): Promise<Stock | null> {
  return em.findOne(
    Stock,
    { offer, isDeleted: false, beginningDatetime: null },
    { ...lockingStocks(em), refresh: true },
  );
}

/**
 * A booking limit already past would close the stock as it opens: refused (422), as a date's
 * beginning in the past is. Checked on the provider's request, not when a queued import runs.
 */
export function checkBookingLimitAhead(change: ProductStockChange | null | undefined, now: Date): void {
  const issues = futureDatetimeIssues(change?.bookingLimitDatetime, ['stock', 'bookingLimitDatetime'], now);
  if (issues.length > 0) throw new ValidationFailedError(issues);
}

/**
 * Why a booking limit given is refused (400), none when it is fine: it may not fall before the
 * offer is published or opens for booking, when those are set.
 */
export function bookingLimitOpeningProblems(
  change: ProductStockChange | null | undefined,
  opening: OfferOpening,
  loc: string[] = ['stock', 'bookingLimitDatetime'],
): string[] {
  if (change?.bookingLimitDatetime == null) return [];
  return bookingLimitProblems(null, parseAwareDatetime(change.bookingLimitDatetime, loc), opening);
}

/** The stock's booking limit given against the offer's publication and opening of bookings, as they stand (400). */
export function checkBookingLimitAfterOpening(offer: Offer, change: ProductStockChange | null | undefined): void {
  const problems = bookingLimitOpeningProblems(change, {
    publication: offer.publicationDatetime,
    bookingAllowed: offer.bookingAllowedDatetime,
  });
  if (problems.length > 0) throw new BadRequestError({ 'stock.bookingLimitDatetime': problems });
}

/**
 * Creates the product's stock, or changes the fields given of the one it has. Creating one
 * needs a price (400). Does not flush.
 */
export function upsertProductStock(
  em: EntityManager,
  now: Date,
  offer: Offer,
  existing: Stock | null,
  change: ProductStockChange,
): Stock {
  const bookingLimit =
    change.bookingLimitDatetime != null
      ? parseAwareDatetime(change.bookingLimitDatetime, ['stock', 'bookingLimitDatetime'])
      : undefined;
  if (!existing) {
    if (change.price == null)
      throw BadRequestError.on('stock.price', 'A price is required to create the stock of a product');
    return em.create(Stock, {
      offer,
      price: change.price,
      quantity: totalQuantity(change.quantity ?? 'unlimited', 0),
      bookedQuantity: 0,
      bookingLimitDatetime: bookingLimit ?? null,
      createdAt: now,
      updatedAt: now,
    });
  }
  if (change.price != null) existing.price = change.price;
  if (change.quantity != null) existing.quantity = totalQuantity(change.quantity, existing.bookedQuantity);
  if (change.bookingLimitDatetime !== undefined) existing.bookingLimitDatetime = bookingLimit ?? null;
  existing.updatedAt = now;
  return existing;
}

/** Deletes the product's stock, if any: its unused bookings are cancelled with it (offers.stockDeleted). */
export async function removeProductStock(
  context: Pick<GraphContext, 'clock' | 'events'>,
  em: EntityManager,
  existing: Stock | null,
): Promise<boolean> {
  if (!existing) return false;
  await deleteStock(context, em, existing);
  return true;
}

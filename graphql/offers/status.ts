import { graphEnum } from '../shared/graphEnums.js';
import { type OfferStatus, offerStatuses } from './catalogue/index.js';
import type { Offer } from './Offer.js';

export const OfferStatusEnum = graphEnum('OfferStatus', offerStatuses, 'The status of an individual offer.');

/** What the status needs to know of an offer's stocks (non-deleted ones). */
export interface StockSummary {
  count: number;
  /** Stocks whose booking limit and beginning are still ahead (or unset). */
  open: number;
  /** Open stocks with places left (unlimited counts). */
  openWithPlaces: number;
}

export const noStocks: StockSummary = { count: 0, open: 0, openWithPlaces: 0 };

type StatusInput = Pick<Offer, 'validation' | 'isActive' | 'publicationDatetime' | 'publishedAt' | 'bookingOpenedAt'>;

/**
 * The one place where an offer's status is decided, in this order: review first, then
 * the provider's switch and the publication, then whether booking is open, then stocks.
 */
export function offerStatus(offer: StatusInput, stocks: StockSummary): OfferStatus {
  if (offer.validation === 'PENDING') return 'PENDING';
  if (offer.validation === 'REJECTED') return 'REJECTED';
  if (!offer.isActive) return 'INACTIVE';
  if (!offer.publishedAt) return offer.publicationDatetime ? 'SCHEDULED' : 'INACTIVE';
  if (!offer.bookingOpenedAt) return 'PUBLISHED';
  if (stocks.count === 0) return 'SOLD_OUT';
  if (stocks.open === 0) return 'EXPIRED';
  if (stocks.openWithPlaces === 0) return 'SOLD_OUT';
  return 'ACTIVE';
}

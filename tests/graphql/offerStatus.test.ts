import { describe, expect, it } from 'vitest';
import { noStocks, offerStatus, type StockSummary } from '../../graphql/offers/status.js';

const at = new Date('2026-11-22T10:00:00Z');
const live = {
  validation: 'APPROVED' as const,
  isActive: true,
  publicationDatetime: at,
  publishedAt: at,
  bookingOpenedAt: at,
};
const bookable: StockSummary = { count: 3, open: 2, openWithPlaces: 1 };

describe('offerStatus', () => {
  it.each([
    ['PENDING while the review is pending, whatever else holds', { ...live, validation: 'PENDING' as const }, bookable],
    ['REJECTED after a negative review', { ...live, validation: 'REJECTED' as const }, bookable],
    ['INACTIVE when the provider deactivated it', { ...live, isActive: false }, bookable],
    [
      'INACTIVE when never to be published',
      { ...live, publicationDatetime: null, publishedAt: null, bookingOpenedAt: null },
      bookable,
    ],
    ['SCHEDULED when publication is yet to come', { ...live, publishedAt: null, bookingOpenedAt: null }, bookable],
    ['PUBLISHED when published but booking not open yet', { ...live, bookingOpenedAt: null }, bookable],
    ['SOLD_OUT without any stock', live, noStocks],
    ['EXPIRED when every stock is past its booking limit', live, { count: 2, open: 0, openWithPlaces: 0 }],
    ['SOLD_OUT when no open stock has places left', live, { count: 2, open: 2, openWithPlaces: 0 }],
    ['ACTIVE when an open stock has places', live, bookable],
  ])('%s', (label, offer, stocks) => {
    const expected = label.split(' ')[0];
    expect(offerStatus(offer, stocks)).toBe(expected);
  });
});

import { isInputObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { CollectiveBookingStatus } from '../../graphql/collective/CollectiveBooking.js';
import {
  type BookingStatusFacts,
  COLLECTIVE_DISPLAYED_STATUSES,
  COLLECTIVE_LEGACY_STATUSES,
  type CollectiveDisplayedStatus,
  type CollectiveLegacyStatus,
  collectiveDisplayedStatus,
  collectiveLegacyStatus,
  lastBookingOf,
  type OfferStatusFacts,
} from '../../graphql/collective/displayedStatus.js';
import { checkEditAllowed, EDITABLE_GROUPS, groupOf } from '../../graphql/collective/editRules.js';
import { buildCollectiveSubgraph } from '../../graphql/collective/index.js';
import { BadRequestError } from '../../graphql/shared/errors.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = new Date('2026-11-22T10:00:00Z');
const at = (offset: number) => new Date(NOW.getTime() + offset);

/** An approved, active offer: booking limit in 10 days, event from day 20 to day 21. */
const live: OfferStatusFacts = {
  archivedAt: null,
  validation: 'APPROVED',
  isActive: true,
  startDatetime: at(20 * DAY),
  endDatetime: at(21 * DAY),
  bookingLimitDatetime: at(10 * DAY),
};
const booking = (
  status: CollectiveBookingStatus,
  cancellationReason: BookingStatusFacts['cancellationReason'] = null,
): BookingStatusFacts => ({
  status,
  cancellationReason,
});
const beforeLimit = NOW;
const afterLimit = at(10 * DAY + 1);
const afterEnd = at(21 * DAY + 1);

describe('collectiveDisplayedStatus', () => {
  describe('ARCHIVED wins over everything', () => {
    it.each([
      ['an approved offer without booking', live, null],
      ['an offer in draft', { ...live, validation: 'DRAFT' as const }, null],
      ['an offer under review', { ...live, validation: 'PENDING' as const }, null],
      ['a rejected offer', { ...live, validation: 'REJECTED' as const }, null],
      ['a hidden offer', { ...live, isActive: false }, null],
      ['a pre-booked offer', live, booking('PENDING')],
      ['a booked offer', live, booking('CONFIRMED')],
      ['a reimbursed offer', live, booking('REIMBURSED')],
      ['a cancelled offer', live, booking('CANCELLED', 'OFFERER')],
    ])('%s, archived, is ARCHIVED', (_label, offer, last) => {
      expect(collectiveDisplayedStatus({ ...offer, archivedAt: at(-HOUR) }, last, beforeLimit)).toBe('ARCHIVED');
      expect(collectiveDisplayedStatus({ ...offer, archivedAt: at(-HOUR) }, last, afterEnd)).toBe('ARCHIVED');
    });
  });

  it('DRAFT while in draft, whatever the booking and the clock', () => {
    expect(collectiveDisplayedStatus({ ...live, validation: 'DRAFT' }, null, beforeLimit)).toBe('DRAFT');
    expect(
      collectiveDisplayedStatus({ ...live, validation: 'DRAFT', isActive: false }, booking('CONFIRMED'), afterEnd),
    ).toBe('DRAFT');
  });

  it('UNDER_REVIEW while the validation is PENDING, even inactive or past its limit', () => {
    expect(collectiveDisplayedStatus({ ...live, validation: 'PENDING' }, null, beforeLimit)).toBe('UNDER_REVIEW');
    expect(collectiveDisplayedStatus({ ...live, validation: 'PENDING', isActive: false }, null, afterLimit)).toBe(
      'UNDER_REVIEW',
    );
  });

  it('REJECTED after a negative review, even inactive or booked', () => {
    expect(collectiveDisplayedStatus({ ...live, validation: 'REJECTED' }, null, beforeLimit)).toBe('REJECTED');
    expect(
      collectiveDisplayedStatus({ ...live, validation: 'REJECTED', isActive: false }, booking('PENDING'), afterLimit),
    ).toBe('REJECTED');
  });

  it('HIDDEN when approved but inactive, without a booking or after a cancelled one, whatever the clock', () => {
    expect(collectiveDisplayedStatus({ ...live, isActive: false }, null, beforeLimit)).toBe('HIDDEN');
    expect(collectiveDisplayedStatus({ ...live, isActive: false }, null, afterEnd)).toBe('HIDDEN');
    expect(collectiveDisplayedStatus({ ...live, isActive: false }, booking('CANCELLED'), beforeLimit)).toBe('HIDDEN');
  });

  it('shows a live booking of a hidden offer: hiding stops new bookings, not the school’s', () => {
    expect(collectiveDisplayedStatus({ ...live, isActive: false }, booking('PENDING'), beforeLimit)).toBe('PREBOOKED');
    expect(collectiveDisplayedStatus({ ...live, isActive: false }, booking('CONFIRMED'), beforeLimit)).toBe('BOOKED');
    expect(collectiveDisplayedStatus({ ...live, isActive: false }, booking('CONFIRMED'), afterEnd)).toBe('ENDED');
    expect(collectiveDisplayedStatus({ ...live, isActive: false }, booking('REIMBURSED'), afterEnd)).toBe('REIMBURSED');
  });

  describe('without booking', () => {
    it('PUBLISHED until the booking limit, the limit itself included', () => {
      expect(collectiveDisplayedStatus(live, null, beforeLimit)).toBe('PUBLISHED');
      expect(collectiveDisplayedStatus(live, null, live.bookingLimitDatetime)).toBe('PUBLISHED');
    });

    it('EXPIRED once the booking limit has passed', () => {
      expect(collectiveDisplayedStatus(live, null, afterLimit)).toBe('EXPIRED');
      expect(collectiveDisplayedStatus(live, null, afterEnd)).toBe('EXPIRED');
    });
  });

  describe('with a PENDING booking', () => {
    it('PREBOOKED until the booking limit', () => {
      expect(collectiveDisplayedStatus(live, booking('PENDING'), beforeLimit)).toBe('PREBOOKED');
      expect(collectiveDisplayedStatus(live, booking('PENDING'), live.bookingLimitDatetime)).toBe('PREBOOKED');
    });

    it('EXPIRED once the booking limit has passed without confirmation', () => {
      expect(collectiveDisplayedStatus(live, booking('PENDING'), afterLimit)).toBe('EXPIRED');
    });
  });

  describe('with a CONFIRMED booking', () => {
    it('BOOKED until the end, even past the booking limit and during the event', () => {
      expect(collectiveDisplayedStatus(live, booking('CONFIRMED'), beforeLimit)).toBe('BOOKED');
      expect(collectiveDisplayedStatus(live, booking('CONFIRMED'), afterLimit)).toBe('BOOKED');
      expect(collectiveDisplayedStatus(live, booking('CONFIRMED'), at(20 * DAY + HOUR))).toBe('BOOKED');
      expect(collectiveDisplayedStatus(live, booking('CONFIRMED'), live.endDatetime)).toBe('BOOKED');
    });

    it('ENDED once the end has passed', () => {
      expect(collectiveDisplayedStatus(live, booking('CONFIRMED'), afterEnd)).toBe('ENDED');
    });
  });

  it('ENDED with a USED booking, whatever the clock', () => {
    expect(collectiveDisplayedStatus(live, booking('USED'), beforeLimit)).toBe('ENDED');
    expect(collectiveDisplayedStatus(live, booking('USED'), afterEnd)).toBe('ENDED');
  });

  it('REIMBURSED with a REIMBURSED booking, whatever the clock', () => {
    expect(collectiveDisplayedStatus(live, booking('REIMBURSED'), beforeLimit)).toBe('REIMBURSED');
    expect(collectiveDisplayedStatus(live, booking('REIMBURSED'), afterEnd)).toBe('REIMBURSED');
  });

  it.each(['EDUCATIONAL_INSTITUTION', 'OFFERER'] as const)(
    'CANCELLED when the booking was cancelled by %s, whatever the clock',
    (reason) => {
      expect(collectiveDisplayedStatus(live, booking('CANCELLED', reason), beforeLimit)).toBe('CANCELLED');
      expect(collectiveDisplayedStatus(live, booking('CANCELLED', reason), afterEnd)).toBe('CANCELLED');
    },
  );

  it('EXPIRED when the booking was cancelled because it lapsed, even before the limit', () => {
    expect(collectiveDisplayedStatus(live, booking('CANCELLED', 'EXPIRED'), beforeLimit)).toBe('EXPIRED');
    expect(collectiveDisplayedStatus(live, booking('CANCELLED', 'EXPIRED'), afterEnd)).toBe('EXPIRED');
  });

  it('reaches every displayed status', () => {
    const reached = new Set<CollectiveDisplayedStatus>([
      collectiveDisplayedStatus({ ...live, archivedAt: NOW }, null, NOW),
      collectiveDisplayedStatus({ ...live, validation: 'DRAFT' }, null, NOW),
      collectiveDisplayedStatus({ ...live, validation: 'PENDING' }, null, NOW),
      collectiveDisplayedStatus({ ...live, validation: 'REJECTED' }, null, NOW),
      collectiveDisplayedStatus({ ...live, isActive: false }, null, NOW),
      collectiveDisplayedStatus(live, null, NOW),
      collectiveDisplayedStatus(live, null, afterLimit),
      collectiveDisplayedStatus(live, booking('PENDING'), NOW),
      collectiveDisplayedStatus(live, booking('CONFIRMED'), NOW),
      collectiveDisplayedStatus(live, booking('CONFIRMED'), afterEnd),
      collectiveDisplayedStatus(live, booking('REIMBURSED'), NOW),
      collectiveDisplayedStatus(live, booking('CANCELLED', 'OFFERER'), NOW),
    ]);
    expect([...reached].sort()).toEqual([...COLLECTIVE_DISPLAYED_STATUSES].sort());
  });
});

describe('collectiveLegacyStatus', () => {
  const table: [CollectiveDisplayedStatus, CollectiveLegacyStatus][] = [
    ['PUBLISHED', 'ACTIVE'],
    ['UNDER_REVIEW', 'PENDING'],
    ['REJECTED', 'REJECTED'],
    ['PREBOOKED', 'SOLD_OUT'],
    ['BOOKED', 'SOLD_OUT'],
    ['HIDDEN', 'INACTIVE'],
    ['EXPIRED', 'EXPIRED'],
    ['ENDED', 'EXPIRED'],
    ['CANCELLED', 'INACTIVE'],
    ['REIMBURSED', 'EXPIRED'],
    ['ARCHIVED', 'ARCHIVED'],
    ['DRAFT', 'DRAFT'],
  ];

  it.each(table)('%s is %s', (displayed, legacy) => {
    expect(collectiveLegacyStatus(displayed)).toBe(legacy);
  });

  it('the table covers every displayed status, and every legacy status is reached', () => {
    expect(table.map(([displayed]) => displayed).sort()).toEqual([...COLLECTIVE_DISPLAYED_STATUSES].sort());
    expect([...new Set(COLLECTIVE_DISPLAYED_STATUSES.map(collectiveLegacyStatus))].sort()).toEqual(
      [...COLLECTIVE_LEGACY_STATUSES].sort(),
    );
  });
});

describe('lastBookingOf', () => {
  it('is null without bookings', () => {
    expect(lastBookingOf([])).toBeNull();
  });

  it('is the booking with the highest id, whatever the order given', () => {
    const bookings = [
      { id: 7, status: 'CANCELLED' },
      { id: 12, status: 'PENDING' },
      { id: 3, status: 'CANCELLED' },
    ];
    expect(lastBookingOf(bookings)).toBe(bookings[1]);
    expect(lastBookingOf([...bookings].reverse())).toBe(bookings[1]);
  });

  it('reads any iterable', () => {
    const only = { id: 1 };
    expect(lastBookingOf(new Set([only]))).toBe(only);
  });
});

describe('checkEditAllowed', () => {
  type PriceChange = { current: number; requested: number | undefined };
  const price: PriceChange = { current: 10_000, requested: undefined };
  const lower = { current: 10_000, requested: 8_000 };
  const higher = { current: 10_000, requested: 10_001 };
  /** Every field of the offer input, as changedFields names them: those of the graph's CollectiveOfferInput. */
  const offerInput = buildCollectiveSubgraph().schema.getType('CollectiveOfferInput');
  if (!isInputObjectType(offerInput)) throw new Error('CollectiveOfferInput is not an input type');
  const allFields = Object.keys(offerInput.getFields());
  const refusal = (run: () => void): BadRequestError => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(BadRequestError);
      return error as BadRequestError;
    }
    throw new Error('expected a BadRequestError');
  };
  /** The fields one status lets change, each tried alone, the price with `priceChange`. */
  const allowedAlone = (status: CollectiveDisplayedStatus, priceChange: PriceChange) =>
    allFields
      .filter((field) => {
        try {
          checkEditAllowed(status, [field], priceChange);
          return true;
        } catch {
          return false;
        }
      })
      .sort();

  it('groups the fields as pass Culture does: institution, dates, discount, and the details', () => {
    const byGroup = (priceChange: PriceChange) => {
      const groups: Record<string, string[]> = {};
      for (const field of allFields) (groups[groupOf(field, priceChange)] ??= []).push(field);
      return Object.fromEntries(Object.entries(groups).map(([group, fields]) => [group, fields.sort()]));
    };
    const grouped = byGroup(lower);
    expect(grouped.institution).toEqual(['educationalInstitution', 'educationalInstitutionId']);
    expect(grouped.dates).toEqual(['bookingLimitDatetime', 'endDatetime', 'startDatetime']);
    expect(grouped.discount).toEqual(['educationalPriceDetail', 'numberOfTickets', 'totalPrice']);
    expect(grouped.details).toEqual(expect.arrayContaining(['name', 'students', 'venueId', 'isActive', 'imageFile']));
    // A higher price is a change of the details, not a discount.
    expect(groupOf('totalPrice', higher)).toBe('details');
    expect(groupOf('totalPrice', lower)).toBe('discount');
  });

  it('has a rule for every displayed status', () => {
    expect(Object.keys(EDITABLE_GROUPS).sort()).toEqual([...COLLECTIVE_DISPLAYED_STATUSES].sort());
  });

  describe.each(['PUBLISHED', 'PREBOOKED'] as const)('%s: everything but the institution', (status) => {
    it('lets every other field change, the price up or down', () => {
      const others = allFields.filter((field) => !field.startsWith('educationalInstitution')).sort();
      expect(allowedAlone(status, higher)).toEqual(others);
      expect(allowedAlone(status, lower)).toEqual(others);
    });

    it.each(['educationalInstitutionId', 'educationalInstitution'])('refuses %s with a 400 naming it', (field) => {
      const error = refusal(() => checkEditAllowed(status, [field], price));
      expect(error.fields).toEqual({ [field]: [`${field} cannot change while the offer is ${status}`] });
      expect(error.extensions.code).toBe('BAD_REQUEST');
    });
  });

  it('DRAFT: everything, the institution too', () => {
    expect(allowedAlone('DRAFT', higher)).toEqual([...allFields].sort());
  });

  describe.each(['BOOKED', 'ENDED'] as const)('%s: the discount only', (status) => {
    it('lets the number of participants, the price detail and a lower (or equal) price change', () => {
      expect(allowedAlone(status, lower)).toEqual(['educationalPriceDetail', 'numberOfTickets', 'totalPrice']);
      expect(() => checkEditAllowed(status, ['totalPrice'], { current: 10_000, requested: 10_000 })).not.toThrow();
      expect(() => checkEditAllowed(status, ['totalPrice'], { current: 10_000, requested: 0 })).not.toThrow();
    });

    it('refuses a higher price, naming totalPrice', () => {
      const error = refusal(() => checkEditAllowed(status, ['totalPrice'], higher));
      expect(error.fields).toEqual({ totalPrice: [`totalPrice can only go down while the offer is ${status}`] });
    });

    it('names every refused field at once, and only those', () => {
      const error = refusal(() =>
        checkEditAllowed(status, ['name', 'students', 'numberOfTickets', 'startDatetime', 'totalPrice'], higher),
      );
      expect(error.fields).toEqual({
        name: [`name cannot change while the offer is ${status}`],
        students: [`students cannot change while the offer is ${status}`],
        startDatetime: [`startDatetime cannot change while the offer is ${status}`],
        totalPrice: [`totalPrice can only go down while the offer is ${status}`],
      });
    });
  });

  it('EXPIRED: the dates only', () => {
    expect(allowedAlone('EXPIRED', lower)).toEqual(['bookingLimitDatetime', 'endDatetime', 'startDatetime']);
    const error = refusal(() => checkEditAllowed('EXPIRED', ['name', 'totalPrice'], lower));
    expect(error.fields).toEqual({
      name: ['name cannot change while the offer is EXPIRED'],
      totalPrice: ['totalPrice cannot change while the offer is EXPIRED'],
    });
  });

  describe.each(['UNDER_REVIEW', 'REJECTED', 'HIDDEN', 'ARCHIVED', 'CANCELLED', 'REIMBURSED'] as const)(
    '%s: nothing may change',
    (status) => {
      it.each(allFields)('refuses %s with a 400 naming it', (field) => {
        const error = refusal(() => checkEditAllowed(status, [field], lower));
        expect(error.fields).toEqual({ [field]: [`${field} cannot change while the offer is ${status}`] });
      });

      it('accepts a request that changes nothing', () => {
        expect(() => checkEditAllowed(status, [], price)).not.toThrow();
      });
    },
  );
});

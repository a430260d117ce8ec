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
import {
  checkEditAllowed,
  EDITABLE_WHEN_CONFIRMED,
  editScope,
  type EditScope,
} from '../../graphql/collective/editRules.js';
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

describe('editScope', () => {
  it.each([
    [null, { kind: 'everything' }],
    ['PENDING', { kind: 'everything' }],
    ['CONFIRMED', { kind: 'confirmed' }],
    ['USED', { kind: 'nothing', why: 'its booking was used' }],
    ['CANCELLED', { kind: 'nothing', why: 'its booking was cancelled' }],
    ['REIMBURSED', { kind: 'nothing', why: 'its booking was reimbursed' }],
  ] as [CollectiveBookingStatus | null, EditScope][])('a live offer whose booking is %s: %o', (status, scope) => {
    expect(editScope(false, status)).toEqual(scope);
  });

  it.each([null, 'PENDING', 'CONFIRMED', 'USED', 'CANCELLED', 'REIMBURSED'] as (CollectiveBookingStatus | null)[])(
    'an archived offer (booking %s): nothing',
    (status) => {
      expect(editScope(true, status)).toEqual({ kind: 'nothing', why: 'the offer is archived' });
    },
  );
});

describe('checkEditAllowed', () => {
  const price = { current: 10_000, requested: undefined };
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

  describe.each([
    ['no booking', null],
    ['a PENDING booking', 'PENDING'],
  ] as const)('with %s: everything may change', (_label, status) => {
    const scope = editScope(false, status);

    it.each(allFields)('%s', (field) => {
      expect(() =>
        checkEditAllowed(scope, [field], { current: 10_000, requested: field === 'totalPrice' ? 20_000 : undefined }),
      ).not.toThrow();
    });

    it('all fields at once, the price upwards too', () => {
      expect(() => checkEditAllowed(scope, allFields, { current: 10_000, requested: 99_999 })).not.toThrow();
    });
  });

  describe('with a CONFIRMED booking', () => {
    const scope = editScope(false, 'CONFIRMED');

    it('lets the price go down, or stay as it is', () => {
      expect(() => checkEditAllowed(scope, ['totalPrice'], { current: 10_000, requested: 8_000 })).not.toThrow();
      expect(() => checkEditAllowed(scope, ['totalPrice'], { current: 10_000, requested: 0 })).not.toThrow();
      expect(() => checkEditAllowed(scope, ['totalPrice'], { current: 10_000, requested: 10_000 })).not.toThrow();
    });

    it('refuses the price going up, naming totalPrice', () => {
      const error = refusal(() => checkEditAllowed(scope, ['totalPrice'], { current: 10_000, requested: 10_001 }));
      expect(error.fields).toEqual({ totalPrice: ['totalPrice can only go down once the booking is confirmed'] });
      expect(error.extensions.code).toBe('BAD_REQUEST');
    });

    it('lets the students and the price detail change', () => {
      expect(() => checkEditAllowed(scope, ['students'], price)).not.toThrow();
      expect(() => checkEditAllowed(scope, ['educationalPriceDetail'], price)).not.toThrow();
      expect(() =>
        checkEditAllowed(scope, ['totalPrice', 'students', 'educationalPriceDetail'], {
          current: 10_000,
          requested: 5_000,
        }),
      ).not.toThrow();
      // Those and the price only, as the contract's PATCH says: every other field of the input is refused.
      const allowed = allFields.filter((field) => {
        try {
          checkEditAllowed(scope, [field], price);
          return true;
        } catch {
          return false;
        }
      });
      expect(allowed.sort()).toEqual(['educationalPriceDetail', 'students', 'totalPrice']);
    });

    it.each(allFields.filter((field) => !(EDITABLE_WHEN_CONFIRMED as readonly string[]).includes(field)))(
      'refuses %s with a 400 naming it',
      (field) => {
        const error = refusal(() => checkEditAllowed(scope, [field], price));
        expect(error.fields).toEqual({ [field]: [`${field} cannot change once the booking is confirmed`] });
      },
    );

    it('names every refused field at once, and only those', () => {
      const error = refusal(() =>
        checkEditAllowed(scope, ['name', 'students', 'startDatetime', 'totalPrice'], {
          current: 10_000,
          requested: 12_000,
        }),
      );
      expect(Object.keys(error.fields).sort()).toEqual(['name', 'startDatetime', 'totalPrice']);
      expect(error.fields.totalPrice).toEqual(['totalPrice can only go down once the booking is confirmed']);
    });
  });

  describe.each([
    ['a USED booking', editScope(false, 'USED'), 'its booking was used'],
    ['a CANCELLED booking', editScope(false, 'CANCELLED'), 'its booking was cancelled'],
    ['a REIMBURSED booking', editScope(false, 'REIMBURSED'), 'its booking was reimbursed'],
    ['an archived offer', editScope(true, null), 'the offer is archived'],
    ['an archived offer with a CONFIRMED booking', editScope(true, 'CONFIRMED'), 'the offer is archived'],
  ])('with %s: nothing may change', (_label, scope, why) => {
    it.each(allFields)('refuses %s with a 400 naming it', (field) => {
      const error = refusal(() =>
        checkEditAllowed(scope, [field], { current: 10_000, requested: field === 'totalPrice' ? 5_000 : undefined }),
      );
      expect(error.fields).toEqual({ [field]: [`${field} cannot change: ${why}`] });
    });

    it('accepts a request that changes nothing', () => {
      expect(() => checkEditAllowed(scope, [], price)).not.toThrow();
    });
  });
});

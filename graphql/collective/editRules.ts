import { BadRequestError } from '../shared/errors.js';
import type { CollectiveBookingStatus } from './CollectiveBooking.js';

/** Fields a confirmed booking still lets change: what the school pays (downwards) and who comes. */
export const EDITABLE_WHEN_CONFIRMED = ['totalPrice', 'students', 'educationalPriceDetail'] as const;

export type EditScope = { kind: 'everything' } | { kind: 'confirmed' } | { kind: 'nothing'; why: string };

/**
 * What may change on an offer, given whether it is archived and its latest booking: with no
 * booking or a pre-booking, everything; once the school confirmed, the price (downwards), the
 * students and the price detail; once used, cancelled or reimbursed, nothing.
 */
export function editScope(archived: boolean, bookingStatus: CollectiveBookingStatus | null): EditScope {
  if (archived) return { kind: 'nothing', why: 'the offer is archived' };
  switch (bookingStatus) {
    case null:
    case 'PENDING':
      return { kind: 'everything' };
    case 'CONFIRMED':
      return { kind: 'confirmed' };
    case 'USED':
      return { kind: 'nothing', why: 'its booking was used' };
    case 'CANCELLED':
      return { kind: 'nothing', why: 'its booking was cancelled' };
    case 'REIMBURSED':
      return { kind: 'nothing', why: 'its booking was reimbursed' };
  }
}

/**
 * Refuses, with a 400 naming each field, the changes the scope forbids. `changed` lists the
 * fields whose value would really change (resending a value unchanged is no change).
 */
export function checkEditAllowed(
  scope: EditScope,
  changed: string[],
  price: { current: number; requested: number | undefined },
): void {
  const refused: Record<string, string[]> = {};
  for (const field of changed) {
    if (scope.kind === 'nothing') {
      refused[field] = [`${field} cannot change: ${scope.why}`];
    } else if (scope.kind === 'confirmed' && !(EDITABLE_WHEN_CONFIRMED as readonly string[]).includes(field)) {
      refused[field] = [`${field} cannot change once the booking is confirmed`];
    }
  }
  if (
    scope.kind === 'confirmed' &&
    changed.includes('totalPrice') &&
    price.requested !== undefined &&
    price.requested > price.current
  ) {
    refused.totalPrice = ['totalPrice can only go down once the booking is confirmed'];
  }
  if (Object.keys(refused).length > 0) throw new BadRequestError(refused);
}

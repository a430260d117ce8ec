import { randomInt } from 'node:crypto';
import {
  BOOK_PICKUP_DAYS,
  CANCELLATION_NOTICE_MS,
  CANCELLATION_WINDOW_MS,
  OTHER_PICKUP_DAYS,
  TOKEN_LENGTH,
} from './limits.js';

/** Countermark alphabet: no 0/O, 1/I/L, so that a token read aloud or typed is unambiguous. */
export const TOKEN_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function newToken(): string {
  let token = '';
  for (let index = 0; index < TOKEN_LENGTH; index += 1) token += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
  return token;
}

/**
 * Until when an event booking may be cancelled by its beneficiary; products have no limit. A
 * booking made less than 48 hours before its event could never be cancelled: its limit is the
 * moment it was made, never earlier.
 */
export function cancellationLimitOf(beginning: Date | null, bookedAt: Date): Date | null {
  if (!beginning) return null;
  const limit = Math.min(beginning.getTime() - CANCELLATION_NOTICE_MS, bookedAt.getTime() + CANCELLATION_WINDOW_MS);
  return new Date(Math.max(limit, bookedAt.getTime()));
}

/**
 * A rescheduled date restarts its bookings' cancellation window from the change: the
 * beneficiaries may cancel for 48 hours from now, never after the new beginning.
 */
export function rescheduledCancellationLimitOf(beginning: Date, now: Date): Date {
  return new Date(Math.min(beginning.getTime(), now.getTime() + CANCELLATION_WINDOW_MS));
}

export function pickupDaysOf(category: string): number {
  return category === 'LIVRE_PAPIER' ? BOOK_PICKUP_DAYS : OTHER_PICKUP_DAYS;
}

const DAY_MS = 24 * 3600 * 1000;

/** A school may cancel free of charge until 15 days before the event (or at once, if booked later). */
export const FREE_CANCELLATION_DAYS = 15;

/** Until when the school may cancel a booking of an event starting at `start` free of charge. */
export function cancellationLimitFor(start: Date, bookedAt: Date): Date {
  const limit = start.getTime() - FREE_CANCELLATION_DAYS * DAY_MS;
  return new Date(Math.max(limit, bookedAt.getTime()));
}

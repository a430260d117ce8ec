import type { Category } from '../catalogue/index.js';
import { BadRequestError, ValidationFailedError } from '../../shared/errors.js';

/** Tickets withdrawn through the provider's ticketing system: allowed categories only, with a contact. */
export function checkTicketing(
  category: Category,
  hasTicket: boolean,
  bookingContact: string | null,
  ticketingUrls: { bookingUrl: string | null; cancelUrl: string | null },
): void {
  if (!hasTicket) return;
  if (!category.canBeWithdrawable) {
    throw BadRequestError.on(
      'hasTicket',
      `Tickets of the category ${category.id} cannot be withdrawn through a ticketing system`,
    );
  }
  if (!ticketingUrls.bookingUrl || !ticketingUrls.cancelUrl) {
    throw BadRequestError.on(
      'hasTicket',
      'Set the booking and cancellation URLs of your provider or of this venue (PATCH /public/providers/v1/provider) before selling tickets through your ticketing system',
    );
  }
  if (!bookingContact) {
    throw BadRequestError.on(
      'bookingContact',
      'A booking contact is mandatory when tickets are withdrawn through a ticketing system',
    );
  }
}

/** Publication and booking datetimes must lie ahead; `now` is the only past allowed. */
export function checkFuture(loc: string, value: Date | null | undefined, now: Date): void {
  if (value && value.getTime() <= now.getTime()) {
    throw new ValidationFailedError([
      { loc: [loc], msg: 'The datetime must be in the future', type: 'datetime_future' },
    ]);
  }
}

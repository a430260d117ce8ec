import type { CollectiveDisplayedStatus } from './displayedStatus.js';

/**
 * What a collective offer's displayed status allows besides an edit (editRules.ts): archiving it,
 * cancelling its booking, a school pre-booking it. Data only, so that the portal's table of these
 * rules (app/docs/collectiveActions.server.ts) is written from them.
 */

/**
 * Offers in these states are done with, or never went live: they may be archived. An offer that
 * is hidden, ended (not yet reimbursed) or already archived may not, as in pass Culture's API.
 */
export const ARCHIVABLE_STATUSES: ReadonlySet<CollectiveDisplayedStatus> = new Set([
  'DRAFT',
  'PUBLISHED',
  'REJECTED',
  'EXPIRED',
  'REIMBURSED',
  'CANCELLED',
]);

/**
 * The offer's displayed statuses in which its provider may cancel the booking, as in pass
 * Culture's API: pre-booked, booked, and ended (the event over, until the booking is used).
 */
export const CANCELLABLE_BY_PROVIDER: ReadonlySet<CollectiveDisplayedStatus> = new Set([
  'PREBOOKED',
  'BOOKED',
  'ENDED',
]);

/** The one displayed status in which a school may pre-book an offer: open to booking. */
export const BOOKABLE_STATUS: CollectiveDisplayedStatus = 'PUBLISHED';

import { BadRequestError } from '../shared/errors.js';
import type { CollectiveDisplayedStatus } from './displayedStatus.js';

/**
 * What an edit touches, in the groups the school platform allows by the offer's displayed
 * status: the institution (who may book), the dates, the discount (fewer or more participants,
 * the price detail, a lower price) and the details (everything else, a higher price among them).
 */
export type EditGroup = 'details' | 'dates' | 'institution' | 'discount';

const GROUP_OF_FIELD: Record<string, EditGroup> = {
  educationalInstitutionId: 'institution',
  educationalInstitution: 'institution',
  startDatetime: 'dates',
  endDatetime: 'dates',
  bookingLimitDatetime: 'dates',
  numberOfTickets: 'discount',
  educationalPriceDetail: 'discount',
};

/**
 * The groups each displayed status lets change, as pass Culture's API has them. The institution
 * only changes on a draft, which offers created through the API never are: it is set at creation.
 * Once the school confirmed (BOOKED), and after the event (ENDED), only the discount; an expired
 * offer only gets new dates; an offer under review, rejected, hidden, archived, cancelled or
 * reimbursed, nothing.
 */
export const EDITABLE_GROUPS: Record<CollectiveDisplayedStatus, readonly EditGroup[]> = {
  DRAFT: ['details', 'dates', 'institution', 'discount'],
  PUBLISHED: ['details', 'dates', 'discount'],
  PREBOOKED: ['details', 'dates', 'discount'],
  BOOKED: ['discount'],
  ENDED: ['discount'],
  EXPIRED: ['dates'],
  UNDER_REVIEW: [],
  REJECTED: [],
  HIDDEN: [],
  ARCHIVED: [],
  CANCELLED: [],
  REIMBURSED: [],
};

/** The group of a changed field; the price is a discount when it goes down, a detail when it goes up. */
export function groupOf(field: string, price: { current: number; requested: number | undefined }): EditGroup {
  if (field === 'totalPrice') {
    return price.requested !== undefined && price.requested > price.current ? 'details' : 'discount';
  }
  return GROUP_OF_FIELD[field] ?? 'details';
}

/**
 * Refuses, with a 400 naming each field, the changes the offer's displayed status forbids.
 * `changed` lists the fields whose value would really change (resending a value unchanged is no
 * change); `price` holds the current and requested prices in cents.
 */
export function checkEditAllowed(
  status: CollectiveDisplayedStatus,
  changed: string[],
  price: { current: number; requested: number | undefined },
): void {
  const allowed = EDITABLE_GROUPS[status];
  const refused: Record<string, string[]> = {};
  for (const field of changed) {
    const group = groupOf(field, price);
    if (allowed.includes(group)) continue;
    refused[field] =
      field === 'totalPrice' && allowed.includes('discount')
        ? [`totalPrice can only go down while the offer is ${status}`]
        : [`${field} cannot change while the offer is ${status}`];
  }
  if (Object.keys(refused).length > 0) throw new BadRequestError(refused);
}

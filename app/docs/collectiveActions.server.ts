import { ARCHIVABLE_STATUSES, BOOKABLE_STATUS, CANCELLABLE_BY_PROVIDER } from '../../graphql/collective/actionRules.js';
import type { CollectiveDisplayedStatus } from '../../graphql/collective/displayedStatus.js';
import { EDITABLE_GROUPS, type EditGroup } from '../../graphql/collective/editRules.js';
import { codeCell, markdownTable } from './markdownTable.server.js';

/*
 * The collective-offer page's table of what each displayed status allows, written from the very
 * rules the server applies (the edit groups, the archivable and cancellable statuses, the one a
 * school may pre-book), so the page cannot state another rule than the code's.
 */

/** In the order an offer lives them; DRAFT is left out: offers created through the API never are. */
const STATUSES_IN_ORDER: readonly CollectiveDisplayedStatus[] = [
  'UNDER_REVIEW',
  'REJECTED',
  'PUBLISHED',
  'HIDDEN',
  'PREBOOKED',
  'BOOKED',
  'EXPIRED',
  'ENDED',
  'REIMBURSED',
  'CANCELLED',
  'ARCHIVED',
];

const EDIT_COLUMNS: { group: EditGroup; header: string }[] = [
  { group: 'details', header: 'Change its details' },
  { group: 'dates', header: 'Change its dates' },
  { group: 'discount', header: 'Change the discount' },
];

const yesNo = (allowed: boolean) => (allowed ? 'yes' : 'no');

export function collectiveActionsSection(): string {
  return markdownTable(
    [
      '`offerStatus`',
      ...EDIT_COLUMNS.map((column) => column.header),
      'Archive it',
      'Cancel its booking',
      'A school pre-books it',
    ],
    STATUSES_IN_ORDER.map((status) => [
      codeCell(status),
      ...EDIT_COLUMNS.map(({ group }) => yesNo(EDITABLE_GROUPS[status].includes(group))),
      yesNo(ARCHIVABLE_STATUSES.has(status)),
      yesNo(CANCELLABLE_BY_PROVIDER.has(status)),
      yesNo(status === BOOKABLE_STATUS),
    ]),
  );
}

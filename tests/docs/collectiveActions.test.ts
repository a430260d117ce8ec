/**
 * The collective-offer page's table of what each offerStatus allows is written from the rules the
 * server applies (graphql/collective/editRules.ts, actionRules.ts): here, those rules as the
 * contract and pass Culture's API have them, row by row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectiveActionsSection } from '../../app/docs/collectiveActions.server.js';
import { findProjectRoot } from '../../server/portal.js';

const PAGE = join('docs', 'pages', 'understanding-our-api', 'resources', 'collective-offers.md');

describe('the table of what each offerStatus allows', () => {
  it('is on the collective-offer page, written from the rules', () => {
    expect(readFileSync(join(findProjectRoot(), PAGE), 'utf8')).toContain('<!-- generated: collective-actions -->');
  });

  it('says, status by status, what may change and what may be done', () => {
    const rows = collectiveActionsSection()
      .split('\n')
      .slice(2)
      .map((row) =>
        row
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    // Details, dates, discount; archive; cancel the booking; pre-booked by a school.
    expect(rows).toEqual([
      ['`UNDER_REVIEW`', 'no', 'no', 'no', 'no', 'no', 'no'],
      ['`REJECTED`', 'no', 'no', 'no', 'yes', 'no', 'no'],
      ['`PUBLISHED`', 'yes', 'yes', 'yes', 'yes', 'no', 'yes'],
      ['`HIDDEN`', 'no', 'no', 'no', 'no', 'no', 'no'],
      ['`PREBOOKED`', 'yes', 'yes', 'yes', 'no', 'yes', 'no'],
      ['`BOOKED`', 'no', 'no', 'yes', 'no', 'yes', 'no'],
      ['`EXPIRED`', 'no', 'yes', 'no', 'yes', 'no', 'no'],
      ['`ENDED`', 'no', 'no', 'yes', 'no', 'yes', 'no'],
      ['`REIMBURSED`', 'no', 'no', 'no', 'yes', 'no', 'no'],
      ['`CANCELLED`', 'no', 'no', 'no', 'yes', 'no', 'no'],
      ['`ARCHIVED`', 'no', 'no', 'no', 'no', 'no', 'no'],
    ]);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  decisionPath,
  inventoryProblems,
  ourTestTitles,
  readInventory,
  renderTables,
  verdictKind,
  withTables,
  type InventoryRow,
} from '../../scripts/conformance.js';

function row(fields: Partial<InventoryRow>): InventoryRow {
  return {
    line: 2,
    id: 'events/get_event_test.py › GetEventTest.test_event_not_found',
    operation: 'GetEvent',
    behaviour: 'An unknown event is 404.',
    verdict: 'same',
    ourTest: '',
    ...fields,
  };
}

describe('the conformance inventory (docs/conformance/real-suite.tsv)', () => {
  const rows = readInventory();
  const titles = ourTestTitles();

  it('gives every row a known operation, a behaviour and a verdict, and names tests of ours that exist', () => {
    expect(rows.length).toBeGreaterThan(0);
    expect(inventoryProblems(rows, titles)).toEqual([]);
  });

  it('prints in decision 013 the tables made from the data file (run `npm run conformance` after editing it)', () => {
    const decision = readFileSync(decisionPath, 'utf8');
    expect(withTables(decision, renderTables(rows))).toBe(decision);
  });

  it('refuses a row without a verdict, with an unknown one, or with a test of ours that does not exist', () => {
    const known = titles;
    const [file, someTitle] = [...known.entries()].find(([, fileTitles]) => fileTitles.size > 0)!;
    const title = [...someTitle][0];
    expect(inventoryProblems([row({ ourTest: `${file} › ${title}` })], known)).toEqual([]);
    expect(inventoryProblems([row({ verdict: '' })], known)[0]).toMatch(/no verdict/);
    expect(inventoryProblems([row({ verdict: 'kept' })], known)[0]).toMatch(/no verdict/);
    expect(inventoryProblems([row({ verdict: 'probably' })], known)[0]).toMatch(/no verdict/);
    expect(inventoryProblems([row({ verdict: 'same' })], known)[0]).toMatch(/our_test must read/);
    expect(inventoryProblems([row({ ourTest: `${file} › not a title of that file` })], known)[0]).toMatch(
      /no test title of/,
    );
    expect(
      inventoryProblems([row({ verdict: 'changed', ourTest: `tests/nowhere.test.ts › ${title}` })], known)[0],
    ).toMatch(/not a test file of ours/);
    expect(
      inventoryProblems([row({ operation: 'GetEverything', verdict: 'not observable: a log line' })], known)[0],
    ).toMatch(/not an operationId/);
    expect(
      inventoryProblems([row({ verdict: 'kept: English messages' }), row({ verdict: 'kept: again' })], known),
    ).toEqual([expect.stringMatching(/appears twice/)]);
  });

  it('reads reasoned verdicts by the words before their colon', () => {
    expect(verdictKind('contract wins: limit is at most 50')).toBe('contract wins');
    expect(verdictKind('spec wins: DRAFT does not apply')).toBe('spec wins');
    expect(verdictKind('not observable: an e-mail')).toBe('not observable');
    expect(verdictKind('kept:')).toBeUndefined();
    expect(verdictKind('same: but')).toBeUndefined();
  });

  it('counts the rows per operation in the printed tables, and lists every row that is not the same', () => {
    const tables = renderTables([
      row({}),
      row({ id: 'a › b', verdict: 'kept: English messages' }),
      row({ id: 'pcapi/core/offers/validation.py › check_x', verdict: 'changed' }),
    ]);
    expect(tables).toContain('| GetEvent | 2 | 1 | 3 | 1 | 1 | 1 | 0 | 0 | 0 |');
    expect(tables).toContain('| a › b | GetEvent | An unknown event is 404. | kept: English messages | none |');
    expect(tables).not.toContain('| events/get_event_test.py › GetEventTest.test_event_not_found |');
  });
});

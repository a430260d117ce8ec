import 'reflect-metadata';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { routes } from '../rest-facade/index.js';
import { tags } from '../rest-facade/tags.js';

/**
 * The conformance inventory (issue 35): one row per test case of pass Culture's public API suite,
 * and per validator no real test reaches, with our verdict. Decision 013 prints tables made from
 * it; the tests check the two never drift and that every `same`/`changed` row names a test of ours.
 */

export const inventoryPath = 'docs/conformance/real-suite.tsv';
export const decisionPath = 'docs/decisions/013-conformance.md';

const columns = ['id', 'operation', 'behaviour', 'verdict', 'our_test'] as const;

export const verdictKinds = ['same', 'changed', 'kept', 'contract wins', 'spec wins', 'not observable'] as const;
export type VerdictKind = (typeof verdictKinds)[number];

export interface InventoryRow {
  line: number;
  id: string;
  operation: string;
  behaviour: string;
  verdict: string;
  ourTest: string;
}

export function readInventory(text = readFileSync(inventoryPath, 'utf8')): InventoryRow[] {
  const [header, ...lines] = text.replace(/\n$/, '').split('\n');
  if (header !== columns.join('\t')) throw new Error(`${inventoryPath}: the header must be ${columns.join(' ⇥ ')}`);
  return lines.map((line, index) => {
    const cells = line.split('\t');
    if (cells.length !== columns.length) {
      throw new Error(`${inventoryPath}:${index + 2}: ${cells.length} cells, expected ${columns.length}`);
    }
    const [id, operation, behaviour, verdict, ourTest] = cells.map((cell) => cell.trim());
    return { line: index + 2, id, operation, behaviour, verdict, ourTest };
  });
}

/** `same`, `changed`, or the words before the colon of a reasoned verdict; undefined when none fits. */
export function verdictKind(verdict: string): VerdictKind | undefined {
  if (verdict === 'same' || verdict === 'changed') return verdict;
  const colon = verdict.indexOf(':');
  if (colon < 0 || verdict.slice(colon + 1).trim() === '') return undefined;
  const kind = verdict.slice(0, colon).trim();
  return verdictKinds.find((known) => known === kind && known !== 'same' && known !== 'changed');
}

/** Real test cases are named by their file under api/tests/routes/public/; uncovered code paths by pcapi/…. */
export function rowSource(row: InventoryRow): 'test' | 'code' {
  return row.id.startsWith('pcapi/') ? 'code' : 'test';
}

const tagOfOperation = new Map(routes.map((route) => [route.operationId, route.tag]));

export function tagOf(operation: string): string | undefined {
  return tagOfOperation.get(operation);
}

/** Every problem of the inventory, as readable lines; empty when it is sound. */
export function inventoryProblems(rows: InventoryRow[], testTitles: Map<string, Set<string>>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const at = `${inventoryPath}:${row.line} (${row.id})`;
    if (!row.id) problems.push(`${at}: no id`);
    if (seen.has(row.id)) problems.push(`${at}: the id appears twice`);
    seen.add(row.id);
    if (!tagOf(row.operation)) problems.push(`${at}: "${row.operation}" is not an operationId of ours`);
    if (!row.behaviour) problems.push(`${at}: no behaviour`);
    const kind = verdictKind(row.verdict);
    if (!kind)
      problems.push(`${at}: no verdict, or not one of ${verdictKinds.join(', ')} (reasoned ones as "kind: why")`);
    // A test of ours is required where we claim the real behaviour, and must exist wherever one is named.
    if (row.ourTest || kind === 'same' || kind === 'changed') {
      const problem = ourTestProblem(row.ourTest, testTitles);
      if (problem) problems.push(`${at}: ${problem}`);
    }
  }
  return problems;
}

function ourTestProblem(ourTest: string, testTitles: Map<string, Set<string>>): string | undefined {
  const separator = ourTest.indexOf(' › ');
  if (separator < 0) return `our_test must read "tests/<file> › <title>", got "${ourTest}"`;
  const file = ourTest.slice(0, separator);
  const title = ourTest.slice(separator + 3);
  const titles = testTitles.get(file);
  if (!titles) return `our_test names ${file}, which is not a test file of ours`;
  if (!titles.has(title)) return `our_test names "${title}", which is no test title of ${file}`;
  return undefined;
}

/** The titles of the it()/test() calls of each test file under `tests/`, keyed by its path. */
export function ourTestTitles(root = 'tests'): Map<string, Set<string>> {
  const titles = new Map<string, Set<string>>();
  for (const path of testFiles(root)) {
    titles.set(relative('.', path), titlesOf(readFileSync(path, 'utf8')));
  }
  return titles;
}

function testFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const titleCall =
  /\b(?:it|test)(?:\.(?:concurrent|sequential|skipIf\([^)]*\)|runIf\([^)]*\)))*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;

/** The title template of a table-driven test: `it.each(cases)('%s answers …', …)`. */
const eachTitleCall = /\)\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1\s*,/g;

function titlesOf(source: string): Set<string> {
  const found = new Set<string>();
  for (const pattern of [titleCall, eachTitleCall]) {
    for (const match of source.matchAll(pattern)) found.add(match[2].replace(/\\(.)/g, '$1'));
  }
  return found;
}

// ---- The tables decision 013 prints ----

const generatedStart =
  '<!-- The tables below are made from docs/conformance/real-suite.tsv by `npm run conformance`: edit the data, not them. -->';
const generatedEnd = '<!-- End of the generated tables. -->';

const countColumns: { title: string; kind: VerdictKind }[] = [
  { title: 'Same', kind: 'same' },
  { title: 'Changed', kind: 'changed' },
  { title: 'Kept', kind: 'kept' },
  { title: 'Contract wins', kind: 'contract wins' },
  { title: 'Spec wins', kind: 'spec wins' },
  { title: 'Not observable', kind: 'not observable' },
];

interface Tally {
  tests: number;
  code: number;
  byKind: Map<VerdictKind, number>;
}

function tally(rows: InventoryRow[]): Tally {
  const byKind = new Map<VerdictKind, number>();
  for (const row of rows) {
    const kind = verdictKind(row.verdict);
    if (kind) byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  }
  const code = rows.filter((row) => rowSource(row) === 'code').length;
  return { tests: rows.length - code, code, byKind };
}

function countCells(counts: Tally): string {
  const total = counts.tests + counts.code;
  return [counts.tests, counts.code, total, ...countColumns.map((column) => counts.byKind.get(column.kind) ?? 0)].join(
    ' | ',
  );
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

const countHeader =
  '| Real tests | Code paths | Rows | ' + countColumns.map((column) => column.title).join(' | ') + ' |';
const countRule = '|' + ' --- |'.repeat(3 + countColumns.length);

/** The Markdown the decision holds between its markers, made from the rows alone. */
export function renderTables(rows: InventoryRow[]): string {
  const tagNames = tags.map((tag) => tag.name as string);
  const rowsOfTag = (tag: string) => rows.filter((row) => tagOf(row.operation) === tag);
  const out: string[] = [
    generatedStart,
    '',
    '### What the walk covers',
    '',
    ...walkTable(rows),
    '',
    '### Counts per tag',
    '',
  ];
  out.push('| Tag ' + countHeader, '| --- ' + countRule);
  for (const tag of tagNames) out.push(`| ${tag} | ${countCells(tally(rowsOfTag(tag)))} |`);
  out.push(`| **Total** | ${countCells(tally(rows))} |`, '');

  out.push('### Counts per operation', '');
  out.push('| Operation ' + countHeader, '| --- ' + countRule);
  for (const route of routes) {
    out.push(
      `| ${route.operationId} | ${countCells(tally(rows.filter((row) => row.operation === route.operationId)))} |`,
    );
  }
  out.push('');

  out.push('### Every row that is not `same`', '');
  out.push(
    'Grouped by tag. _Id_ is the real test (`file › Class.test[case]`, under `api/tests/routes/public/`) or the',
    'real function (`pcapi/…`) no real test reaches; the whole inventory, `same` rows included, is the data file.',
    '',
  );
  for (const tag of tagNames) {
    const different = rowsOfTag(tag).filter((row) => verdictKind(row.verdict) !== 'same');
    if (different.length === 0) continue;
    out.push(
      `#### ${tag}`,
      '',
      '| Id | Operation | Real behaviour | Verdict | Our test |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const row of different) {
      out.push(
        `| ${cell(row.id)} | ${row.operation} | ${cell(row.behaviour)} | ${cell(row.verdict)} | ${cell(row.ourTest || 'none')} |`,
      );
    }
    out.push('');
  }
  out.push(generatedEnd);
  return out.join('\n');
}

interface WalkCounts {
  functions: number;
  parametrized: number;
  inherited: number;
  rows: number;
}

/** Test functions, rows from parametrized tests and inherited rows, as the ids say them. */
function walkCounts(tests: InventoryRow[]): WalkCounts {
  const own = tests.filter((row) => !row.id.endsWith('(inherited)'));
  return {
    functions: new Set(own.map((row) => row.id.replace(/\[.*\]$/, ''))).size,
    parametrized: own.filter((row) => /\]$/.test(row.id)).length,
    inherited: tests.length - own.length,
    rows: tests.length,
  };
}

/**
 * The real suite file by file: `file › Class.test[case]` ids, `(inherited)` for a helper
 * class's test, `pcapi/…` ids for the code paths no test reaches.
 */
function walkTable(rows: InventoryRow[]): string[] {
  const tests = rows.filter((row) => rowSource(row) === 'test');
  const files = [...new Set(tests.map((row) => row.id.split(' › ')[0]))].sort();
  const line = (name: string, counts: WalkCounts) =>
    `| ${name} | ${counts.functions} | ${counts.parametrized} | ${counts.inherited} | ${counts.rows} |`;
  return [
    '| Real test file | Test functions | Rows from parametrized tests | Inherited rows | Rows |',
    '| --- | --- | --- | --- | --- |',
    ...files.map((file) => line(`\`${file}\``, walkCounts(tests.filter((row) => row.id.startsWith(`${file} › `))))),
    line(`**${files.length} files**`, walkCounts(tests)),
    '',
    `And ${rows.length - tests.length} rows for real validators that no test of the suite reaches (\`pcapi/…\`).`,
  ];
}

/** The decision with its generated part replaced by `tables`. */
export function withTables(decision: string, tables: string): string {
  const start = decision.indexOf(generatedStart);
  const end = decision.indexOf(generatedEnd);
  if (start < 0 || end < start) throw new Error(`${decisionPath} has lost its markers of generated tables`);
  return decision.slice(0, start) + tables + decision.slice(end + generatedEnd.length);
}

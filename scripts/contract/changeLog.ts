import { operationAnchor } from '../../app/reference/anchors.js';
import type { ContractChange, OperationRef } from './compare.js';

/**
 * The change log's unreleased section: prose written by hand in `###` entries, and one block that
 * the contract check writes from the difference between the released document and the current
 * one. An entry that starts with the breaking marker declares the breaking changes of the
 * operations it names (decision 030).
 */
export const UNRELEASED_HEADING = '## Unreleased';
export const UNRELEASED_INTRO =
  'Merged, not yet released: these changes reach the servers with the next release, when they move under its date.';
export const GENERATED_START =
  "<!-- contract-changes:start: written from the document's difference with the released one; write around this block, not in it -->";
export const GENERATED_END = '<!-- contract-changes:end -->';
export const GENERATED_HEADING = '### Changes to the operations';
/** The start of a list item that declares a breaking change of the operations it names. */
export const BREAKING_MARKER = '**Breaking change.**';

interface Section {
  start: number;
  end: number;
  text: string;
}

function unreleasedSection(changeLog: string): Section {
  const start = changeLog.indexOf(`\n${UNRELEASED_HEADING}\n`);
  if (start === -1) throw new Error(`The change log has no "${UNRELEASED_HEADING}" section`);
  const next = changeLog.indexOf('\n## ', start + 1);
  const end = next === -1 ? changeLog.length : next + 1;
  return { start: start + 1, end, text: changeLog.slice(start + 1, end) };
}

function generatedBlockOf(section: string): { start: number; end: number } {
  const start = section.indexOf(GENERATED_START);
  const end = section.indexOf(GENERATED_END);
  if (start === -1 || end < start) throw new Error('The unreleased section has lost its generated block markers');
  return { start, end: end + GENERATED_END.length };
}

function operationLink(operation: OperationRef): string {
  const name = `${operation.method.toUpperCase()} ${operation.path}`;
  // A removed operation has no anchor left in the reference: named, not linked.
  if (operation.removed) return `${operation.summary} (\`${name}\`, \`${operation.operationId}\`)`;
  return `[${operation.summary}](/rest-api#${operationAnchor(operation.tag, operation.operationId)}) (\`${name}\`)`;
}

/** The generated block's lines: one item per operation, its breaking changes marked. */
export function renderChanges(changes: ContractChange[]): string {
  const byOperation = new Map<string, { operation: OperationRef; sentences: string[] }>();
  for (const change of changes) {
    const key = `${change.operation.method} ${change.operation.path}`;
    const entry = byOperation.get(key) ?? { operation: change.operation, sentences: [] };
    entry.sentences.push(change.breaking ? `**breaking:** ${change.sentence}` : change.sentence);
    byOperation.set(key, entry);
  }
  if (byOperation.size === 0) return '';
  const items = [...byOperation.values()].map(
    ({ operation, sentences }) => `- ${operationLink(operation)}: ${sentences.join('; ')}.`,
  );
  return [GENERATED_HEADING, '', ...items].join('\n');
}

function blockText(inner: string): string {
  return inner === '' ? `${GENERATED_START}\n${GENERATED_END}` : `${GENERATED_START}\n\n${inner}\n\n${GENERATED_END}`;
}

/** What the generated block holds now, as renderChanges would write it. */
export function generatedChanges(changeLog: string): string {
  const section = unreleasedSection(changeLog).text;
  const block = generatedBlockOf(section);
  return section.slice(block.start + GENERATED_START.length, block.end - GENERATED_END.length).trim();
}

/** The change log with its generated block rewritten from these changes, the prose around it kept. */
export function withGeneratedChanges(changeLog: string, changes: ContractChange[]): string {
  const section = unreleasedSection(changeLog);
  const block = generatedBlockOf(section.text);
  const text = section.text.slice(0, block.start) + blockText(renderChanges(changes)) + section.text.slice(block.end);
  return changeLog.slice(0, section.start) + text + changeLog.slice(section.end);
}

/**
 * The operations whose breaking changes the unreleased prose declares: those a list item starting
 * with the breaking marker names, by a link to the reference's operation or its operationId in code.
 */
export function declaredBreakingOperations(changeLog: string): Set<string> {
  const section = unreleasedSection(changeLog).text;
  const block = generatedBlockOf(section);
  const prose = section.slice(0, block.start) + section.slice(block.end);
  const declared = new Set<string>();
  const items = prose.split(/\n(?=\s*- )/).filter((item) => item.trim().startsWith(`- ${BREAKING_MARKER}`));
  for (const item of items) {
    for (const match of item.matchAll(/\/operation\/([A-Za-z0-9_]+)\)|`([A-Za-z0-9_]+)`/g)) {
      declared.add(match[1] ?? match[2]);
    }
  }
  return declared;
}

/** The breaking changes that no unreleased entry declares: each one fails the contract check. */
export function undeclaredBreakingChanges(changeLog: string, changes: ContractChange[]): ContractChange[] {
  const declared = declaredBreakingOperations(changeLog);
  return changes.filter((change) => change.breaking && !declared.has(change.operation.operationId));
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `### Title` of an unreleased entry as a dated one: `### 28 November 2026: title`. */
function datedHeading(heading: string, day: string): string {
  const title = heading.replace(/^###\s+/, '');
  const lowered = /^[A-Z][a-z]/.test(title) ? title[0].toLowerCase() + title.slice(1) : title;
  return `### ${day}: ${lowered}`;
}

/**
 * The change log as released on `date`: the unreleased entries (the generated block's among them)
 * move, newest first, under the date's month, each titled with the date; the unreleased section is
 * left empty, its markers ready for the next changes.
 */
export function releaseChangeLog(changeLog: string, date: Date): string {
  const section = unreleasedSection(changeLog);
  const block = generatedBlockOf(section.text);
  const generated = section.text.slice(block.start + GENERATED_START.length, block.end - GENERATED_END.length).trim();
  const prose = (section.text.slice(0, block.start) + section.text.slice(block.end))
    .replace(UNRELEASED_HEADING, '')
    .replace(UNRELEASED_INTRO, '')
    .trim();
  const loose = prose.startsWith('### ') || prose === '' ? prose : `### Other changes\n\n${prose}`;
  const entries = [loose, generated].filter((text) => text !== '').join('\n\n');
  const emptied = `${UNRELEASED_HEADING}\n\n${UNRELEASED_INTRO}\n\n${blockText('')}\n\n`;
  const before = changeLog.slice(0, section.start) + emptied;
  let after = changeLog.slice(section.end);
  if (entries === '') return before + after;

  const day = dayFormat.format(date);
  const dated = entries.replace(/^### .+$/gm, (heading) => datedHeading(heading, day));
  const monthHeading = `## ${monthFormat.format(date)}`;
  if (after.startsWith(`${monthHeading}\n`)) {
    after = `${monthHeading}\n\n${dated}\n${after.slice(monthHeading.length + 1)}`;
  } else {
    after = `${monthHeading}\n\n${dated}\n\n${after}`;
  }
  return before + after;
}

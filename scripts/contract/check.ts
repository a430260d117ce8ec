import { readFileSync } from 'node:fs';
import type { ContractDocument } from './document.js';
import { contractPath, readContractJson } from './document.js';
import { type ContractChange, compareDocuments } from './compare.js';
import { BREAKING_MARKER, undeclaredBreakingChanges } from './changeLog.js';

export interface ContractCheck {
  changes: ContractChange[];
  undeclared: ContractChange[];
  changeLog: string;
}

/** The current document against the released one, and the breaking changes the change log does not declare. */
export function checkContract(current: ContractDocument, root?: string): ContractCheck {
  const released = readContractJson<ContractDocument>('released', root);
  const changeLog = readFileSync(contractPath('changeLog', root), 'utf8');
  const changes = compareDocuments(released, current);
  return { changes, undeclared: undeclaredBreakingChanges(changeLog, changes), changeLog };
}

/** What a contributor reads when the check fails: each undeclared change, and how to declare it. */
export function undeclaredReport(undeclared: ContractChange[]): string {
  const lines = undeclared.map(
    ({ operation, sentence }) =>
      `  ${operation.operationId} (${operation.method.toUpperCase()} ${operation.path}): ${sentence}`,
  );
  return [
    `${undeclared.length} breaking change(s) of the released contract that the change log does not declare:`,
    ...lines,
    `Undo them, or declare them in the Unreleased section of docs/pages/change-logs.md with a list item that`,
    `starts with ${BREAKING_MARKER} and names each operation (its reference link, or its operationId in code).`,
  ].join('\n');
}

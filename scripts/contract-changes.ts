import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { withGeneratedChanges } from './contract/changeLog.js';
import { checkContract, undeclaredReport } from './contract/check.js';
import { contractPath, currentDocument } from './contract/document.js';

// Writes the change log's generated block from the difference with the released document, then
// fails when a breaking change is not declared (what the test of the contract checks too).
const { changes, undeclared, changeLog } = checkContract(currentDocument());
writeFileSync(contractPath('changeLog'), withGeneratedChanges(changeLog, changes));
console.log(`${changes.length} change(s) of the operations written to ${contractPath('changeLog')}`);
if (undeclared.length > 0) {
  console.error(undeclaredReport(undeclared));
  process.exitCode = 1;
}

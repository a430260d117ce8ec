import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { API_VERSION } from '../rest-facade/openapi.js';
import { releaseChangeLog, withGeneratedChanges } from './contract/changeLog.js';
import { checkContract, undeclaredReport } from './contract/check.js';
import {
  contractJson,
  contractPath,
  currentDocument,
  type ReleaseRecord,
  writeContractFile,
} from './contract/document.js';

// npm run release-contract [-- --date YYYY-MM-DD]: the current document becomes the released one,
// and the change log's unreleased entries move under that date.
const { values } = parseArgs({ options: { date: { type: 'string' } } });
const date = values.date ?? new Date().toISOString().slice(0, 10);
if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) {
  throw new Error(`--date ${date}: expected YYYY-MM-DD`);
}

const current = currentDocument();
const { changes, undeclared, changeLog } = checkContract(current);
if (undeclared.length > 0) {
  console.error(undeclaredReport(undeclared));
  process.exit(1);
}
writeFileSync(
  contractPath('changeLog'),
  releaseChangeLog(withGeneratedChanges(changeLog, changes), new Date(`${date}T00:00:00Z`)),
);
writeContractFile('released', contractJson(current));
writeContractFile('releaseRecord', contractJson({ releasedOn: date, apiVersion: API_VERSION } satisfies ReleaseRecord));
console.log(`released the contract on ${date}: ${changes.length} change(s) of the operations moved under that date`);

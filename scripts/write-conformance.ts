import { readFileSync, writeFileSync } from 'node:fs';
import {
  decisionPath,
  inventoryProblems,
  ourTestTitles,
  readInventory,
  renderTables,
  withTables,
} from './conformance.js';

// Rewrites decision 013's tables from the inventory, once the inventory is sound.
const rows = readInventory();
const problems = inventoryProblems(rows, ourTestTitles());
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
writeFileSync(decisionPath, withTables(readFileSync(decisionPath, 'utf8'), renderTables(rows)));
console.log(`wrote ${decisionPath} from ${rows.length} rows`);

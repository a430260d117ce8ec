// A quick run of the bulk upsert benchmark alone: `node dist/tests/bench/productImportRun.js`.
import 'reflect-metadata';
import { benchProductImport, productImportReport } from './productImport.js';
import { openBenchTarget } from './target.js';

const target = await openBenchTarget(process.env.DATABASE_URL || undefined);
try {
  const figures = await benchProductImport(target, (line) => console.log(line));
  console.log(productImportReport(figures));
  process.exitCode = figures.failures > 0 ? 1 : 0;
} finally {
  await target.close();
}

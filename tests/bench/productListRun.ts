// Only the product list bench of `npm run bench`: `npm run build --silent && node dist/tests/bench/productListRun.js`
// (DATABASE_URL for PostgreSQL; BENCH_DURATION_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS).
import 'reflect-metadata';
import { benchProductList } from './productList.js';
import { openBenchTarget } from './target.js';

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

async function main(): Promise<number> {
  const options = {
    durationSeconds: positiveInteger('BENCH_DURATION_SECONDS', 8),
    connections: positiveInteger('BENCH_CONNECTIONS', 10),
    warmUpSeconds: positiveInteger('BENCH_WARMUP_SECONDS', 5),
    rounds: positiveInteger('BENCH_ROUNDS', 2),
  };
  const target = await openBenchTarget(process.env.DATABASE_URL || undefined);
  try {
    console.log(`database: ${target.engine}`);
    const { failures } = await benchProductList(target, options, (line) => console.log(line));
    if (failures > 0) console.error(`FAILED: ${failures} request(s) failed or answered non-2xx`);
    return failures > 0 ? 1 : 0;
  } finally {
    await target.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('bench failed:', error);
    process.exitCode = 1;
  },
);

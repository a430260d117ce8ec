// `npm run bench:graphql-refusals`: how long /graphql takes to refuse each hostile document of
// decision 017, measured from a client on 127.0.0.1 against the real app (one process, SQLite in
// a temporary file; DATABASE_URL: a throw-away PostgreSQL database). Each document is sent
// WARM_UP times, then ROUNDS times one after the other; the table gives the median, the 95th
// percentile and the slowest answer, with the status, code and limit (for a cost refusal, its
// maximum and the cost) each refusal answered, and the median time of the document check alone,
// in this process (what the server spends before Apollo Server; a cost refusal adds Apollo's
// parse and validation). An ordinary query, answered, is the yardstick.
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/app.js';
import { checkDocumentShape } from '../../server/graphqlCost/documentShape.js';
import { openBenchTarget } from './target.js';

const WARM_UP = 5;
const ROUNDS = 50;

const repeat = (count: number, make: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => make(index)).join(' ');

const documents: Array<[string, string]> = [
  ['ordinary query, answered: provider with venues', '{ provider { id name venues { id siret } } }'],
  [
    "the issue's 2,000 aliases of provider { id name venues { id siret } }",
    `{ ${repeat(2000, (index) => `p${index}: provider { id name venues { id siret } }`)} }`,
  ],
  ['51 aliases of provider { id }', `{ ${repeat(51, (index) => `p${index}: provider { id }`)} }`],
  ['2,400 nested selections (lexed, never parsed)', `{ ${'provider { '.repeat(2400)}id${' }'.repeat(2400)} }`],
  [
    '11 levels of fields through fragments',
    `query { f { ...F2 } } ${repeat(9, (index) => `fragment F${index + 2} on T { f { ...F${index + 3} } }`)} fragment F11 on T { id }`,
  ],
  ['1,000 times provider { id } (validation alone took ~0.5 s)', `{ ${'provider { id } '.repeat(1000)}}`],
  [
    'fragment bomb: 2^20 spreads',
    `query { ...F0 } ${repeat(20, (index) => `fragment F${index} on Query { ...F${index + 1} ...F${index + 1} }`)} fragment F20 on Query { __typename }`,
  ],
  ['5,001 tokens of __typename', `{ ${'__typename '.repeat(4999)}}`],
  ['huge list: educationalInstitutions(limit: 100000)', '{ educationalInstitutions(limit: 100000) { id name } }'],
  [
    'nested pages: 2 x 50 events/products with price categories',
    '{ events(page: { limit: 50 }) { id priceCategories { id } } products(page: { limit: 50 }) { id priceCategories { id } } }',
  ],
];

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

async function main(): Promise<void> {
  const target = await openBenchTarget(process.env.DATABASE_URL);
  const server = createServer(createApp(target.runtime));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  const send = async (query: string) => {
    const started = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${target.apiKey}` },
      body: JSON.stringify({ query }),
    });
    const body = (await response.json()) as {
      errors?: Array<{ extensions?: { code?: string; limit?: number; maximum?: number; cost?: number } }>;
    };
    const extensions = body.errors?.[0]?.extensions;
    return {
      ms: performance.now() - started,
      status: response.status,
      code: extensions?.code,
      // The limit the refusal names: a shape limit's `limit`, a cost refusal's `maximum` and `cost`.
      limit: extensions?.limit ?? extensions?.maximum,
      cost: extensions?.cost,
    };
  };

  const rows = [['document', 'bytes', 'status', 'code', 'limit', 'cost', 'median ms', 'p95 ms', 'max ms', 'check ms']];
  try {
    for (const [label, query] of documents) {
      for (let round = 0; round < WARM_UP; round += 1) await send(query);
      const times: number[] = [];
      let last = await send(query);
      times.push(last.ms);
      for (let round = 1; round < ROUNDS; round += 1) {
        last = await send(query);
        times.push(last.ms);
      }
      times.sort((a, b) => a - b);
      const checks: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const started = performance.now();
        checkDocumentShape(query);
        checks.push(performance.now() - started);
      }
      checks.sort((a, b) => a - b);
      rows.push([
        label,
        String(Buffer.byteLength(query)),
        String(last.status),
        last.code ?? '-',
        last.limit === undefined ? '-' : String(last.limit),
        last.cost === undefined ? '-' : String(last.cost),
        percentile(times, 0.5).toFixed(2),
        percentile(times, 0.95).toFixed(2),
        times[times.length - 1].toFixed(2),
        percentile(checks, 0.5).toFixed(2),
      ]);
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await target.close();
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  console.log(
    `/graphql refusals, ${target.engine}, node ${process.version}, ${ROUNDS} rounds after ${WARM_UP} warm-up`,
  );
  for (const row of rows) {
    console.log(
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
        .join('  '),
    );
  }
}

await main();

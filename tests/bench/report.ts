import { type Figures, table } from './measure.js';

export const TARGET_RATIO = 0.7;

export interface ReportInput {
  path: string;
  engine: string;
  durationSeconds: number;
  connections: number;
  warmUpSeconds: number;
  rounds: number;
  averages: Map<string, Figures>;
}

/** The exact command, with the environment variables that change what is measured. */
function command(): string {
  const overrides = ['DATABASE_URL', 'BENCH_DURATION_SECONDS', 'BENCH_CONNECTIONS', 'BENCH_WARMUP_SECONDS']
    .filter((name) => process.env[name])
    .map((name) => `${name}=${process.env[name]} `)
    .join('');
  const invocation =
    process.env.npm_lifecycle_event === 'bench' ? 'npm run bench' : `node ${process.argv.slice(1).join(' ')}`;
  return `${overrides}${invocation}`;
}

export function report(input: ReportInput): { text: string; ratio: number } {
  const facade = input.averages.get('facade')!;
  const raw = input.averages.get('raw')!;
  const ratio = facade.requestsPerSecond / raw.requestsPerSecond;
  const text = [
    '',
    `Benchmark: facade vs raw Express 4, GET ${input.path}`,
    `engine: ${input.engine}`,
    `node: ${process.version}`,
    `command: ${command()}`,
    `load: autocannon 8 on 127.0.0.1 in a worker thread, ${input.connections} connections; warm-up ${input.warmUpSeconds} s each, ` +
      `then ${input.durationSeconds} s runs alternating facade, raw (${input.rounds} rounds); figures are the mean of the rounds ` +
      '(non-2xx, failed and requests are sums)',
    'facade: createApp(runtime), the real path: request id, log line (level silent), auth through the ORM, ' +
      'memory rate limiter (budget raised so it never refuses), zod, GraphQL execute, response schema',
    'raw: bare Express 4, one raw SQL query (key joined to provider) on the same connection, same checks; no rate limiter',
    '',
    table(input.averages),
    '',
    `ratio facade/raw req/s: ${ratio.toFixed(3)}   target: ratio >= ${TARGET_RATIO.toFixed(2)}   ${ratio >= TARGET_RATIO ? 'PASS' : 'BELOW'}`,
  ].join('\n');
  return { text, ratio };
}

import { execFileSync } from 'node:child_process';
import type { BenchResults, ReadPairResult } from './harness.js';
import type { LoadSettings } from './measure.js';
import { growthThresholdMiB, PEAK_RSS_GROWTH, RETAINED_GROWTH, type RoundMemory } from './memory.js';
import { eventDatesLegend } from './eventDates.js';

/** The report printed at the end of `npm run bench`, and the same figures as JSON (`--json <file>`). */

export interface RunInfo {
  engine: string;
  node: string;
  command: string;
  /** When the run started, ISO 8601. */
  date: string;
  /** `git describe`-like: the commit, and whether the tree had changes; null outside a git checkout. */
  commit: string | null;
  settings: LoadSettings;
  /** The benchmarks `--only` kept; null when all ran. */
  only: string[] | null;
  /** What `--instrumented` turned on; null without it (tracing and metrics off, unless METRICS_PORT is set). */
  instrumentation: string | null;
}

export interface MemoryRow {
  key: string;
  title: string;
  rounds: RoundMemory[];
  /** What the verdict compares: the retained heap when known, else the peak RSS. */
  measure: 'retained heap' | 'peak RSS';
  growthMiB: number;
  thresholdMiB: number;
  grew: boolean;
}

export interface MemoryReport {
  rule: string;
  pairs: MemoryRow[];
  grew: string[];
  /** First round of the first read to the last round of the last: includes later seeds. */
  overall: { firstRound: RoundMemory; lastRound: RoundMemory } | null;
}

export interface BenchReport {
  info: RunInfo;
  reads: ReadPairResult[];
  times: BenchResults['times'];
  limits: BenchResults['limits'];
  notes: BenchResults['notes'];
  memory: MemoryReport;
  failures: number;
  errors: BenchResults['errors'];
  /** Keys of the targets that failed (reads, times, limits, notes with a target). */
  failed: string[];
}

/** The exact command, with the environment variables that change what is measured. */
export function command(argv: string[]): string {
  const overrides = [
    'DATABASE_URL',
    'BENCH_DURATION_SECONDS',
    'BENCH_CONNECTIONS',
    'BENCH_WARMUP_SECONDS',
    'BENCH_ROUNDS',
    'METRICS_PORT',
  ]
    .filter((name) => process.env[name])
    .map((name) => `${name}=${process.env[name]} `)
    .join('');
  const args = argv.length > 0 ? ` ${argv.join(' ')}` : '';
  const invocation =
    process.env.npm_lifecycle_event === 'bench'
      ? `npm run bench${args ? ` --${args}` : ''}`
      : `node ${process.argv[1]}${args}`;
  return `${overrides}${invocation}`;
}

/** The checked-out commit, `+` when the tree has uncommitted changes; null without git. */
export function gitCommit(): string | null {
  try {
    const run = (...args: string[]) =>
      execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = run('rev-parse', '--short=12', 'HEAD');
    return run('status', '--porcelain', '--untracked-files=no') === '' ? commit : `${commit}+`;
  } catch {
    return null;
  }
}

function memoryOf(reads: ReadPairResult[]): MemoryReport {
  const retainedKnown = reads.every((read) => read.memory.every((round) => round.retainedHeapMiB !== null));
  const rule = retainedKnown ? RETAINED_GROWTH : PEAK_RSS_GROWTH;
  const figure = (round: RoundMemory) => (retainedKnown ? round.retainedHeapMiB! : round.peakRssMiB);
  const pairs = reads.map((read): MemoryRow => {
    const first = figure(read.memory[0]);
    const growth = figure(read.memory[read.memory.length - 1]) - first;
    const threshold = growthThresholdMiB(rule, first);
    return {
      key: read.key,
      title: read.title,
      rounds: read.memory,
      measure: retainedKnown ? 'retained heap' : 'peak RSS',
      growthMiB: growth,
      thresholdMiB: threshold,
      grew: growth > threshold,
    };
  });
  return {
    rule:
      `a read grew when its ${retainedKnown ? 'heap retained after a full collection' : 'peak RSS'} at the end of its ` +
      `last round exceeds its first round's by more than max(${rule.mib} MiB, ${rule.share * 100} % of the first)` +
      (retainedKnown ? '' : ' (run node with --expose-gc to compare the retained heap instead)'),
    pairs,
    grew: pairs.filter((pair) => pair.grew).map((pair) => pair.key),
    overall:
      reads.length === 0 ? null : { firstRound: reads[0].memory[0], lastRound: reads[reads.length - 1].memory.at(-1)! },
  };
}

export function buildReport(info: RunInfo, results: BenchResults): BenchReport {
  const failed = [
    ...results.reads.filter((read) => !read.pass).map((read) => read.key),
    ...results.times.filter((time) => !time.pass).map((time) => time.key),
    ...results.limits.filter((limit) => !limit.pass).map((limit) => limit.key),
    ...results.notes.filter((note) => note.verdict && !note.verdict.pass).map((note) => note.key),
  ];
  return {
    info,
    reads: results.reads,
    times: results.times,
    limits: results.limits,
    notes: results.notes,
    memory: memoryOf(results.reads),
    failures: results.failures,
    errors: results.errors,
    failed,
  };
}

/** Columns padded to their widest cell: the first left-aligned, the others right-aligned. */
function columns(rows: string[][]): string[] {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd(),
  );
}

const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');
const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(0)}`;
const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

export function reportText(report: BenchReport): string {
  const { info } = report;
  const lines = [
    '',
    '=== Benchmark report: the facade against hand-written handlers, same process, same database connection ===',
    `engine: ${info.engine}`,
    `node: ${info.node}`,
    `command: ${info.command}`,
    `commit: ${info.commit ?? 'unknown'}   date: ${info.date}${info.only ? `   only: ${info.only.join(', ')}` : ''}`,
    info.instrumentation ?? 'instrumented: no (tracing off; metrics on only with METRICS_PORT)',
    `load: autocannon 8 on 127.0.0.1 in a worker thread, ${info.settings.connections} connections; warm-up ` +
      `${info.settings.warmUpSeconds} s per contender, then ${info.settings.durationSeconds} s runs alternating facade, raw, facade not recording ` +
      `(${info.settings.rounds} rounds); req/s and latencies are the means of the rounds`,
    'facade: one createApp(runtime) for the whole run, the real path: request id, log line (level silent), the key, ' +
      'memory rate limiter (budget raised so that it never refuses), zod on the input, the GraphQL document, the answer',
    'raw: bare Express 4 per pair, SQL by hand on the same connection: the key with the same checks, then the least ' +
      'queries; the same JSON, byte for byte (checked before any load, with the 401s to no key and a wrong key)',
  ];

  if (report.reads.length > 0) {
    lines.push(
      '',
      ...columns([
        ['read', 'facade req/s', 'p50 ms', 'p99 ms', 'raw req/s', 'p50 ms', 'p99 ms', 'ratio', 'target', ''],
        ...report.reads.map((read) => [
          read.title,
          read.facade.requestsPerSecond.toFixed(0),
          fixed(read.facade.p50Ms),
          fixed(read.facade.p99Ms),
          read.raw.requestsPerSecond.toFixed(0),
          fixed(read.raw.p50Ms),
          fixed(read.raw.p99Ms),
          read.ratio.toFixed(3),
          `>= ${read.target.toFixed(2)}`,
          verdict(read.pass),
        ]),
      ]),
      '',
      'what recording costs: the facade (every request made with a key, so recorded) against the same facade without ' +
        'the request log, createApp(runtime, { recordRequests: false }), in the same alternation; main thread per ' +
        "request: its event loop busy (running, or blocked in a synchronous call) and its CPU, the request log's " +
        'last writes of each run included',
      ...columns([
        [
          'read',
          'recording req/s',
          'not recording',
          'kept',
          'loop µs/req',
          'not recording',
          'added',
          'CPU µs/req',
          'not recording',
          'added',
          'raw loop µs/req',
        ],
        ...report.reads.map((read) => {
          const cpu = (figures: typeof read.facade) => figures.mainCpuUsPerRequest;
          const cpuAdded =
            cpu(read.facade) === null || cpu(read.unrecorded) === null
              ? null
              : cpu(read.facade)! - cpu(read.unrecorded)!;
          return [
            read.title,
            read.facade.requestsPerSecond.toFixed(0),
            read.unrecorded.requestsPerSecond.toFixed(0),
            read.recordingRatio.toFixed(3),
            read.facade.loopBusyUsPerRequest.toFixed(0),
            read.unrecorded.loopBusyUsPerRequest.toFixed(0),
            signed(read.facade.loopBusyUsPerRequest - read.unrecorded.loopBusyUsPerRequest),
            cpu(read.facade) === null ? '-' : cpu(read.facade)!.toFixed(0),
            cpu(read.unrecorded) === null ? '-' : cpu(read.unrecorded)!.toFixed(0),
            cpuAdded === null ? '-' : signed(cpuAdded),
            read.raw.loopBusyUsPerRequest.toFixed(0),
          ];
        }),
      ]),
    );
  }

  if (report.times.length > 0 || report.limits.length > 0) {
    lines.push(
      '',
      ...columns([
        ['write', 'facade ms', 'raw ms', 'ratio', 'target', ''],
        ...report.times.map((time) => [
          time.title,
          time.facadeMs.toFixed(0),
          time.rawMs.toFixed(0),
          `${time.ratio.toFixed(2)}x`,
          `<= ${time.target.toFixed(1)}x`,
          verdict(time.pass),
        ]),
        ...report.limits.map((limit) => [
          limit.title,
          fixed(limit.ms, 0),
          '',
          '',
          `< ${limit.targetMs} ms`,
          verdict(limit.pass),
        ]),
      ]),
    );
    for (const limit of report.limits) lines.push(`${limit.key}: ${limit.detail}`);
    if (report.times.some((time) => time.key === 'dates')) lines.push(eventDatesLegend);
  }

  if (report.notes.length > 0) {
    lines.push('', 'also measured:');
    for (const note of report.notes) {
      const target = note.verdict ? `; target ${note.verdict.target}: ${verdict(note.verdict.pass)}` : '';
      lines.push(`- ${note.title}: ${note.text}${target}`);
    }
  }

  const { memory } = report;
  if (memory.pairs.length > 0) {
    const rounds = Math.max(...memory.pairs.map((pair) => pair.rounds.length));
    const retained = memory.pairs[0].measure === 'retained heap';
    const roundNumbers = Array.from({ length: rounds }, (_, round) => round + 1);
    const { overall } = memory;
    lines.push(
      '',
      'memory (MiB): RSS rN, the peak RSS of round N, sampled every 100 ms' +
        (retained ? '; heap rN, the heap still used after a full collection at the end of round N' : ''),
      ...columns([
        [
          'read',
          ...roundNumbers.map((round) => `RSS r${round}`),
          ...(retained ? roundNumbers.map((round) => `heap r${round}`) : []),
          'growth',
          'noise',
          '',
        ],
        ...memory.pairs.map((pair) => [
          pair.title,
          ...pair.rounds.map((round) => round.peakRssMiB.toFixed(0)),
          ...(retained ? pair.rounds.map((round) => fixed(round.retainedHeapMiB!)) : []),
          `${pair.growthMiB >= 0 ? '+' : ''}${pair.growthMiB.toFixed(1)}`,
          pair.thresholdMiB.toFixed(1),
          pair.grew ? 'GREW' : 'steady',
        ]),
      ]),
      overall
        ? `first round of the first read to the last round of the last: peak RSS ${overall.firstRound.peakRssMiB.toFixed(0)} -> ` +
            `${overall.lastRound.peakRssMiB.toFixed(0)}` +
            (retained
              ? `, retained ${fixed(overall.firstRound.retainedHeapMiB!)} -> ${fixed(overall.lastRound.retainedHeapMiB!)}`
              : '') +
            ' (includes the data the benchmarks between them seeded)'
        : '',
      `${memory.rule}: ${memory.grew.length === 0 ? 'no read grew' : `GREW: ${memory.grew.join(', ')}`}`,
    );
  }

  lines.push(
    '',
    'paths:',
    ...report.reads.map((read) => `  ${read.key}: GET ${read.path} (${read.answerBytes} bytes)`),
  );
  const targets =
    report.reads.length +
    report.times.length +
    report.limits.length +
    report.notes.filter((note) => note.verdict).length;
  lines.push(
    '',
    `targets: ${targets - report.failed.length} of ${targets} PASS` +
      (report.failed.length > 0 ? `; FAIL: ${report.failed.join(', ')}` : ''),
    ...report.errors.map((error) => `ERROR in ${error.key}: ${error.message}`),
    report.failures > 0
      ? `FAILED: ${report.failures} request(s) failed, answered non-2xx, or stored the wrong rows`
      : 'every request answered 2xx; every write stored what it should',
  );
  return lines.join('\n');
}

// `npm run bench:compare -- before.json after.json`: two JSON reports of `npm run bench -- --json
// <file>` side by side, pair by pair: the ratios, the facade's and the raw side's req/s and how
// much each moved. The raw side is the machine's yardstick: when it moved as much as the facade,
// the machine changed, not the code.
import { readFileSync } from 'node:fs';
import type { BenchReport } from './report.js';

function readReport(file: string): BenchReport {
  return JSON.parse(readFileSync(file, 'utf8')) as BenchReport;
}

const change = (before: number, after: number) =>
  Number.isFinite(before) && before !== 0
    ? `${after >= before ? '+' : ''}${((after / before - 1) * 100).toFixed(0)} %`
    : '-';

function columns(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
        .join('  '),
    )
    .join('\n');
}

function describe(label: string, report: BenchReport): string {
  const { info } = report;
  const { settings } = info;
  return (
    `${label}: ${info.date}, commit ${info.commit ?? 'unknown'}, ${info.engine.split(',')[0]}, node ${info.node}, ` +
    `${settings.connections} connections, ${settings.durationSeconds} s x ${settings.rounds} rounds`
  );
}

function main(argv: string[]): number {
  if (argv.length !== 2) {
    console.error('usage: node dist-tools/tests/bench/compare.js <before.json> <after.json>');
    return 2;
  }
  const [before, after] = argv.map(readReport);
  const lines = [describe('A', before), describe('B', after)];
  if (before.info.engine.split(',')[0] !== after.info.engine.split(',')[0])
    lines.push('warning: the two runs used different engines');

  const keys = [...new Set([...before.reads, ...after.reads].map((read) => read.key))];
  const rows = [['read', 'ratio A', 'ratio B', 'target', 'facade A', 'facade B', 'change', 'raw A', 'raw B', 'change']];
  for (const key of keys) {
    const a = before.reads.find((read) => read.key === key);
    const b = after.reads.find((read) => read.key === key);
    const ratio = (read?: BenchReport['reads'][number]) =>
      read ? `${read.ratio.toFixed(3)} ${read.pass ? 'PASS' : 'FAIL'}` : '-';
    const rps = (figures?: { requestsPerSecond: number }) => (figures ? figures.requestsPerSecond.toFixed(0) : '-');
    rows.push([
      (b ?? a)!.title,
      ratio(a),
      ratio(b),
      `>= ${(b ?? a)!.target.toFixed(2)}`,
      rps(a?.facade),
      rps(b?.facade),
      a && b ? change(a.facade.requestsPerSecond, b.facade.requestsPerSecond) : '-',
      rps(a?.raw),
      rps(b?.raw),
      a && b ? change(a.raw.requestsPerSecond, b.raw.requestsPerSecond) : '-',
    ]);
  }
  lines.push('', columns(rows));

  const timeKeys = [...new Set([...before.times, ...after.times].map((time) => time.key))];
  if (timeKeys.length > 0) {
    const timeRows = [['write', 'ratio A', 'ratio B', 'target', 'facade A ms', 'facade B ms', 'raw A ms', 'raw B ms']];
    for (const key of timeKeys) {
      const a = before.times.find((time) => time.key === key);
      const b = after.times.find((time) => time.key === key);
      const ms = (value?: number) => (value === undefined ? '-' : value.toFixed(0));
      timeRows.push([
        (b ?? a)!.title,
        a ? `${a.ratio.toFixed(2)}x` : '-',
        b ? `${b.ratio.toFixed(2)}x` : '-',
        `<= ${(b ?? a)!.target.toFixed(1)}x`,
        ms(a?.facadeMs),
        ms(b?.facadeMs),
        ms(a?.rawMs),
        ms(b?.rawMs),
      ]);
    }
    lines.push('', columns(timeRows));
  }
  for (const key of [...new Set([...before.limits, ...after.limits].map((limit) => limit.key))]) {
    const a = before.limits.find((limit) => limit.key === key);
    const b = after.limits.find((limit) => limit.key === key);
    lines.push(
      `${(b ?? a)!.title}: A ${a ? a.ms.toFixed(0) : '-'} ms, B ${b ? b.ms.toFixed(0) : '-'} ms (target < ${(b ?? a)!.targetMs} ms)`,
    );
  }
  lines.push(
    '',
    `targets failed: A ${before.failed.join(', ') || 'none'}; B ${after.failed.join(', ') || 'none'}`,
    `memory grew: A ${before.memory.grew.join(', ') || 'no'}; B ${after.memory.grew.join(', ') || 'no'}`,
  );
  console.log(lines.join('\n'));
  return 0;
}

process.exitCode = main(process.argv.slice(2));

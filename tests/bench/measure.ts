import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { memoryDuring, type RoundMemory } from './memory.js';

export interface LoadOptions {
  durationSeconds: number;
  connections: number;
  headers: Record<string, string>;
}

export interface Figures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** Socket errors, timeouts and resets: any of them makes the run a failure. */
  failed: number;
  total: number;
  /**
   * The servers' event loop (this process's main thread) per request answered: busy time (running
   * or blocked in a synchronous call, such as SQLite's), and CPU time (null where /proc does not
   * say). Less moved by other processes on the machine than req/s: their CPU is not counted here.
   */
  loopBusyUsPerRequest: number;
  mainCpuUsPerRequest: number | null;
}

/** The main thread's CPU time in ms from /proc (user + system ticks of the thread whose id is the process's), or null. */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Linux's USER_HZ, the unit of /proc's CPU times, 100 on every architecture it runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * One autocannon run; the load generator runs in a worker thread, off the servers' event loop.
 * `settle` runs after the load and counts in its main-thread time: the work a server left
 * behind (the request log's last writes) is charged to it, not to the next contender.
 */
export async function load(url: string, options: LoadOptions, settle?: () => Promise<void>): Promise<Figures> {
  const loopBefore = performance.eventLoopUtilization();
  const cpuBefore = mainThreadCpuMs();
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    workers: 1,
    headers: options.headers,
  });
  await settle?.();
  const loop = performance.eventLoopUtilization(loopBefore);
  const cpuAfter = mainThreadCpuMs();
  const answered = Math.max(1, result['2xx'] + result.non2xx);
  return {
    loopBusyUsPerRequest: (loop.active * 1000) / answered,
    mainCpuUsPerRequest: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / answered,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    failed: result.errors + result.timeouts + result.resets,
    total: result['2xx'] + result.non2xx,
  };
}

export interface Contender {
  label: string;
  url: string;
  /** What the server left to do after the load, awaited before the next contender's run (load). */
  settle?: () => Promise<void>;
}

export interface LoadSettings {
  durationSeconds: number;
  connections: number;
  warmUpSeconds: number;
  rounds: number;
}

export interface Comparison {
  averages: Map<string, Figures>;
  rounds: { label: string; figures: Figures }[];
  /** The process's memory in each round (every contender's run of that round). */
  memory: RoundMemory[];
}

function formatFigures(figures: Figures): string {
  const cpu = figures.mainCpuUsPerRequest === null ? '' : ` cpu ${figures.mainCpuUsPerRequest.toFixed(0)} µs`;
  return (
    `${figures.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${figures.p50Ms} ms  p99 ${figures.p99Ms} ms` +
    `  non-2xx ${figures.non2xx}  failed ${figures.failed}  loop/req ${figures.loopBusyUsPerRequest.toFixed(0)} µs${cpu}`
  );
}

/**
 * Warms each contender up, then alternates measured runs (A, B, A, B, ...) so that noise from
 * the machine falls on both, and averages each contender's rounds; measures the process's
 * memory in each round.
 */
export async function compare(
  contenders: Contender[],
  options: LoadSettings & { headers: Record<string, string> },
  progress: (line: string) => void,
): Promise<Comparison> {
  for (const contender of contenders) {
    progress(`warm-up ${contender.label} (${options.warmUpSeconds} s)`);
    await load(contender.url, { ...options, durationSeconds: options.warmUpSeconds }, contender.settle);
  }
  const rounds: Comparison['rounds'] = [];
  const memory: RoundMemory[] = [];
  const width = Math.max(...contenders.map((contender) => contender.label.length));
  for (let round = 1; round <= options.rounds; round += 1) {
    const { memory: used } = await memoryDuring(async () => {
      for (const contender of contenders) {
        const figures = await load(contender.url, options, contender.settle);
        progress(`round ${round} ${contender.label.padEnd(width)} ${formatFigures(figures)}`);
        rounds.push({ label: contender.label, figures });
      }
    });
    const retained = used.retainedHeapMiB === null ? '' : `, heap retained ${used.retainedHeapMiB.toFixed(1)} MiB`;
    progress(`round ${round} peak RSS ${used.peakRssMiB.toFixed(0)} MiB${retained}`);
    memory.push(used);
  }
  const averages = new Map<string, Figures>();
  for (const contender of contenders) {
    const mine = rounds.filter((entry) => entry.label === contender.label).map((entry) => entry.figures);
    const sum = (pick: (figures: Figures) => number) => mine.reduce((total, figures) => total + pick(figures), 0);
    const mean = (pick: (figures: Figures) => number) => sum(pick) / mine.length;
    averages.set(contender.label, {
      requestsPerSecond: mean((figures) => figures.requestsPerSecond),
      p50Ms: mean((figures) => figures.p50Ms),
      p99Ms: mean((figures) => figures.p99Ms),
      non2xx: sum((figures) => figures.non2xx),
      failed: sum((figures) => figures.failed),
      total: sum((figures) => figures.total),
      loopBusyUsPerRequest: mean((figures) => figures.loopBusyUsPerRequest),
      mainCpuUsPerRequest: mine.every((figures) => figures.mainCpuUsPerRequest !== null)
        ? mean((figures) => figures.mainCpuUsPerRequest!)
        : null,
    });
  }
  return { averages, rounds, memory };
}

/** Requests that answered non-2xx or failed at the socket: any of them fails the bench. */
export function failuresOf(figures: Iterable<Figures>): number {
  let failures = 0;
  for (const entry of figures) failures += entry.non2xx + entry.failed;
  return failures;
}

/** The middle value (of an odd count; the upper middle of an even one). */
export function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

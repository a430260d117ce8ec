/** The process's memory while the read benchmarks load the servers. */

const SAMPLE_EVERY_MS = 100;
const MIB = 1024 * 1024;

/**
 * When a read's memory grew from its first round to its last. With `node --expose-gc` (as
 * `npm run bench` runs), the figure compared is the heap still in use after a full collection at
 * the end of each round: what the process retains, which a leak makes grow and nothing else
 * should (it moves by tenths of a MiB from round to round); beyond max(4 MiB, 5 %) it grew.
 * Without the flag only the peak RSS is known, and it moves by a hundred MiB with when the
 * collector last ran and what V8 kept committed: beyond max(32 MiB, 10 %).
 */
export const RETAINED_GROWTH = { mib: 4, share: 0.05 } as const;
export const PEAK_RSS_GROWTH = { mib: 32, share: 0.1 } as const;

export function growthThresholdMiB(rule: { mib: number; share: number }, firstMiB: number): number {
  return Math.max(rule.mib, firstMiB * rule.share);
}

const collect = (globalThis as { gc?: () => void }).gc;

/** Whether the process can run a full collection on demand (`node --expose-gc`). */
export const canCollectGarbage = typeof collect === 'function';

export interface RoundMemory {
  /** The highest RSS sampled during the round, MiB. */
  peakRssMiB: number;
  /** Heap in use after a full collection at the end of the round, MiB; null without --expose-gc. */
  retainedHeapMiB: number | null;
}

/**
 * Runs `work` between two full collections (when the process allows them), sampling
 * `process.memoryUsage.rss()` every 100 ms and at both ends. The timer runs on the servers'
 * event loop: under load a sample may come late, never much later than a request's latency.
 */
export async function memoryDuring<T>(work: () => Promise<T>): Promise<{ result: T; memory: RoundMemory }> {
  collect?.();
  let peak = process.memoryUsage.rss();
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  try {
    const result = await work();
    sample();
    collect?.();
    return {
      result,
      memory: { peakRssMiB: peak / MIB, retainedHeapMiB: collect ? process.memoryUsage().heapUsed / MIB : null },
    };
  } finally {
    clearInterval(timer);
  }
}

/** The process's resident memory, sampled while the read benchmarks load the servers. */

const SAMPLE_EVERY_MS = 100;
const MIB = 1024 * 1024;

/**
 * Growth from a pair's first round to its last beyond which the report says it grew: the larger
 * of 32 MiB and 10 % of the first round's peak. Below that, a peak moves with when the garbage
 * collector last ran (V8's young generation alone is tens of MiB under this load).
 */
export const RSS_GROWTH_NOISE_MIB = 32;
export const RSS_GROWTH_NOISE_SHARE = 0.1;

export function rssGrowthThresholdMiB(firstPeakMiB: number): number {
  return Math.max(RSS_GROWTH_NOISE_MIB, firstPeakMiB * RSS_GROWTH_NOISE_SHARE);
}

/**
 * The peak RSS (MiB) while `work` runs, from `process.memoryUsage.rss()` every 100 ms (and at
 * both ends). The timer runs on the servers' event loop: under load a sample may come late, never
 * much later than a request's latency.
 */
export async function peakRssDuring<T>(work: () => Promise<T>): Promise<{ result: T; peakRssMiB: number }> {
  let peak = process.memoryUsage.rss();
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  try {
    const result = await work();
    sample();
    return { result, peakRssMiB: peak / MIB };
  } finally {
    clearInterval(timer);
  }
}

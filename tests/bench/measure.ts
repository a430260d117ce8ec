import autocannon from 'autocannon';

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
}

/** One autocannon run; the load generator runs in a worker thread, off the servers' event loop. */
export async function load(url: string, options: LoadOptions): Promise<Figures> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    workers: 1,
    headers: options.headers,
  });
  return {
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
}

export interface Comparison {
  averages: Map<string, Figures>;
  rounds: { label: string; figures: Figures }[];
}

/**
 * Warms each contender up, then alternates measured runs (A, B, A, B, ...) so that noise from
 * the machine falls on both, and averages each contender's rounds.
 */
export async function compare(
  contenders: Contender[],
  options: LoadOptions & { warmUpSeconds: number; rounds: number },
  progress: (line: string) => void,
): Promise<Comparison> {
  for (const contender of contenders) {
    progress(`warm-up ${contender.label} (${options.warmUpSeconds} s)`);
    await load(contender.url, { ...options, durationSeconds: options.warmUpSeconds });
  }
  const rounds: Comparison['rounds'] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    for (const contender of contenders) {
      const figures = await load(contender.url, options);
      progress(
        `round ${round} ${contender.label.padEnd(6)} ${figures.requestsPerSecond.toFixed(0).padStart(7)} req/s` +
          `  p50 ${figures.p50Ms} ms  p99 ${figures.p99Ms} ms  non-2xx ${figures.non2xx}  failed ${figures.failed}`,
      );
      rounds.push({ label: contender.label, figures });
    }
  }
  const averages = new Map<string, Figures>();
  for (const contender of contenders) {
    const mine = rounds.filter((entry) => entry.label === contender.label).map((entry) => entry.figures);
    const mean = (pick: (figures: Figures) => number) =>
      mine.reduce((sum, figures) => sum + pick(figures), 0) / mine.length;
    const sum = (pick: (figures: Figures) => number) => mine.reduce((total, figures) => total + pick(figures), 0);
    averages.set(contender.label, {
      requestsPerSecond: mean((figures) => figures.requestsPerSecond),
      p50Ms: mean((figures) => figures.p50Ms),
      p99Ms: mean((figures) => figures.p99Ms),
      non2xx: sum((figures) => figures.non2xx),
      failed: sum((figures) => figures.failed),
      total: sum((figures) => figures.total),
    });
  }
  return { averages, rounds };
}

export function table(averages: Map<string, Figures>): string {
  const header = ['', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'failed', 'requests'];
  const rows = [...averages].map(([label, figures]) => [
    label,
    figures.requestsPerSecond.toFixed(0),
    figures.p50Ms.toFixed(1),
    figures.p99Ms.toFixed(1),
    String(figures.non2xx),
    String(figures.failed),
    String(figures.total),
  ]);
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column].length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
        .join('  '),
    )
    .join('\n');
}

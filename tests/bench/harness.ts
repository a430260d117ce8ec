import type { Express } from 'express';
import { compare, type Comparison, type Figures, failuresOf, type LoadSettings } from './measure.js';
import type { RoundMemory } from './memory.js';
import { listen, verifySameAnswers } from './servers.js';
import type { BenchTarget } from './target.js';
import { HOP_P50_ADDED_MS_TARGET, HOP_RATIO_TARGET } from './targets.js';

/** What every benchmark of `npm run bench` is given and what it records for the report. */

export interface ReadPairResult {
  key: string;
  title: string;
  path: string;
  /** The least facade/raw req/s ratio that passes. */
  target: number;
  facade: Figures;
  raw: Figures;
  ratio: number;
  pass: boolean;
  /** The same facade without the request log (`createApp(runtime, { recordRequests: false })`), measured alongside. */
  unrecorded: Figures;
  /** facade req/s / the same without recording: what recording costs this read. */
  recordingRatio: number;
  /** Size of the 200 answer both sides gave, byte for byte the same. */
  answerBytes: number;
  /** The process's memory in each round. */
  memory: RoundMemory[];
}

/** A write timed through the facade against the same rows written by hand. */
export interface TimePairResult {
  key: string;
  title: string;
  facadeMs: number;
  rawMs: number;
  /** facade time / raw time. */
  ratio: number;
  /** The most facade/raw time ratio that passes. */
  target: number;
  pass: boolean;
  runs: { facadeMs: number; rawMs: number }[];
}

/** A figure against an absolute target of its own (the product import). */
export interface LimitResult {
  key: string;
  title: string;
  ms: number;
  targetMs: number;
  pass: boolean;
  detail: string;
}

/** A figure the report shows under the table, with its target when it has one. */
export interface NoteResult {
  key: string;
  title: string;
  text: string;
  figures: Record<string, number>;
  verdict?: { target: string; pass: boolean };
}

export class BenchResults {
  reads: ReadPairResult[] = [];
  times: TimePairResult[] = [];
  limits: LimitResult[] = [];
  notes: NoteResult[] = [];
  /** Requests answered non-2xx or failed at the socket, and writes that did not store what they should. */
  failures = 0;
  /** Benchmarks that stopped: answers that differ, a seed that failed. */
  errors: { key: string; message: string }[] = [];
}

export interface BenchContext {
  target: BenchTarget;
  /** One facade, createApp(runtime), for the whole run: as a server process serves every route. */
  facadeOrigin: string;
  /**
   * The same facade in the other topology: an API process whose subgraphs are services on
   * 127.0.0.1 (in this process, so that their work counts in the same CPU), for the hop's cost.
   */
  remoteOrigin: string;
  /** The same facade as `facadeOrigin` without the request log: what recording costs, measured in every read. */
  unrecordedOrigin: string;
  /**
   * Writes what the facade's (or the remote API process's) request log still holds: awaited after
   * each of its runs, so that its writes are measured with it rather than in the next contender's run.
   */
  settleFacade: () => Promise<void>;
  settleRemote: () => Promise<void>;
  settings: LoadSettings;
  headers: Record<string, string>;
  results: BenchResults;
  log: (line: string) => void;
}

export interface Bench {
  /** Its name for `--only` and in the JSON report. */
  key: string;
  run(context: BenchContext): Promise<void>;
}

export interface ReadPairSpec {
  key: string;
  title: string;
  /** The same path on both sides. */
  path: string;
  target: number;
  /** The hand-written baseline: bare Express serving `path`. */
  raw: Express;
  /**
   * More paths through the facade, measured in the same alternation (labels must differ from facade
   * and raw); `origin` another server than the facade, `sameAnswer` when it must answer the same bytes.
   */
  facadeExtras?: { label: string; path: string; origin?: string; sameAnswer?: boolean }[];
  /** Checks the verified answer shows what the seed put there; throws otherwise, or says what it shows. */
  check?(body: string): string;
}

/** The main thread's busy time per request, and its CPU time when known. */
export function loopOf(figures: Figures): string {
  const cpu = figures.mainCpuUsPerRequest === null ? '' : ` (CPU ${figures.mainCpuUsPerRequest.toFixed(0)} µs)`;
  return `${figures.loopBusyUsPerRequest.toFixed(0)} µs${cpu}`;
}

/** The label of the facade without the request log, measured in every read pair. */
export const NOT_RECORDING = 'facade, not recording';

/**
 * One read through the facade against its baseline by hand: both must answer the same bytes
 * (and the same 401s) before any load; then the alternating rounds, recorded for the report.
 * The same facade without the request log runs in the same alternation, for what recording costs.
 */
export async function measureReadPair(
  context: BenchContext,
  spec: ReadPairSpec,
): Promise<{ result: ReadPairResult; comparison: Comparison }> {
  const raw = await listen(spec.raw);
  try {
    const contenders = [
      { label: 'facade', url: `${context.facadeOrigin}${spec.path}`, settle: context.settleFacade },
      { label: 'raw', url: `${raw.origin}${spec.path}` },
    ];
    const extras = [
      { label: NOT_RECORDING, path: spec.path, origin: context.unrecordedOrigin, sameAnswer: true },
      ...(spec.facadeExtras ?? []),
    ].map((extra) => ({
      label: extra.label,
      url: `${extra.origin ?? context.facadeOrigin}${extra.path}`,
      sameAnswer: extra.sameAnswer === true,
      settle: settleOf(context, extra.origin),
    }));
    const body = await verifySameAnswers(
      [...contenders, ...extras.filter((extra) => extra.sameAnswer)],
      context.target.apiKey,
    );
    const shows = spec.check ? `; ${spec.check(body)}` : '';
    context.log(
      `GET ${spec.path}: facade and raw answer 200 with the same ${Buffer.byteLength(body)} bytes, and the same 401s${shows}`,
    );
    const comparison = await compare(
      [...contenders, ...extras.map(({ label, url, settle }) => ({ label, url, settle }))],
      { ...context.settings, headers: context.headers },
      (line) => context.log(line),
    );
    const facade = comparison.averages.get('facade')!;
    const rawFigures = comparison.averages.get('raw')!;
    const unrecorded = comparison.averages.get(NOT_RECORDING)!;
    const ratio = facade.requestsPerSecond / rawFigures.requestsPerSecond;
    const recordingRatio = facade.requestsPerSecond / unrecorded.requestsPerSecond;
    const result: ReadPairResult = {
      key: spec.key,
      title: spec.title,
      path: spec.path,
      target: spec.target,
      facade,
      raw: rawFigures,
      ratio,
      pass: ratio >= spec.target,
      unrecorded,
      recordingRatio,
      answerBytes: Buffer.byteLength(body),
      memory: comparison.memory,
    };
    context.results.reads.push(result);
    context.results.failures += failuresOf(comparison.averages.values());
    context.log(
      `${spec.title}: facade ${facade.requestsPerSecond.toFixed(0)} req/s, raw ${rawFigures.requestsPerSecond.toFixed(0)} req/s, ` +
        `ratio ${ratio.toFixed(3)} (target >= ${spec.target.toFixed(2)}: ${result.pass ? 'PASS' : 'FAIL'}); ` +
        `not recording ${unrecorded.requestsPerSecond.toFixed(0)} req/s, recording keeps ${recordingRatio.toFixed(3)} of it; ` +
        `event loop per request: facade ${loopOf(facade)}, not recording ${loopOf(unrecorded)}, raw ${loopOf(rawFigures)}`,
    );
    return { result, comparison };
  } finally {
    await raw.close();
  }
}

/** What a run on this origin leaves to write: the facade's or the remote API process's request log, none without recording. */
function settleOf(context: BenchContext, origin: string | undefined): (() => Promise<void>) | undefined {
  if (origin === undefined || origin === context.facadeOrigin) return context.settleFacade;
  if (origin === context.remoteOrigin) return context.settleRemote;
  return undefined;
}

/** The label of the remote topology's contender in a pair that measures the hop. */
export const THROUGH_SERVICE = 'through its service';

/** The same path through the API process whose subgraph is a service: same bytes, measured alongside. */
export function throughItsService(context: BenchContext, path: string): NonNullable<ReadPairSpec['facadeExtras']> {
  return [{ label: THROUGH_SERVICE, path, origin: context.remoteOrigin, sameAnswer: true }];
}

/**
 * What the hop to a subgraph service costs a read: req/s and p50 in process and through the
 * service, in the same alternation, against issue 41's targets (HOP_RATIO_TARGET, HOP_P50_ADDED_MS_TARGET).
 */
export function noteHopCost(context: BenchContext, key: string, title: string, comparison: Comparison): void {
  const local = comparison.averages.get('facade')!;
  const remote = comparison.averages.get(THROUGH_SERVICE)!;
  const ratio = remote.requestsPerSecond / local.requestsPerSecond;
  const addedMs = remote.p50Ms - local.p50Ms;
  const target = `ratio >= ${HOP_RATIO_TARGET}, p50 <= +${HOP_P50_ADDED_MS_TARGET} ms`;
  const pass = ratio >= HOP_RATIO_TARGET && addedMs <= HOP_P50_ADDED_MS_TARGET;
  context.results.failures += failuresOf([remote]);
  context.results.notes.push({
    key: `${key}-hop`,
    title: `${title}: in process vs through its subgraph service`,
    text:
      `in process ${local.requestsPerSecond.toFixed(0)} req/s p50 ${local.p50Ms} ms p99 ${local.p99Ms} ms; ` +
      `through the service ${remote.requestsPerSecond.toFixed(0)} req/s p50 ${remote.p50Ms} ms p99 ${remote.p99Ms} ms; ` +
      `ratio ${ratio.toFixed(3)}, p50 ${addedMs >= 0 ? '+' : ''}${addedMs.toFixed(1)} ms`,
    verdict: { target, pass },
    figures: {
      localRps: local.requestsPerSecond,
      remoteRps: remote.requestsPerSecond,
      ratio,
      localP50Ms: local.p50Ms,
      remoteP50Ms: remote.p50Ms,
    },
  });
}

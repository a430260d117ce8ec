import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type PageStep,
  type RunnableSample,
  type SampleLanguage,
  valueAtPath,
} from '../../../app/docs/samples.server.js';
import { runSample, type SampleOutcome } from './sampleRunner.js';
import { answerDifferences } from './shownAnswers.js';

export interface PageRunContext {
  /** The page's file, to name it in a report. */
  file: string;
  apiKey: string;
  directory: string;
  runDueJobs(): Promise<void>;
}

export interface PageRun {
  /** Samples run, each in the pass's language or, when its group has no such tab, as curl. */
  executed: { sample: RunnableSample; language: SampleLanguage }[];
  /** The first failure: the page's later samples depend on its answer, so the pass stops there. */
  failure: string | null;
}

const BODY_SHOWN = 2_000;

function describeFailure(
  file: string,
  sample: RunnableSample,
  language: SampleLanguage,
  outcome: SampleOutcome,
  problem: string,
): string {
  return [
    `${file}:${sample.line} (${language}) ${sample.firstLine}`,
    `  ${problem}`,
    `  expected status ${sample.status}, got ${outcome.status ?? 'no answer'}`,
    `  body: ${outcome.body.slice(0, BODY_SHOWN) || '(empty)'}`,
    ...(outcome.stderr.trim() ? [`  stderr: ${outcome.stderr.trim().slice(0, BODY_SHOWN)}`] : []),
  ].join('\n');
}

/** Why a sample's outcome is not what the page says (its status, then the answer it shows), or null. */
function problemWith(sample: RunnableSample, language: SampleLanguage, outcome: SampleOutcome): string | null {
  if (outcome.status !== sample.status) return 'the status is not the one the page says';
  if (language !== 'shell' && outcome.exitCode !== 0) return `the sample exited with ${outcome.exitCode}`;
  if (!sample.shown) return null;
  const differences = answerDifferences(sample.shown, outcome);
  if (differences.length === 0) return null;
  return [
    `the answer is not the one the page shows at line ${sample.shown.line}:`,
    ...differences.map((difference) => `    ${difference}`),
  ].join('\n');
}

/**
 * Runs a page's samples in order in one language: the page's files written, its setup blocks
 * before every sample, the values it saves passed to the later ones as environment variables.
 */
export async function runPageSamples(
  steps: PageStep[],
  language: SampleLanguage,
  context: PageRunContext,
): Promise<PageRun> {
  const variables: Record<string, string> = { API_KEY: context.apiKey };
  const setup: Record<SampleLanguage, string[]> = { shell: [], javascript: [], python: [], sdk: [] };
  const executed: PageRun['executed'] = [];
  for (const step of steps) {
    if (step.kind === 'file') {
      writeFileSync(join(context.directory, step.name), step.content);
      continue;
    }
    if (step.kind === 'setup') {
      for (const [setupLanguage, code] of Object.entries(step.code)) setup[setupLanguage as SampleLanguage].push(code);
      continue;
    }
    const { sample } = step;
    const equivalent = language === 'shell' ? undefined : sample.equivalents[language];
    const ranAs: SampleLanguage = equivalent === undefined ? 'shell' : language;
    const outcome = await runSample(ranAs, equivalent ?? sample.curl, {
      directory: context.directory,
      variables,
      setup: setup[ranAs],
    });
    executed.push({ sample, language: ranAs });
    await context.runDueJobs();
    const problem = problemWith(sample, ranAs, outcome);
    if (problem) return { executed, failure: describeFailure(context.file, sample, ranAs, outcome, problem) };
    if (sample.save.length === 0) continue;
    let answer: unknown;
    try {
      answer = JSON.parse(outcome.body);
    } catch {
      return { executed, failure: describeFailure(context.file, sample, ranAs, outcome, 'save= needs a JSON answer') };
    }
    for (const { name, path } of sample.save) {
      const value = valueAtPath(answer, path);
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        return {
          executed,
          failure: describeFailure(
            context.file,
            sample,
            ranAs,
            outcome,
            `save="${name}=${path}": the answer has no value at ${path}`,
          ),
        };
      }
      variables[name] = String(value);
    }
  }
  return { executed, failure: null };
}

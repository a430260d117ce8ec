/**
 * Every HTTP example of the docs, run for real: each page's `run` blocks (curl, then the same
 * requests in the JavaScript, Python and TypeScript SDK tabs) in page order against a freshly started server with
 * the demo sandbox, configured with the address it listens at and called there, as the page shows
 * it. Each is expected to answer the status the page says and, where the page shows the answer,
 * that answer (tests/docs/support/shownAnswers.ts). See app/docs/samples.server.ts for the marking.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withAddresses } from '../../app/docs/addresses.server.js';
import { extractPageSamples, type SampleLanguage } from '../../app/docs/samples.server.js';
import { docsPagesInOrder } from './support/docsPages.js';
import { startDocsServer } from './support/docsServer.js';
import { runPageSamples } from './support/pageRunner.js';
import { installSdkInto, removeSdkPackage } from './support/sdkPackage.js';

const PAGE_TIMEOUT_MS = 180_000;

const pythonProblem = (() => {
  const probe = spawnSync('python3', ['-c', 'import requests'], { encoding: 'utf8' });
  if (probe.error) return 'python3 is not installed';
  return probe.status === 0 ? null : 'python3 cannot import requests (pip install requests)';
})();

const pages = docsPagesInOrder().map((page) => ({ ...page, samples: extractPageSamples(page.source, page.file) }));

/** Samples executed, by page and language, printed at the end for the record. */
const executedCounts = new Map<string, Record<SampleLanguage, number>>();

const LANGUAGE_NAMES: Record<SampleLanguage, string> = {
  shell: 'curl',
  javascript: 'JavaScript',
  python: 'Python',
  sdk: 'SDK',
};

async function runPage(page: (typeof pages)[number], language: SampleLanguage) {
  const server = await startDocsServer();
  const directory = mkdtempSync(join(tmpdir(), 'docs-samples-'));
  try {
    if (language === 'sdk') await installSdkInto(directory);
    // The page as that server's portal shows it: its samples call the address it was configured with.
    const { steps } = extractPageSamples(withAddresses(page.source, page.file, server.addresses), page.file);
    const run = await runPageSamples(steps, language, {
      file: page.file,
      apiKey: server.sandbox.apiKey,
      directory,
      runDueJobs: () => server.runDueJobs(),
    });
    const counts = executedCounts.get(page.file) ?? { shell: 0, javascript: 0, python: 0, sdk: 0 };
    for (const { language: ranAs } of run.executed) if (ranAs === language) counts[language] += 1;
    executedCounts.set(page.file, counts);
    expect(run.failure, run.failure ?? '').toBeNull();
  } finally {
    rmSync(directory, { recursive: true, force: true });
    await server.close();
  }
}

// Each page and language runs on a server of its own and mostly waits on the processes that run
// its samples, so they run a few at once (vitest's maxConcurrency, 5).
describe.concurrent('the docs samples', () => {
  it('are all marked: every curl command is run (with its status) or norun', () => {
    expect(pages.flatMap((page) => page.samples.problems)).toEqual([]);
  });

  it('exist: the docs run at least one sample', () => {
    expect(pages.some((page) => page.samples.steps.some((step) => step.kind === 'sample'))).toBe(true);
  });

  for (const page of pages) {
    const samples = page.samples.steps.flatMap((step) => (step.kind === 'sample' ? [step.sample] : []));
    if (samples.length === 0) continue;
    describe(page.file, () => {
      it(`answers as the page says: ${samples.length} curl samples`, () => runPage(page, 'shell'), PAGE_TIMEOUT_MS);
      const withJavaScript = samples.filter((sample) => sample.equivalents.javascript !== undefined).length;
      if (withJavaScript > 0) {
        it(
          `answers the same in JavaScript: ${withJavaScript} samples`,
          () => runPage(page, 'javascript'),
          PAGE_TIMEOUT_MS,
        );
      }
      const withPython = samples.filter((sample) => sample.equivalents.python !== undefined).length;
      if (withPython > 0) {
        it.skipIf(pythonProblem !== null)(
          `answers the same in Python: ${withPython} samples${pythonProblem ? ` (skipped: ${pythonProblem})` : ''}`,
          () => runPage(page, 'python'),
          PAGE_TIMEOUT_MS,
        );
      }
      const withSdk = samples.filter((sample) => sample.equivalents.sdk !== undefined).length;
      if (withSdk > 0) {
        it(
          `answers the same through the TypeScript SDK: ${withSdk} samples`,
          () => runPage(page, 'sdk'),
          PAGE_TIMEOUT_MS,
        );
      }
    });
  }

  afterAll(() => {
    removeSdkPackage();
    const totals: Record<SampleLanguage, number> = { shell: 0, javascript: 0, python: 0, sdk: 0 };
    const lines = [...executedCounts].map(([file, counts]) => {
      for (const language of Object.keys(totals) as SampleLanguage[]) totals[language] += counts[language];
      return `  ${file}: ${(Object.keys(counts) as SampleLanguage[]).map((language) => `${counts[language]} ${LANGUAGE_NAMES[language]}`).join(', ')}`;
    });
    const total = totals.shell + totals.javascript + totals.python + totals.sdk;
    console.log(
      [
        `Docs samples executed: ${total} (${totals.shell} curl, ${totals.javascript} JavaScript, ${totals.python} Python, ${totals.sdk} SDK${pythonProblem ? `; Python skipped: ${pythonProblem}` : ''})`,
        ...lines,
      ].join('\n'),
    );
  });
});

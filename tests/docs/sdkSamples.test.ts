/**
 * The SDK tabs of the docs compile: each, after its page's setup, is type-checked against the
 * package's types, as an integrator's editor would check it. The samples test runs them with Node's
 * type stripping, which erases the types unread: a misspelt field would run, and be wrong.
 */
import { describe, expect, it } from 'vitest';
import { extractPageSamples } from '../../app/docs/samples.server.js';
import { typeCheckAgainstSdk } from '../support/sdkTypeCheck.js';
import { docsPagesInOrder } from './support/docsPages.js';

/** Every SDK sample of the docs, as the samples test runs it: the page's setup so far, then the sample. */
function sdkSamples(): { name: string; code: string }[] {
  return docsPagesInOrder().flatMap(({ file, source }) => {
    const setup: string[] = [];
    return extractPageSamples(source, file).steps.flatMap((step) => {
      if (step.kind === 'setup') {
        if (step.code.sdk) setup.push(step.code.sdk);
        return [];
      }
      if (step.kind !== 'sample' || step.sample.equivalents.sdk === undefined) return [];
      return [{ name: `${file}:${step.sample.line}`, code: [...setup, step.sample.equivalents.sdk].join('\n') }];
    });
  });
}

describe('the SDK samples of the docs', () => {
  const samples = sdkSamples();

  it('exist', () => {
    expect(samples.length).toBeGreaterThan(0);
  });

  it('type-check against the package', () => {
    const problems = typeCheckAgainstSdk(samples).map(
      (problem) => `${problem.name} (line ${problem.line} of the sample with its setup): ${problem.message}`,
    );
    expect(problems).toEqual([]);
  }, 120_000);
});

/**
 * The SDK tabs of the docs compile: each, after its page's setup, is type-checked against the
 * package's types, as an integrator's editor would check it. The samples test runs them with Node's
 * type stripping, which erases the types unread: a misspelt field would run, and be wrong.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { extractPageSamples } from '../../app/docs/samples.server.js';
import { findProjectRoot } from '../../server/portal.js';
import { docsPagesInOrder } from './support/docsPages.js';

const root = findProjectRoot();
const directory = mkdtempSync(join(tmpdir(), 'sdk-samples-'));

afterAll(() => rmSync(directory, { recursive: true, force: true }));

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
    const files = samples.map((sample, index) => {
      const path = join(directory, `sample${index}.mts`);
      writeFileSync(path, sample.code);
      return { path, name: sample.name };
    });
    const program = ts.createProgram(
      files.map((file) => file.path),
      {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(root, 'node_modules', '@types')],
        paths: { '@culture-pass/provider-api-client': [join(root, 'clients', 'typescript', 'src', 'index.ts')] },
      },
    );
    const nameOf = new Map(files.map((file) => [file.path, file.name]));
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (!diagnostic.file) return message;
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      return `${nameOf.get(diagnostic.file.fileName) ?? diagnostic.file.fileName} (line ${line + 1} of the sample with its setup): ${message}`;
    });
    expect(problems).toEqual([]);
  }, 120_000);
});

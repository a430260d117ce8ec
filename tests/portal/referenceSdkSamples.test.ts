/**
 * The reference's SDK tab, for each of the 55 operations, compiles against the SDK's types: the
 * method and path the sample writes are ones the client knows, and its parameters and body have the
 * types the document gives them, as an integrator's editor would check them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../app/portalContext.js';
import { referenceTags } from '../../app/reference/model.js';
import { SDK_PACKAGE, sampleRequestOf, sdkSample } from '../../app/reference/samples.js';
import { componentSchemas } from '../../app/reference/schema.js';
import { findProjectRoot } from '../../server/portal.js';
import { testOpenApiDocument } from './testPortal.js';

const root = findProjectRoot();
const directory = mkdtempSync(join(tmpdir(), 'reference-sdk-samples-'));

afterAll(() => rmSync(directory, { recursive: true, force: true }));

const document = testOpenApiDocument() as unknown as OpenApiDocument;
const schemas = componentSchemas(document);
const operations = referenceTags(document).flatMap((tag) => tag.operations);

describe("the reference's SDK samples", () => {
  it('cover every operation', () => {
    expect(operations).toHaveLength(55);
  });

  it('type-check against the package, which refuses a sample with a path it does not know', () => {
    const files = operations.map((operation) => {
      const path = join(directory, `${operation.operationId}.mts`);
      writeFileSync(path, sdkSample(sampleRequestOf(operation, schemas, 'https://api.example.com')));
      return path;
    });
    // The control: the first operation's sample with a misspelt path must not compile.
    const control = join(directory, 'control.mts');
    const first = sampleRequestOf(operations[0], schemas, 'https://api.example.com');
    writeFileSync(control, sdkSample({ ...first, path: `${first.path}s` }));
    files.push(control);
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
      paths: { [SDK_PACKAGE]: [join(root, 'clients', 'typescript', 'src', 'index.ts')] },
    });
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (!diagnostic.file) return message;
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      return `${diagnostic.file.fileName.slice(directory.length + 1)} line ${line + 1}: ${message}`;
    });
    expect(problems.filter((problem) => !problem.startsWith('control.mts'))).toEqual([]);
    expect(problems.some((problem) => problem.startsWith('control.mts'))).toBe(true);
  }, 120_000);
});

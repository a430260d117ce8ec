import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { SDK_PACKAGE } from '../../app/reference/samples.js';
import { findProjectRoot } from '../../server/portal.js';

/** A problem the compiler found in one sample: its name, the line in the sample, and the message. */
export interface SampleProblem {
  name: string;
  line: number | null;
  message: string;
}

/**
 * Type-checks code samples against the SDK's types, strictly, as an integrator's editor would:
 * each sample is a module of its own that imports the package by its name (resolved to
 * clients/typescript's sources). Answers every problem found, none when all compile.
 */
export function typeCheckAgainstSdk(samples: readonly { name: string; code: string }[]): SampleProblem[] {
  const root = findProjectRoot();
  const directory = mkdtempSync(join(tmpdir(), 'sdk-samples-'));
  try {
    const nameOf = new Map<string, string>();
    const files = samples.map((sample, index) => {
      const path = join(directory, `sample${index}.mts`);
      writeFileSync(path, sample.code);
      nameOf.set(path, sample.name);
      return path;
    });
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
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (!diagnostic.file) return { name: '(no file)', line: null, message };
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      return { name: nameOf.get(diagnostic.file.fileName) ?? diagnostic.file.fileName, line: line + 1, message };
    });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * The reference's SDK tab, for each of the 55 operations, compiles against the SDK's types: the
 * method and path the sample writes are ones the client knows, and its parameters and body have the
 * types the document gives them, as an integrator's editor would check them.
 */
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../app/portalContext.js';
import { referenceTags } from '../../app/reference/model.js';
import { sampleRequestOf, sdkSample } from '../../app/reference/samples.js';
import { componentSchemas } from '../../app/reference/schema.js';
import { typeCheckAgainstSdk } from '../support/sdkTypeCheck.js';
import { testOpenApiDocument } from './testPortal.js';

const document = testOpenApiDocument() as unknown as OpenApiDocument;
const schemas = componentSchemas(document);
const operations = referenceTags(document).flatMap((tag) => tag.operations);

describe("the reference's SDK samples", () => {
  it('cover every operation', () => {
    expect(operations).toHaveLength(55);
  });

  it('type-check against the package, which refuses a sample with a path it does not know', () => {
    const samples = operations.map((operation) => ({
      name: operation.operationId,
      code: sdkSample(sampleRequestOf(operation, schemas, 'https://api.example.com')),
    }));
    // The control: the first operation's sample with a misspelt path must not compile.
    const first = sampleRequestOf(operations[0], schemas, 'https://api.example.com');
    samples.push({ name: 'control', code: sdkSample({ ...first, path: `${first.path}s` }) });
    const problems = typeCheckAgainstSdk(samples);
    expect(problems.filter((problem) => problem.name !== 'control')).toEqual([]);
    expect(problems.some((problem) => problem.name === 'control')).toBe(true);
  }, 120_000);
});

import type { ReferenceOperation } from './model.js';
import { parameterExample } from './samples.js';
import type { JsonSchema } from './schema.js';

/** What the try-it console of one operation needs (app/reference/TryIt.tsx renders it). */
export interface TryItOperation {
  operationId: string;
  method: string;
  path: string;
  parameters: { name: string; in: 'path' | 'query'; required: boolean; example: string; description: string }[];
  body?: { mediaType: string; example: string };
}

/**
 * The console's model of an operation: its path and query parameters, each with the example the
 * samples use (empty when an optional one has none of its own), and the sample body as text.
 */
export function tryItOperationOf(
  operation: ReferenceOperation,
  schemas: Record<string, JsonSchema>,
  sampleBody?: { mediaType: string; value: unknown },
): TryItOperation {
  const parameters = operation.parameters.flatMap((parameter) => {
    if (parameter.in !== 'path' && parameter.in !== 'query') return [];
    const explicit =
      parameter.example !== undefined || (parameter.schema as { example?: unknown }).example !== undefined;
    return [
      {
        name: parameter.name,
        in: parameter.in,
        required: parameter.required,
        example: parameter.required || explicit ? parameterExample(parameter, schemas) : '',
        description: parameter.description,
      },
    ];
  });
  return {
    operationId: operation.operationId,
    method: operation.method,
    path: operation.path,
    parameters,
    ...(sampleBody
      ? {
          body: {
            mediaType: sampleBody.mediaType,
            example:
              typeof sampleBody.value === 'string' ? sampleBody.value : JSON.stringify(sampleBody.value, null, 2),
          },
        }
      : {}),
  };
}

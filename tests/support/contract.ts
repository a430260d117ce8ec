import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { expect } from 'vitest';
import { routes } from '../../rest-facade/index.js';
import { generateOpenApiDocument } from '../../rest-facade/openapi.js';
import { loadConfig } from '../../server/config.js';

type OpenApiDocument = ReturnType<typeof generateOpenApiDocument>;

export const openApiDocument: OpenApiDocument = generateOpenApiDocument(routes, loadConfig({ APP_ENV: 'development' }));

const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its plugin is both module.exports and its `default` property.
ajvFormats.default(ajv);
const validators = new Map<string, ValidateFunction | null>();

type Validator = ValidateFunction | null;

/** The body's validator of an answer the document declares; a string says why there is none. */
function validatorFor(method: string, path: string, status: number): Validator | string {
  const cacheKey = `${method} ${path} ${status}`;
  if (validators.has(cacheKey)) return validators.get(cacheKey)!;
  const operation = (openApiDocument.paths?.[path] as Record<string, any> | undefined)?.[method];
  if (!operation) return `operation ${method.toUpperCase()} ${path} is not in the OpenAPI document`;
  const declared = operation.responses?.[String(status)];
  if (!declared) return `status ${status} is not declared for ${method.toUpperCase()} ${path}`;
  const schema = declared.content?.['application/json']?.schema;
  const validate: Validator = schema ? ajv.compile({ ...schema, components: openApiDocument.components }) : null;
  validators.set(cacheKey, validate);
  return validate;
}

/**
 * What an API answer breaks of the generated OpenAPI document (an undeclared status, a body that
 * does not fit its schema, a body where none is declared), or null when it answers as declared.
 */
export function contractMismatch(
  response: { status: number; body: unknown; text?: string },
  method: string,
  path: string,
): string | null {
  const validate = validatorFor(method.toLowerCase(), path, response.status);
  if (typeof validate === 'string') return validate;
  if (!validate) return (response.text ?? '') === '' ? null : 'a response without a schema has no body';
  return validate(response.body)
    ? null
    : `${method.toUpperCase()} ${path} ${response.status}: ${ajv.errorsText(validate.errors)}`;
}

/** Checks an API answer against the generated OpenAPI document: its status is declared, its body fits. */
export function expectMatchesContract(
  response: { status: number; body: unknown; text?: string },
  method: string,
  path: string,
): void {
  const mismatch = contractMismatch(response, method, path);
  expect(mismatch, mismatch ?? '').toBeNull();
}

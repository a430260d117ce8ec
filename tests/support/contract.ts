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
const validators = new Map<string, ValidateFunction>();

function validatorFor(method: string, path: string, status: number): ValidateFunction | null {
  const cacheKey = `${method} ${path} ${status}`;
  if (validators.has(cacheKey)) return validators.get(cacheKey)!;
  const operation = (openApiDocument.paths?.[path] as Record<string, any> | undefined)?.[method];
  expect(operation, `operation ${method.toUpperCase()} ${path} in the OpenAPI document`).toBeDefined();
  const declared = operation.responses?.[String(status)];
  expect(declared, `status ${status} declared for ${method.toUpperCase()} ${path}`).toBeDefined();
  const schema = declared.content?.['application/json']?.schema;
  if (!schema) {
    validators.set(cacheKey, null as never);
    return null;
  }
  const validate = ajv.compile({ ...schema, components: openApiDocument.components });
  validators.set(cacheKey, validate);
  return validate;
}

/** Checks an API answer against the generated OpenAPI document: its status is declared, its body fits. */
export function expectMatchesContract(
  response: { status: number; body: unknown; text?: string },
  method: string,
  path: string,
): void {
  const validate = validatorFor(method.toLowerCase(), path, response.status);
  if (!validate) {
    expect(response.text ?? '', 'a response without a schema has no body').toBe('');
    return;
  }
  const valid = validate(response.body);
  expect(valid, `${method.toUpperCase()} ${path} ${response.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

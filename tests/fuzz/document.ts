import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { routes } from '../../rest-facade/index.js';
import { generateOpenApiDocument } from '../../rest-facade/openapi.js';
import { loadConfig } from '../../server/config.js';

/** A JSON Schema as the generated document writes it (OpenAPI 3.1: JSON Schema 2020-12). */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
};

export interface DocumentedParameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: Schema;
}

/** One operation of the document: what the fuzzer generates requests for, and checks answers against. */
export interface DocumentedOperation {
  operationId: string;
  method: string;
  path: string;
  parameters: DocumentedParameter[];
  body: Schema | null;
  bodyType: 'json' | 'multipart' | null;
  responses: Record<string, { schema: Schema | null }>;
}

/**
 * The document `/openapi.json` serves, generated from the route modules as the process generates
 * it: the fuzzer reads every operation, parameter and schema from it, never from the routes.
 */
export const openApiDocument = generateOpenApiDocument(routes, loadConfig({ APP_ENV: 'development' }));

const components = (openApiDocument.components?.schemas ?? {}) as Record<string, Schema>;

/** A schema with its `$ref` followed (once per level: the generator follows nested ones as it goes). */
export function resolve(schema: Schema): Schema {
  let current = schema;
  while (current.$ref) {
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (!target) throw new Error(`unknown schema ${current.$ref}`);
    current = target;
  }
  return current;
}

export const operations: DocumentedOperation[] = Object.entries(openApiDocument.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, any>).map(([method, operation]): DocumentedOperation => {
    const content = operation.requestBody?.content ?? {};
    const bodyMedia = Object.keys(content)[0];
    return {
      operationId: operation.operationId,
      method,
      path,
      parameters: (operation.parameters ?? []) as DocumentedParameter[],
      body: bodyMedia ? (content[bodyMedia].schema as Schema) : null,
      bodyType: bodyMedia ? (bodyMedia === 'multipart/form-data' ? 'multipart' : 'json') : null,
      responses: Object.fromEntries(
        Object.entries(operation.responses as Record<string, any>).map(([status, response]) => [
          status,
          { schema: (response.content?.['application/json']?.schema as Schema | undefined) ?? null },
        ]),
      ),
    };
  }),
);

export const operationById = new Map(operations.map((operation) => [operation.operationId, operation]));

const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its plugin is both module.exports and its `default` property.
ajvFormats.default(ajv);
const validators = new Map<string, ValidateFunction>();

/**
 * What is wrong with an answer by the document, or null: an undeclared status, a body that does
 * not fit the status's schema, or a body where the document declares none.
 */
export function contractViolation(
  operation: DocumentedOperation,
  status: number,
  body: unknown,
  text: string,
): string | null {
  const declared = operation.responses[String(status)];
  if (!declared) return `status ${status} is not documented for ${operation.operationId}`;
  if (!declared.schema) return text === '' ? null : `status ${status} documents no body, got ${text.slice(0, 200)}`;
  const cacheKey = `${operation.operationId} ${status}`;
  let validate = validators.get(cacheKey);
  if (!validate) {
    validate = ajv.compile({ ...declared.schema, components: openApiDocument.components });
    validators.set(cacheKey, validate);
  }
  return validate(body) ? null : `body of ${status} does not fit the document: ${ajv.errorsText(validate.errors)}`;
}

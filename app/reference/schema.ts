import type { OpenApiDocument } from '../portalContext.js';

/** The parts of a JSON Schema (OpenAPI 3.1) the reference reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  nullable?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  deprecated?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

const REF_PREFIX = '#/components/schemas/';

export function componentSchemas(document: OpenApiDocument): Record<string, JsonSchema> {
  return (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
}

/** `#/components/schemas/Name` → `Name`; null for any other reference. */
export function refName(ref: string | undefined): string | null {
  return ref?.startsWith(REF_PREFIX) ? decodeURIComponent(ref.slice(REF_PREFIX.length)) : null;
}

/** The anchor of a component schema's section. */
export function schemaAnchor(name: string): string {
  return `schema/${name}`;
}

/**
 * A schema with its `$ref` followed and its `allOf` merged (properties, required, the parts' keywords;
 * the outer schema's own keywords win), and the name of the component it came from, if any.
 */
export function resolveSchema(
  schema: JsonSchema,
  schemas: Record<string, JsonSchema>,
  seen: string[] = [],
): { schema: JsonSchema; name: string | null } {
  const name = refName(schema.$ref);
  if (name !== null) {
    const target = schemas[name];
    if (!target || seen.includes(name)) return { schema: {}, name };
    const { $ref: _ref, ...siblings } = schema;
    const resolved = resolveSchema(target, schemas, [...seen, name]).schema;
    return { schema: { ...resolved, ...siblings }, name };
  }
  if (schema.allOf) {
    const { allOf, ...rest } = schema;
    let merged: JsonSchema = {};
    let name: string | null = null;
    for (const part of allOf) {
      const resolved = resolveSchema(part, schemas, seen);
      name ??= resolved.name;
      merged = {
        ...merged,
        ...resolved.schema,
        properties:
          merged.properties || resolved.schema.properties
            ? { ...merged.properties, ...resolved.schema.properties }
            : undefined,
        required: [...(merged.required ?? []), ...(resolved.schema.required ?? [])],
      };
    }
    if (merged.required?.length === 0) delete merged.required;
    if (!merged.properties) delete merged.properties;
    return { schema: { ...merged, ...rest }, name: allOf.length === 1 ? name : null };
  }
  return { schema, name: null };
}

export function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  if (schema.enum) return [...new Set(schema.enum.map((value) => (value === null ? 'null' : typeof value)))];
  return [];
}

export function isNullable(schema: JsonSchema): boolean {
  return schema.nullable === true || typesOf(schema).includes('null');
}

/** The variants of a `oneOf`/`anyOf`, and which keyword holds them. */
export function variantsOf(schema: JsonSchema): { keyword: 'oneOf' | 'anyOf'; variants: JsonSchema[] } | null {
  if (schema.oneOf) return { keyword: 'oneOf', variants: schema.oneOf };
  if (schema.anyOf) return { keyword: 'anyOf', variants: schema.anyOf };
  return null;
}

/** An object with fields of its own (what the tree draws as a level). */
export function hasFields(schema: JsonSchema): boolean {
  return schema.properties !== undefined && Object.keys(schema.properties).length > 0;
}

/** A short type for a resolved schema: `string`, `integer | null`, `array of AddressModel`. */
export function typeLabel(schema: JsonSchema, schemas: Record<string, JsonSchema>): string {
  const { schema: resolved, name } = resolveSchema(schema, schemas);
  const variants = variantsOf(resolved);
  if (variants) return variants.variants.map((variant) => typeLabel(variant, schemas)).join(' | ');
  const types = typesOf(resolved).map((type) => {
    if (type === 'array' && resolved.items) return `array of ${typeLabel(resolved.items, schemas)}`;
    if (type === 'object' && name) return name;
    if (type === 'string' && resolved.format) return `string (${resolved.format})`;
    return type;
  });
  if (types.length === 0) return name ?? 'any';
  return types.join(' | ');
}

/** The constraints of a schema as short phrases: `>= 1`, `at most 90 characters`, `pattern ^\d+$`. */
export function constraintsOf(schema: JsonSchema): string[] {
  const out: string[] = [];
  const exclusive = (value: number | boolean | undefined) => typeof value === 'number';
  if (schema.minimum !== undefined) out.push(`${schema.exclusiveMinimum === true ? '>' : '>='} ${schema.minimum}`);
  if (exclusive(schema.exclusiveMinimum)) out.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) out.push(`${schema.exclusiveMaximum === true ? '<' : '<='} ${schema.maximum}`);
  if (exclusive(schema.exclusiveMaximum)) out.push(`< ${schema.exclusiveMaximum}`);
  if (schema.minLength !== undefined)
    out.push(`at least ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}`);
  if (schema.maxLength !== undefined) out.push(`at most ${schema.maxLength} characters`);
  if (schema.minItems !== undefined) out.push(`at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  if (schema.pattern !== undefined) out.push(`pattern ${schema.pattern}`);
  return out;
}

/** A value as the reference prints it: JSON. */
export function formatValue(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** The page of a component schema: its fields for a reader without JavaScript, and a link target. */
export function schemaPagePath(name: string): string {
  return `/rest-api/schemas/${encodeURIComponent(name)}`;
}

/** The fragment of a schema's next levels that the reference's client inserts on demand. */
export function schemaFragmentPath(name: string): string {
  return `${schemaPagePath(name)}/fragment`;
}

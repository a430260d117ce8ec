/**
 * Request and response samples generated from the OpenAPI document: an example value built from a
 * schema, and the same request as curl, JavaScript fetch, Python requests and the TypeScript SDK
 * (clients/typescript). Pure functions.
 */
import type { ReferenceOperation, ReferenceParameter } from './model.js';
import { type JsonSchema, isNullable, resolveSchema, typesOf } from './schema.js';

export interface ExampleOptions {
  /** Request examples leave out read-only fields, response examples write-only ones. */
  direction?: 'request' | 'response';
}

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2027-03-14T20:30:00+01:00',
  date: '2027-03-14',
  time: '20:30:00',
  email: 'contact@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  hostname: 'example.com',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  ipv4: '192.0.2.1',
  binary: '<binary>',
};

function numberExample(schema: JsonSchema, integer: boolean): number {
  const step = integer ? 1 : 0.5;
  if (typeof schema.minimum === 'number')
    return schema.exclusiveMinimum === true ? schema.minimum + step : schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + step;
  if (typeof schema.maximum === 'number' && schema.maximum < 0) return schema.maximum;
  if (typeof schema.exclusiveMaximum === 'number' && schema.exclusiveMaximum <= 0)
    return schema.exclusiveMaximum - step;
  return integer ? 1 : 1.5;
}

function stringExample(schema: JsonSchema): string {
  if (schema.format && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format];
  let value = 'string';
  if (schema.minLength !== undefined && value.length < schema.minLength) value = value.padEnd(schema.minLength, 'x');
  if (schema.maxLength !== undefined && value.length > schema.maxLength)
    value = value.slice(0, Math.max(schema.maxLength, 0));
  return value;
}

/**
 * An example value for a schema: its `example` or first `examples`, else its `default`, `const` or
 * first enum value, else one built from its type (format-aware strings, numbers at their lower
 * bound, the first variant of a `oneOf`/`anyOf`, one array item). `level` 1 is the top level of an
 * object: it gets every field; deeper objects get their required fields only.
 */
export function exampleOf(
  schema: JsonSchema,
  schemas: Record<string, JsonSchema>,
  options: ExampleOptions = {},
  level = 1,
  seen: string[] = [],
): unknown {
  const { schema: resolved, name } = resolveSchema(schema, schemas);
  if (name !== null && seen.includes(name)) return null;
  const trail = name === null ? seen : [...seen, name];
  if (resolved.example !== undefined) return resolved.example;
  if (resolved.examples && resolved.examples.length > 0) return resolved.examples[0];
  if (resolved.default !== undefined) return resolved.default;
  if (resolved.const !== undefined) return resolved.const;
  if (resolved.enum && resolved.enum.length > 0)
    return resolved.enum.find((value) => value !== null) ?? resolved.enum[0];
  const variants = resolved.oneOf ?? resolved.anyOf;
  if (variants && variants.length > 0) {
    const variant =
      variants.find(
        (candidate) => !typesOf(resolveSchema(candidate, schemas).schema).every((type) => type === 'null'),
      ) ?? variants[0];
    return exampleOf(variant, schemas, options, level, trail);
  }
  const types = typesOf(resolved).filter((type) => type !== 'null');
  const type = types[0] ?? (isNullable(resolved) ? 'null' : 'object');
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'integer':
      return numberExample(resolved, true);
    case 'number':
      return numberExample(resolved, false);
    case 'string':
      return stringExample(resolved);
    case 'array': {
      const item = exampleOf(resolved.items ?? {}, schemas, options, level + 1, trail);
      return Array.from({ length: Math.max(1, resolved.minItems ?? 1) }, () => item);
    }
    default: {
      const out: Record<string, unknown> = {};
      const required = new Set(resolved.required ?? []);
      for (const [key, property] of Object.entries(resolved.properties ?? {})) {
        const field = resolveSchema(property, schemas).schema;
        if (options.direction === 'request' && field.readOnly) continue;
        if (options.direction === 'response' && field.writeOnly) continue;
        if (level > 1 && !required.has(key)) continue;
        if (field.deprecated && !required.has(key)) continue;
        out[key] = exampleOf(property, schemas, options, level + 1, trail);
      }
      return out;
    }
  }
}

/** A parameter's example as text: its own example, its schema's, else one built from the schema. */
export function parameterExample(
  parameter: Pick<ReferenceParameter, 'schema' | 'example'>,
  schemas: Record<string, JsonSchema>,
): string {
  const value = parameter.example !== undefined ? parameter.example : exampleOf(parameter.schema, schemas);
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export interface SampleRequest {
  method: string;
  /** The server's URL, without a trailing slash. */
  baseUrl: string;
  /** The path template, `/offers/{offer_id}`. */
  path: string;
  pathParams: Record<string, string>;
  query: [string, string][];
  /**
   * The path and query parameters whose values are numbers: a URL writes them as text, the SDK
   * (typed by the document) as numbers. Absent when there is none.
   */
  numeric?: string[];
  body?: { mediaType: string; value: unknown };
}

export interface CodeSample {
  label: 'curl' | 'JavaScript' | 'Python' | 'SDK';
  language: 'bash' | 'javascript' | 'python' | 'typescript';
  code: string;
}

/** The request's URL: path parameters filled in (percent-encoded), the query appended. */
export function sampleUrl(request: SampleRequest): string {
  const path = request.path.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    request.pathParams[name] !== undefined ? encodeURIComponent(request.pathParams[name]) : whole,
  );
  const query = new URLSearchParams(request.query).toString();
  return `${request.baseUrl.replace(/\/+$/, '')}${path}${query ? `?${query}` : ''}`;
}

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const isMultipart = (request: SampleRequest) => request.body?.mediaType.startsWith('multipart/') === true;

function multipartFields(value: unknown): [string, unknown][] {
  return value && typeof value === 'object' ? Object.entries(value as Record<string, unknown>) : [];
}

const isFileField = (value: unknown) => value === '<binary>';

export function curlSample(request: SampleRequest): string {
  const lines = [
    `curl -X ${request.method.toUpperCase()} ${shellQuote(sampleUrl(request))}`,
    `-H 'Authorization: Bearer YOUR_API_KEY'`,
  ];
  if (request.body && isMultipart(request)) {
    for (const [key, value] of multipartFields(request.body.value)) {
      lines.push(
        isFileField(value)
          ? `-F ${shellQuote(`${key}=@image.jpg`)}`
          : `-F ${shellQuote(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)}`,
      );
    }
  } else if (request.body) {
    lines.push(
      `-H ${shellQuote(`Content-Type: ${request.body.mediaType}`)}`,
      `--data ${shellQuote(JSON.stringify(request.body.value, null, 2))}`,
    );
  }
  return lines.join(' \\\n  ');
}

export function fetchSample(request: SampleRequest): string {
  const lines: string[] = [];
  const headers = ['    Authorization: "Bearer YOUR_API_KEY",'];
  let bodyLine: string | null = null;
  if (request.body && isMultipart(request)) {
    lines.push('const form = new FormData();');
    for (const [key, value] of multipartFields(request.body.value)) {
      lines.push(
        isFileField(value)
          ? `form.append(${JSON.stringify(key)}, file); // a File or Blob`
          : `form.append(${JSON.stringify(key)}, ${JSON.stringify(typeof value === 'string' ? value : JSON.stringify(value))});`,
      );
    }
    lines.push('');
    bodyLine = '  body: form,';
  } else if (request.body) {
    headers.push(`    "Content-Type": ${JSON.stringify(request.body.mediaType)},`);
    const json = JSON.stringify(request.body.value, null, 2).replaceAll('\n', '\n  ');
    bodyLine = `  body: JSON.stringify(${json}),`;
  }
  lines.push(
    `const response = await fetch(${JSON.stringify(sampleUrl(request))}, {`,
    `  method: ${JSON.stringify(request.method.toUpperCase())},`,
    '  headers: {',
    ...headers,
    '  },',
    ...(bodyLine ? [bodyLine] : []),
    '});',
    'console.log(response.status, await response.text());',
  );
  return lines.join('\n');
}

/** A JSON value written as a Python literal (True, False, None). */
export function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)}`).join(',\n')},\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)}`).join(',\n')},\n${indent}}`;
}

export function pythonSample(request: SampleRequest): string {
  const lines = ['import requests', ''];
  const args = [`    ${JSON.stringify(sampleUrl(request))}`, `    headers={"Authorization": "Bearer YOUR_API_KEY"}`];
  if (request.body && isMultipart(request)) {
    const fields = multipartFields(request.body.value);
    const files = fields.filter(([, value]) => isFileField(value));
    const data = fields
      .filter(([, value]) => !isFileField(value))
      .map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]);
    if (files.length > 0)
      args.push(`    files={${files.map(([key]) => `${JSON.stringify(key)}: open("image.jpg", "rb")`).join(', ')}}`);
    if (data.length > 0) args.push(`    data=${pythonLiteral(Object.fromEntries(data), '    ')}`);
  } else if (request.body) {
    args.push(`    json=${pythonLiteral(request.body.value, '    ')}`);
  }
  lines.push(
    `response = requests.${request.method.toLowerCase()}(`,
    `${args.join(',\n')},`,
    ')',
    'print(response.status_code, response.text)',
  );
  return lines.join('\n');
}

/** The package's name, as clients/typescript/package.json has it. */
export const SDK_PACKAGE = '@culture-pass/provider-api-client';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const propertyName = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

/** A JSON value as a TypeScript literal: keys unquoted where they are identifiers, nested lines indented. */
function tsLiteral(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${tsLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([name, item]) => `${inner}${propertyName(name)}: ${tsLiteral(item, inner)},`).join('\n')}\n${indent}}`;
}

/**
 * The call through the TypeScript SDK: the method and the path template the document names (the
 * client checks both, and the parameters and body, against its types), a multipart body through
 * the package's `formDataOf`.
 */
export function sdkSample(request: SampleRequest): string {
  const numeric = new Set(request.numeric ?? []);
  const valueOf = (name: string, text: string) => (numeric.has(name) && text !== '' ? Number(text) : text);
  const params: Record<string, Record<string, unknown>> = {};
  const path = Object.entries(request.pathParams);
  if (path.length > 0) params.path = Object.fromEntries(path.map(([name, text]) => [name, valueOf(name, text)]));
  if (request.query.length > 0)
    params.query = Object.fromEntries(request.query.map(([name, text]) => [name, valueOf(name, text)]));
  const multipart = request.body !== undefined && isMultipart(request);
  const imports = multipart ? 'createClient, formDataOf' : 'createClient';
  const lines = [
    ...(multipart ? ['import { readFile } from "node:fs/promises";'] : []),
    `import { ${imports} } from "${SDK_PACKAGE}";`,
    '',
    `const api = createClient({ baseUrl: ${JSON.stringify(request.baseUrl.replace(/\/+$/, ''))}, apiKey: "YOUR_API_KEY" });`,
  ];
  const options: string[] = [];
  if (Object.keys(params).length > 0) options.push(`  params: ${tsLiteral(params, '  ')},`);
  if (request.body && multipart) {
    const fields = multipartFields(request.body.value).map(([key, value]) =>
      isFileField(value)
        ? `    ${propertyName(key)}: new Blob([await readFile("image.jpg")], { type: "image/jpeg" }),`
        : `    ${propertyName(key)}: ${tsLiteral(value, '    ')},`,
    );
    options.push('  body: {', ...fields, '  },', '  bodySerializer: formDataOf,');
  } else if (request.body) {
    options.push(`  body: ${tsLiteral(request.body.value, '  ')},`);
  }
  const call = `api.${request.method.toUpperCase()}(${JSON.stringify(request.path)}`;
  lines.push(
    options.length > 0
      ? `const { data, error, response } = await ${call}, {\n${options.join('\n')}\n});`
      : `const { data, error, response } = await ${call});`,
    'console.log(response.status, data ?? error);',
  );
  return lines.join('\n');
}

const WRITERS: {
  label: CodeSample['label'];
  language: CodeSample['language'];
  write: (request: SampleRequest) => string;
}[] = [
  { label: 'curl', language: 'bash', write: curlSample },
  { label: 'JavaScript', language: 'javascript', write: fetchSample },
  { label: 'Python', language: 'python', write: pythonSample },
  { label: 'SDK', language: 'typescript', write: sdkSample },
];

export function codeSamples(request: SampleRequest): CodeSample[] {
  return WRITERS.map(({ label, language, write }) => ({ label, language, code: write(request) }));
}

/** The samples with curl written and the others left for the browser to write (`code: null`). */
export function curlFirstSamples(request: SampleRequest): (Omit<CodeSample, 'code'> & { code: string | null })[] {
  return WRITERS.map(({ label, language, write }) => ({
    label,
    language,
    code: label === 'curl' ? write(request) : null,
  }));
}

/** One sample, in the language of a code block (`javascript`, `python`, `bash`); null for another. */
export function writeSample(language: string, request: SampleRequest): string | null {
  return WRITERS.find((writer) => writer.language === language)?.write(request) ?? null;
}

/**
 * The sample request of an operation: path parameters and required query parameters with their
 * examples, and an example body (all first-level fields, required ones below).
 */
export function sampleRequestOf(
  operation: ReferenceOperation,
  schemas: Record<string, JsonSchema>,
  baseUrl: string,
): SampleRequest {
  const pathParams: Record<string, string> = {};
  const query: [string, string][] = [];
  const numeric: string[] = [];
  for (const parameter of operation.parameters) {
    const sent = parameter.in === 'path' || (parameter.in === 'query' && parameter.required);
    if (!sent) continue;
    if (parameter.in === 'path') pathParams[parameter.name] = parameterExample(parameter, schemas);
    else query.push([parameter.name, parameterExample(parameter, schemas)]);
    const types = typesOf(resolveSchema(parameter.schema, schemas).schema);
    if (types.includes('integer') || types.includes('number')) numeric.push(parameter.name);
  }
  return {
    method: operation.method,
    baseUrl,
    path: operation.path,
    pathParams,
    query,
    ...(numeric.length > 0 ? { numeric } : {}),
    ...(operation.body
      ? {
          body: {
            mediaType: operation.body.mediaType,
            value: exampleOf(operation.body.schema, schemas, { direction: 'request' }),
          },
        }
      : {}),
  };
}

/** The first 2xx response and its example (the document's, else one built from its schema). */
export function responseSampleOf(
  operation: ReferenceOperation,
  schemas: Record<string, JsonSchema>,
): { status: string; json: string | null } | null {
  const response = operation.responses.find((candidate) => /^2/.test(candidate.status));
  if (!response) return null;
  if (response.example !== undefined)
    return { status: response.status, json: JSON.stringify(response.example, null, 2) };
  if (!response.schema) return { status: response.status, json: null };
  return {
    status: response.status,
    json: JSON.stringify(exampleOf(response.schema, schemas, { direction: 'response' }), null, 2),
  };
}

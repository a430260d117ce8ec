import { type DocumentedOperation, resolve, type Schema } from './document.js';
import type { Random } from './random.js';
import type { FuzzRequest } from './requests.js';
import { branchesOf, edgeValuesFor, typedEdgeValuesFor } from './values.js';

/** Edges of the field's own type most of the time: they reach further than a wrong type does. */
const edgeOf = (schema: Schema, random: Random) =>
  random.pick(random.chance(0.7) ? typedEdgeValuesFor(schema) : edgeValuesFor(schema));

/**
 * One change to a valid request: a value at or past a field's edge, a value of another type,
 * a field taken away, or one the document does not know. One at a time, so that the answer
 * says something about that one field.
 */
export type Mutation =
  | { where: 'body'; path: (string | number)[]; change: 'set'; value: unknown }
  | { where: 'body'; path: (string | number)[]; change: 'remove' }
  | { where: 'body'; change: 'replace-whole'; value: unknown }
  | { where: 'query'; name: string; change: 'set'; value: unknown }
  | { where: 'query'; name: string; change: 'remove' }
  | { where: 'param'; name: string; value: string }
  | { where: 'form'; change: 'credit'; value: unknown }
  | { where: 'form'; change: 'file'; value: 'none' | 'text' };

export function describeMutation(mutation: Mutation): string {
  const shown = (value: unknown) => {
    const json = JSON.stringify(value) ?? 'undefined';
    return json.length > 60 ? `${json.slice(0, 40)}…(${json.length} chars)` : json;
  };
  switch (mutation.where) {
    case 'body':
      if (mutation.change === 'replace-whole') return `body := ${shown(mutation.value)}`;
      return mutation.change === 'remove'
        ? `body.${mutation.path.join('.')} removed`
        : `body.${mutation.path.join('.')} := ${shown(mutation.value)}`;
    case 'query':
      return mutation.change === 'remove'
        ? `query ${mutation.name} removed`
        : `query ${mutation.name} := ${shown(mutation.value)}`;
    case 'param':
      return `path {${mutation.name}} := ${shown(mutation.value)}`;
    case 'form':
      return `form ${mutation.change} := ${shown(mutation.value)}`;
  }
}

/** The schema of the property `key` in an object schema, following a union to the branch that has it. */
function propertySchema(schema: Schema, key: string, value: Record<string, unknown>): Schema | undefined {
  for (const branch of branchesOf(schema)) {
    const candidates = branch.allOf ? branch.allOf.map(resolve) : [branch];
    for (const candidate of candidates) {
      const discriminator = schema.discriminator?.propertyName ?? resolve(schema).discriminator?.propertyName;
      if (discriminator && candidate.properties?.[discriminator]) {
        const allowed = resolve(candidate.properties[discriminator]).enum;
        if (allowed && !allowed.includes(value[discriminator])) continue;
      }
      if (candidate.properties?.[key]) return candidate.properties[key];
    }
  }
  return undefined;
}

interface Location {
  path: (string | number)[];
  schema: Schema;
  present: boolean;
}

/** Every field of a body with its schema: those sent, and the documented ones left out. */
function locationsOf(schema: Schema, value: unknown, path: (string | number)[] = [], depth = 0): Location[] {
  if (depth > 4) return [];
  const locations: Location[] = [];
  if (Array.isArray(value)) {
    const items = branchesOf(schema).find((branch) => branch.items)?.items;
    if (items && value.length > 0) {
      locations.push({ path: [...path, 0], schema: items, present: true });
      locations.push(...locationsOf(items, value[0], [...path, 0], depth + 1));
    }
    return locations;
  }
  if (!value || typeof value !== 'object') return locations;
  const object = value as Record<string, unknown>;
  const documented = new Set<string>();
  for (const branch of branchesOf(schema))
    for (const name of Object.keys(branch.properties ?? {})) documented.add(name);
  for (const name of documented) {
    const propertySchemaOf = propertySchema(schema, name, object);
    if (!propertySchemaOf) continue;
    const present = name in object;
    locations.push({ path: [...path, name], schema: propertySchemaOf, present });
    if (present) locations.push(...locationsOf(propertySchemaOf, object[name], [...path, name], depth + 1));
  }
  return locations;
}

const WRONG_IDS = [
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '99999999999999999999',
  'abc',
  '1.5',
  ' 1',
  '%00',
  'é',
  '1e3',
];

/** One mutation of a valid request, chosen at random among those its operation allows. */
export function aMutation(operation: DocumentedOperation, request: FuzzRequest, random: Random): Mutation | null {
  const choices: (() => Mutation | null)[] = [];
  if (request.body !== undefined && operation.body) {
    const body = request.body;
    const bodySchema = operation.body;
    choices.push(() => {
      const locations = locationsOf(bodySchema, body);
      if (locations.length === 0) return null;
      const location = random.pick(locations);
      const roll = random.next();
      if (location.present && roll < 0.15) return { where: 'body', path: location.path, change: 'remove' };
      if (roll < 0.22) {
        const parent = location.path.slice(0, -1);
        return { where: 'body', path: [...parent, 'unexpectedField'], change: 'set', value: 'surprise' };
      }
      return { where: 'body', path: location.path, change: 'set', value: edgeOf(location.schema, random) };
    });
    if (random.chance(0.05))
      choices.push(() => ({ where: 'body', change: 'replace-whole', value: random.pick([null, [], 'text', 42, {}]) }));
  }
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  if (queryParameters.length > 0)
    choices.push(() => {
      const parameter = random.pick(queryParameters);
      if (parameter.name in request.query && random.chance(0.2))
        return { where: 'query', name: parameter.name, change: 'remove' };
      if (random.chance(0.05)) return { where: 'query', name: 'unexpected', change: 'set', value: 'x' };
      const value = edgeOf(parameter.schema, random);
      return { where: 'query', name: parameter.name, change: 'set', value };
    });
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  if (pathParameters.length > 0)
    choices.push(() => ({ where: 'param', name: random.pick(pathParameters).name, value: random.pick(WRONG_IDS) }));
  if (request.form)
    choices.push(() =>
      random.chance(0.6)
        ? {
            where: 'form',
            change: 'credit',
            value: random.pick(edgeValuesFor({ type: ['string', 'null'], maxLength: 200 })),
          }
        : { where: 'form', change: 'file', value: random.pick(['none', 'text'] as const) },
    );
  if (choices.length === 0) return null;
  return random.pick(choices)();
}

function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}

/** The request with the mutation made, on a copy. */
export function applyMutation(request: FuzzRequest, mutation: Mutation): FuzzRequest {
  const result: FuzzRequest = {
    ...request,
    params: { ...request.params },
    query: { ...request.query },
    body: clone(request.body),
    form: request.form ? { ...request.form } : undefined,
  };
  switch (mutation.where) {
    case 'body': {
      if (mutation.change === 'replace-whole') {
        result.body = mutation.value;
        break;
      }
      let container = result.body as Record<string | number, unknown>;
      for (const step of mutation.path.slice(0, -1)) {
        const next = container?.[step];
        if (!next || typeof next !== 'object') return result;
        container = next as Record<string | number, unknown>;
      }
      const last = mutation.path[mutation.path.length - 1];
      if (mutation.change === 'remove') delete container[last];
      else container[last] = clone(mutation.value);
      break;
    }
    case 'query':
      if (mutation.change === 'remove') delete result.query[mutation.name];
      else result.query[mutation.name] = mutation.value;
      break;
    case 'param':
      result.params[mutation.name] = mutation.value;
      break;
    case 'form':
      if (mutation.change === 'credit') result.form!.credit = mutation.value;
      else result.form!.file = mutation.value;
      break;
  }
  return result;
}

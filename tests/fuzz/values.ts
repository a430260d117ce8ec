import { resolve, type Schema } from './document.js';
import type { Random } from './random.js';

/**
 * Values that fit a schema of the document, and values at and past its edges. The document says
 * what a field accepts; the domain's own rules (an existing venue, a date after another) are the
 * anchors' business (requests.ts).
 */

const DAY_MS = 86_400_000;

/** The types a schema allows, `null` last; an untyped schema is read from its other keywords. */
export function typesOf(schema: Schema): string[] {
  const resolved = resolve(schema);
  if (resolved.type) return Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  if (resolved.enum) return [...new Set(resolved.enum.map((value) => (value === null ? 'null' : typeof value)))];
  if (resolved.const !== undefined) return [typeof resolved.const];
  if (resolved.properties) return ['object'];
  return [];
}

export function allowsNull(schema: Schema): boolean {
  const resolved = resolve(schema);
  if (typesOf(resolved).includes('null')) return true;
  if (resolved.enum?.includes(null)) return true;
  return [...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])].some(allowsNull);
}

/** The branches of a union, each followed. */
export function branchesOf(schema: Schema): Schema[] {
  const resolved = resolve(schema);
  const branches = resolved.oneOf ?? resolved.anyOf;
  return branches ? branches.map(resolve) : [resolved];
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function text(random: Random, length: number): string {
  let result = '';
  for (let index = 0; index < length; index += 1) result += LETTERS[random.int(0, LETTERS.length - 1)];
  return result;
}

/** Patterns of the document with no example, by their text: a value that matches each. */
const patternSamples: Record<string, (random: Random) => string> = {};

function exampleOf(schema: Schema): unknown {
  return schema.example ?? schema.examples?.[0];
}

function stringFor(schema: Schema, random: Random, now: Date): string {
  if (schema.format === 'date-time') return new Date(now.getTime() + random.int(20, 200) * DAY_MS).toISOString();
  if (schema.format === 'date')
    return new Date(now.getTime() + random.int(20, 200) * DAY_MS).toISOString().slice(0, 10);
  if (schema.format === 'email') return `fuzz.${text(random, 6).toLowerCase()}@example.com`;
  if (schema.format === 'uri' || schema.format === 'url') return `https://example.com/${text(random, 8)}`;
  if (schema.pattern) {
    const example = exampleOf(schema);
    if (typeof example === 'string' && new RegExp(schema.pattern, 'u').test(example)) return example;
    const sample = patternSamples[schema.pattern];
    if (sample) return sample(random);
  }
  const example = exampleOf(schema);
  if (typeof example === 'string' && random.chance(0.3)) return example;
  const min = schema.minLength ?? 1;
  const max = Math.min(schema.maxLength ?? 40, Math.max(min, 40));
  return text(random, random.int(Math.max(min, 1), Math.max(max, min)));
}

function numberFor(schema: Schema, random: Random, integer: boolean): number {
  const low =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 0.01) : 0);
  const high = Math.min(
    schema.maximum ??
      (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 0.01) : low + 1000),
    low + 1000,
  );
  if (integer) return random.int(Math.ceil(low), Math.floor(high));
  return Math.round((low + random.next() * (high - low)) * 100) / 100;
}

/** A hook that gives a property its value (an id that exists, say), or undefined to let the schema decide. */
export type Anchor = (random: Random) => unknown;

export interface GenerationContext {
  random: Random;
  now: Date;
  /** Values by property name: ids of resources that exist, dates in order. */
  anchors: Record<string, Anchor>;
  /** How likely an optional property is sent. */
  optionalChance: number;
}

/** A value that fits the schema by the document. */
export function valueFor(schema: Schema, context: GenerationContext, depth = 0): unknown {
  const resolved = resolve(schema);
  const { random } = context;
  if (resolved.const !== undefined) return resolved.const;
  if (resolved.enum) {
    const nonNull = resolved.enum.filter((value) => value !== null);
    return nonNull.length > 0 ? random.pick(nonNull) : null;
  }
  if (resolved.oneOf || resolved.anyOf) {
    const branches = branchesOf(resolved).filter((branch) => !typesOf(branch).every((type) => type === 'null'));
    return branches.length > 0 ? valueFor(random.pick(branches), context, depth + 1) : null;
  }
  if (resolved.allOf) return Object.assign({}, ...resolved.allOf.map((part) => valueFor(part, context, depth + 1)));
  const types = typesOf(resolved).filter((type) => type !== 'null');
  const type = types.length > 0 ? random.pick(types) : 'null';
  switch (type) {
    case 'string':
      return stringFor(resolved, random, context.now);
    case 'integer':
      return numberFor(resolved, random, true);
    case 'number':
      return numberFor(resolved, random, false);
    case 'boolean':
      return random.chance(0.5);
    case 'array': {
      const min = resolved.minItems ?? 0;
      const max = Math.min(resolved.maxItems ?? min + 2, min + 2);
      const length = random.int(min, max);
      return Array.from({ length }, () => (resolved.items ? valueFor(resolved.items, context, depth + 1) : null));
    }
    case 'object':
      return objectFor(resolved, context, depth);
    default:
      return null;
  }
}

function objectFor(schema: Schema, context: GenerationContext, depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!required.has(name) && !context.random.chance(depth > 2 ? 0.2 : context.optionalChance)) continue;
    const anchor = context.anchors[name];
    const anchored = anchor ? anchor(context.random) : undefined;
    result[name] = anchored !== undefined ? anchored : valueFor(property, context, depth + 1);
  }
  return result;
}

/** Dates at the edges of what anyone would send. */
const FAR_PAST = '1900-01-01T00:00:00Z';
const FAR_FUTURE = '9999-12-31T23:59:59Z';

/**
 * Values at and past the edges of the schema, each a candidate replacement of the field: limits and
 * one past them, 0 and -1, every enum value, empty and 10,000-character text, Unicode, NUL, dates far
 * in the past and the future, null (allowed or not), and a value of each wrong type.
 */
export function edgeValuesFor(schema: Schema): unknown[] {
  return [...ANY_FIELD_EDGES, ...typedEdgeValuesFor(schema)];
}

/** Values of the wrong type, or none, for any field. */
const ANY_FIELD_EDGES: unknown[] = [null, true, 0, -1, 1.5, '', 'x', [], {}, 'a'.repeat(10_000)];

/** Values at and past the edges of what the schema's own types allow. */
export function typedEdgeValuesFor(schema: Schema): unknown[] {
  const resolved = resolve(schema);
  const values: unknown[] = [];
  for (const branch of branchesOf(resolved)) {
    if (branch.enum) values.push(...branch.enum, `${String(branch.enum[0])}_NOT`, String(branch.enum[0]).toLowerCase());
    if (branch.const !== undefined) values.push(branch.const);
    const types = typesOf(branch);
    if (types.includes('string')) {
      const { minLength, maxLength } = branch;
      if (minLength !== undefined) values.push('a'.repeat(minLength), 'a'.repeat(Math.max(minLength - 1, 0)));
      if (maxLength !== undefined) values.push('a'.repeat(maxLength), 'a'.repeat(maxLength + 1), 'é'.repeat(maxLength));
      values.push(
        ' ',
        '   padded   ',
        'nul\u0000byte',
        'emoji 🎭🎟️',
        '\u202etext',
        'line\nbreak',
        '<script>',
        "' OR 1=1 --",
      );
      if (branch.format === 'date-time' || branch.format === 'date')
        values.push(
          FAR_PAST,
          FAR_FUTURE,
          '2026-02-30T10:00:00Z',
          '2026-11-22T10:00:00',
          'tomorrow',
          '0001-01-01T00:00:00Z',
        );
      if (branch.format === 'email') values.push('no-at-sign', 'a@b', `${'a'.repeat(250)}@example.com`);
      if (branch.format === 'uri') values.push('ftp://example.com', 'http://127.0.0.1/', 'not a url', 'https://');
    }
    if (types.includes('integer') || types.includes('number')) {
      for (const bound of [branch.minimum, branch.maximum, branch.exclusiveMinimum, branch.exclusiveMaximum]) {
        if (bound !== undefined) values.push(bound, bound - 1, bound + 1);
      }
      values.push(2_147_483_647, 2_147_483_648, -2_147_483_649, Number.MAX_SAFE_INTEGER, 1e308, 0.001, '12');
    }
    if (types.includes('array')) {
      const { minItems, maxItems } = branch;
      const item = branch.items ? valueFor(branch.items, edgeContext) : null;
      if (minItems !== undefined && minItems > 0) values.push(Array(minItems - 1).fill(item));
      if (maxItems !== undefined) values.push(Array(maxItems).fill(item), Array(maxItems + 1).fill(item));
      values.push([null], [item, item]);
    }
  }
  return values.length > 0 ? values : ANY_FIELD_EDGES;
}

/** What edge values' array items are made with: fixed, since they only fill a list to its limit. */
const edgeContext: GenerationContext = {
  random: {
    next: () => 0.5,
    int: (min: number) => min,
    chance: () => false,
    pick: <T>(items: readonly T[]) => items[0],
  } as never,
  now: new Date('2026-11-22T10:00:00Z'),
  anchors: {},
  optionalChance: 0,
};

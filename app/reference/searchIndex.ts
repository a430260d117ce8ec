/**
 * Search over the REST reference: its operations (operationId, summary, method, path, tag), its
 * component schemas and their field names. The server builds the index from the OpenAPI document
 * (/rest-api/search.json); the browser downloads it on the first search and ranks the results
 * (app/client/referenceSearch.ts). Pure: no Node APIs, no DOM.
 */
import type { OpenApiDocument } from '../portalContext.js';
import { type Folded, fold, mergeRanges, originalRange, WORD_CHAR } from '../search/textMatch.js';
import { referenceTags } from './model.js';

/** The index as JSON, kept compact because the browser downloads it. */
export interface ReferenceIndex {
  /** Format version. */
  v: 1;
  /** Operations in the page's order (by tag): [operationId, summary, method, path, tag, anchor]. */
  o: [operationId: string, summary: string, method: string, path: string, tag: string, anchor: string][];
  /** Component schemas in the document's order: [name, field paths] (anchor `schema/<name>`). */
  s: [name: string, fields: string[]][];
}

export type ReferenceResultKind = 'operation' | 'schema' | 'field';

export interface ReferenceResult {
  kind: ReferenceResultKind;
  /** An operation's summary, a schema's name, a field's path (`location.addressId`). */
  title: string;
  /** `POST /public/offers/v1/events · PostEventOffer`, `Component schema`, `field of EventOfferCreation`. */
  detail: string;
  /** The element's id on /rest-api, without `#`. */
  anchor: string;
  /** [start, end) ranges of `title` and of `detail` to highlight, sorted, not overlapping. */
  matches: { title: [number, number][]; detail: [number, number][] };
}

/** The anchor of a component schema on /rest-api. */
export function schemaAnchor(name: string): string {
  return `schema/${name}`;
}

// Building the index

const SCHEMA_REF = '#/components/schemas/';

type SchemaNode = Record<string, unknown>;

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The properties a value of this schema may have, in the document's order: its own, those of its
 * array items, of its `$ref` target and of every `allOf`/`oneOf`/`anyOf` variant.
 */
function propertiesOf(
  node: unknown,
  schemas: Record<string, unknown>,
  seen: Set<string> = new Set(),
): Map<string, unknown> {
  const properties = new Map<string, unknown>();
  if (!isNode(node)) return properties;
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith(SCHEMA_REF)) {
    const name = ref.slice(SCHEMA_REF.length);
    if (!seen.has(name)) {
      for (const [key, value] of propertiesOf(schemas[name], schemas, new Set(seen).add(name)))
        properties.set(key, value);
    }
  }
  if (isNode(node.properties)) {
    for (const [key, value] of Object.entries(node.properties)) if (!properties.has(key)) properties.set(key, value);
  }
  const nested = [
    node.items,
    ...[node.allOf, node.oneOf, node.anyOf].flatMap((list): unknown[] => (Array.isArray(list) ? list : [])),
  ];
  for (const child of nested) {
    for (const [key, value] of propertiesOf(child, schemas, seen)) if (!properties.has(key)) properties.set(key, value);
  }
  return properties;
}

/** A schema's field paths at the first two levels: `location`, `location.addressId`… */
export function schemaFields(schema: unknown, schemas: Record<string, unknown>, name?: string): string[] {
  const fields = new Set<string>();
  const seen = new Set<string>(name ? [name] : []);
  for (const [key, value] of propertiesOf(schema, schemas, seen)) {
    fields.add(key);
    for (const child of propertiesOf(value, schemas, seen).keys()) fields.add(`${key}.${child}`);
  }
  return [...fields];
}

/** The index of a document: every operation the reference renders and every component schema. */
export function buildReferenceIndex(document: OpenApiDocument): ReferenceIndex {
  const schemas = document.components?.schemas ?? {};
  return {
    v: 1,
    o: referenceTags(document).flatMap((tag) =>
      tag.operations.map((operation): ReferenceIndex['o'][number] => [
        operation.operationId,
        operation.summary,
        operation.method,
        operation.path,
        tag.name,
        operation.anchor,
      ]),
    ),
    s: Object.entries(schemas).map(([name, schema]): ReferenceIndex['s'][number] => [
      name,
      schemaFields(schema, schemas, name),
    ]),
  };
}

// Searching: every word of the query (split at spaces) must occur, case- and accent-insensitively,
// as a substring (so that `/v2/collective/offers`, `idatprov` or `event` in `PostEventOffer` match).

/** Where a word may be found in an entry, and how much a match there weighs. */
interface Haystack {
  text: Folded;
  plain: string;
  /** Which displayed string it is part of (null: searched, not shown), and where it starts there. */
  shown: 'title' | 'detail' | null;
  offset: number;
  /** A query must match at least one primary haystack (a field is not found by its schema's name alone). */
  primary: boolean;
  /** What a match here is multiplied by: the title most, then the other names, then the rest. */
  weight: number;
}

interface Entry {
  kind: ReferenceResultKind;
  title: string;
  detail: string;
  anchor: string;
  /** Folded names that, equal to the whole query, put the entry first (an operationId, a path, a schema's name). */
  names: string[];
  haystacks: Haystack[];
}

const TIER: Record<ReferenceResultKind, number> = { operation: 0, schema: 1, field: 2 };

function haystack(plain: string, shown: Haystack['shown'], offset: number, primary = true): Haystack {
  return { text: fold(plain), plain, shown, offset, primary, weight: !primary ? 1 : shown === 'title' ? 3 : 2 };
}

const prepared = new WeakMap<ReferenceIndex, Entry[]>();

function prepare(index: ReferenceIndex): Entry[] {
  let entries = prepared.get(index);
  if (entries) return entries;
  entries = [];
  for (const [operationId, summary, method, path, tag, anchor] of index.o) {
    const detail = `${method} ${path} · ${operationId}`;
    entries.push({
      kind: 'operation',
      title: summary,
      detail,
      anchor,
      names: [fold(operationId).folded, fold(path).folded],
      haystacks: [
        haystack(operationId, 'detail', method.length + path.length + 4),
        haystack(summary, 'title', 0),
        haystack(path, 'detail', method.length + 1),
        haystack(method, 'detail', 0, false),
        haystack(tag, null, 0, false),
      ],
    });
  }
  for (const [name] of index.s) {
    entries.push({
      kind: 'schema',
      title: name,
      detail: 'Component schema',
      anchor: schemaAnchor(name),
      names: [fold(name).folded],
      haystacks: [haystack(name, 'title', 0)],
    });
  }
  for (const [name, fields] of index.s) {
    const detail = `field of ${name}`;
    for (const field of fields) {
      entries.push({
        kind: 'field',
        title: field,
        detail,
        anchor: schemaAnchor(name),
        names: [],
        haystacks: [haystack(field, 'title', 0), haystack(name, 'detail', 9, false)],
      });
    }
  }
  prepared.set(index, entries);
  return entries;
}

/** The query's words, folded: split at white space, duplicates dropped. */
export function referenceQueryWords(query: string): string[] {
  return [...new Set(fold(query).folded.split(/\s+/).filter(Boolean))];
}

/** Whether position `i` of `plain` starts a word: after a separator, or a capital after a small letter or digit (camelCase). */
function startsWord(plain: string, i: number): boolean {
  if (i === 0) return true;
  const before = plain[i - 1];
  if (!WORD_CHAR.test(before)) return true;
  const char = plain[i];
  return char !== char.toLowerCase() && before === before.toLowerCase() && WORD_CHAR.test(char);
}

/** Whether position `i` of `plain` ends a word: at the end, before a separator, or before a capital (camelCase). */
function endsWord(plain: string, i: number): boolean {
  return i >= plain.length || !WORD_CHAR.test(plain[i]) || startsWord(plain, i);
}

// How well a word matches a haystack: all of it, one of its words, the start of one, or inside one.
const WHOLE = 4;
const WORD = 3;
const WORD_START = 2;
const INSIDE = 1;

function quality(stack: Haystack, word: string): { score: number; position: number } | null {
  const { folded } = stack.text;
  let best: { score: number; position: number } | null = null;
  for (let i = folded.indexOf(word); i >= 0; i = folded.indexOf(word, i + 1)) {
    const [from, to] = originalRange(stack.text, stack.plain, i, word.length);
    const score =
      folded.length === word.length
        ? WHOLE
        : !startsWord(stack.plain, from)
          ? INSIDE
          : endsWord(stack.plain, to)
            ? WORD
            : WORD_START;
    if (!best || score > best.score) best = { score, position: i };
    if (score >= WORD) break;
  }
  return best;
}

/**
 * The entries where every word of the query occurs, best first: an entry whose name is the whole
 * query (an operationId, a path, a schema's name); then operations (operationId,
 * summary, path, method, tag), schemas by name, then fields; within each, words found as a whole
 * name, then as a word, then at the start of a word (camelCase included), then inside one, in the
 * title (an operation's summary) rather than another name, rather than a method, tag or a field's
 * schema; then the shortest title (the closest match);
 * then earliest; then in the page's order.
 */
export function searchReference(index: ReferenceIndex, query: string, limit = 10): ReferenceResult[] {
  const words = referenceQueryWords(query);
  if (words.length === 0 || limit <= 0) return [];
  const whole = words.join(' ');
  const found: { entry: Entry; exact: boolean; score: number; position: number; order: number }[] = [];
  prepare(index).forEach((entry, order) => {
    let score = 0;
    let position = 0;
    let primary = false;
    for (const word of words) {
      let best: { score: number; position: number } | null = null;
      for (const stack of entry.haystacks) {
        const hit = quality(stack, word);
        // A secondary haystack (method, tag, a field's schema) counts for less than a name, and never as a whole.
        const weighted = hit && {
          score: (stack.primary ? hit.score : Math.min(hit.score, WORD_START)) * stack.weight,
          position: hit.position,
        };
        if (weighted && (!best || weighted.score > best.score)) best = weighted;
        if (hit && stack.primary) primary = true;
      }
      if (!best) return;
      score += best.score;
      position += best.position;
    }
    if (!primary) return;
    found.push({ entry, exact: entry.names.includes(whole), score, position, order });
  });
  found.sort(
    (a, b) =>
      Number(b.exact) - Number(a.exact) ||
      TIER[a.entry.kind] - TIER[b.entry.kind] ||
      b.score - a.score ||
      a.entry.title.length - b.entry.title.length ||
      a.position - b.position ||
      a.order - b.order,
  );
  return found.slice(0, limit).map(({ entry }) => ({
    kind: entry.kind,
    title: entry.title,
    detail: entry.detail,
    anchor: entry.anchor,
    matches: highlights(entry, words),
  }));
}

/** Every occurrence of every word in the shown haystacks, as ranges of the title and the detail. */
function highlights(entry: Entry, words: string[]): ReferenceResult['matches'] {
  const ranges: ReferenceResult['matches'] = { title: [], detail: [] };
  for (const stack of entry.haystacks) {
    if (!stack.shown) continue;
    for (const word of words) {
      for (let i = stack.text.folded.indexOf(word); i >= 0; i = stack.text.folded.indexOf(word, i + word.length)) {
        const [from, to] = originalRange(stack.text, stack.plain, i, word.length);
        ranges[stack.shown].push([from + stack.offset, to + stack.offset]);
      }
    }
  }
  return { title: mergeRanges(ranges.title), detail: mergeRanges(ranges.detail) };
}

import type { InlineCode, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { splitFrontMatter } from '../../../app/docs/markdown.server.js';
import { LimitCode } from '../../../server/graphqlCost/policy.js';
import { SERVICE_UNAVAILABLE_CODE } from '../../../server/subgraphs/remoteDataSource.js';
import type { ApiNames } from './apiNames.js';

export interface CodeSpan {
  file: string;
  line: number;
  text: string;
}

/** The inline code spans of a page (fenced blocks are samples, checked by running them). */
export function inlineCodeSpans(source: string, file: string): CodeSpan[] {
  const { body } = splitFrontMatter(source, file);
  const lineOffset = source.slice(0, source.length - body.length).split('\n').length - 1;
  const spans: CodeSpan[] = [];
  visit(unified().use(remarkParse).use(remarkGfm).parse(body) as Root, 'inlineCode', (node: InlineCode) => {
    spans.push({ file, line: (node.position?.start.line ?? 0) + lineOffset, text: node.value.trim() });
  });
  return spans;
}

/** Names the docs may use that the REST document cannot hold, each with its reason. */
const ALLOWED: Record<string, string> = {
  Authorization: 'the request header of the bearer scheme (securitySchemes.ApiKeyAuth)',
  Bearer: 'the scheme of that header',
  '/graphql': 'the federated graph, outside the REST document',
  // The messages the platform sends to a provider's URLs (graphql/bookings/messages.ts) and the
  // answers its ticketing system gives: a contract of their own, outside the REST document.
  action: 'the kind of a booking message',
  BOOK: 'a value of action',
  CANCEL: 'a value of action',
  barcodes: 'the tickets a cancellation message names',
  error: "a ticketing system's refusal (sold_out, not_enough_seats)",
  '409': 'the status a ticketing system answers when it is sold out',
  // The refusals of /graphql before an operation runs (decision 017): GraphQL errors, not REST answers.
  ...Object.fromEntries(Object.values(LimitCode).map((code) => [code, 'a code of a /graphql refusal'])),
  [SERVICE_UNAVAILABLE_CODE]: 'the code of /graphql fields whose service does not answer (decision 020)',
  GRAPHQL_VALIDATION_FAILED: "Apollo Server's code of a document the caller's schema refuses (decision 033)",
};

/** Statuses every operation can answer, which the document does not repeat on each. */
const PLATFORM_STATUSES = new Set(['401', '404', '413', '422', '429', '500', '503']);

/**
 * Spans that are plainly not API names: values, code, commands, files, headers. Each test is a
 * shape, never a list of words, so that a misspelt name does not pass as "not a name".
 */
const NOT_A_NAME: { shape: RegExp; why: string }[] = [
  { shape: /^"/, why: 'a JSON string' },
  { shape: /^https?:\/\//, why: 'a URL' },
  { shape: /^\$|^[^/].*\$\{/, why: 'a shell or JavaScript expression' },
  { shape: /^--|^[a-z]+(-[a-z]+)+(\s|$)|^npm\s/, why: 'a command or an option of the CLI' },
  { shape: /^(echo|printf|curl|jq|openssl|bash|node|python3|php|npm)$/, why: 'a program the samples run' },
  { shape: /…|\.\.\./, why: 'an elided value' },
  { shape: /^[\w-]+(\/[\w.-]+)*\.(json|sqlite|md|ts|mjs|js|py|php)$|^[a-z][\w-]*\/[\w./-]+$/, why: 'a file' },
  { shape: /^[A-Z][A-Za-z]*(-[A-Z][A-Za-z]*)+$/, why: 'an HTTP header' },
  { shape: /^(GET|POST|PUT|PATCH|DELETE)$/, why: 'an HTTP method' },
  { shape: /^@[a-z][\w-]*\/[a-z][\w.-]*$/, why: 'a package of a registry' },
  { shape: /^[a-z]+_([0-9a-f]{12}_?)?$/, why: "an API key's public name, or the environment it starts with" },
  { shape: /^-?\d+(\.\d+)?$/, why: 'a number' },
  { shape: /^\+\d{6,15}$/, why: 'a phone number in its international form' },
  { shape: /^\d{4}-\d\d-\d\d(T[\d:.]+(Z|[+-]\d\d:\d\d)?)?$/, why: 'a date' },
  { shape: /^YYYY-MM-DD(THH:MM:SS)?$/, why: 'a date format' },
  { shape: /^(true|false|null)$/, why: 'a JSON literal' },
  { shape: /^\dxx$/, why: 'a class of statuses' },
  {
    shape: /^[0-9a-f]{8,}$|^\d{7}[A-Z]$|^\d{13,14}$|^NC\d{7}(\d{3}XX)?$/,
    why: 'an identifier value (key prefix, UAI, EAN, SIRET, RIDET)',
  },
  { shape: /;|=$/, why: 'a header value or its prefix' },
  // eslint-disable-next-line no-control-regex -- every character outside ASCII, from NUL up
  { shape: /^(\\u[0-9a-fA-F]{4}|[^\x00-\x7f]+)$/, why: 'a character or its escape' },
];

/** `METHOD /path`, the path maybe after the samples' host variable (`GET $HOST/public/...`). */
const HTTP_METHOD = /^(GET|POST|PUT|PATCH|DELETE) (?:\$\{?\w+\}?)?(\/[^\s?]*)(\?\S*)?$/;

/** A path of the docs against the document's templates: `{x}`, `${X}` and `$X` stand for one segment. */
function pathMatches(path: string, names: ApiNames, method?: string): boolean {
  const segments = (value: string) => value.replace(/\/$/, '').split('/');
  const wanted = segments(path.replace(/\/\.\.\.$/, ''));
  const prefixOnly = path.endsWith('/...') || path.endsWith('/*');
  const isVariable = (segment: string) => /^(\{\w+\}|\$\{\w+\}|\$\w+)$/.test(segment);
  return names.operations.some((operation) => {
    if (method && operation.method !== method) return false;
    const template = segments(operation.path);
    const same = (offset: number) =>
      wanted.every((segment, index) => {
        const other = template[index + offset];
        return other !== undefined && (segment === other || (isVariable(segment) && isVariable(other)));
      });
    if (method) return template.length === wanted.length && same(0);
    if (prefixOnly || wanted.length < template.length) {
      // A prefix (`/v2/collective`) or the last segments of one (`/pending`).
      return same(0) || (wanted[0] === '' && wanted.length === 2 && template.at(-1) === wanted[1]);
    }
    return template.length === wanted.length && same(0);
  });
}

function isName(word: string, names: ApiNames): boolean {
  return (
    names.fields.has(word) ||
    names.enumValues.has(word) ||
    names.operationIds.has(word) ||
    names.schemas.has(word) ||
    names.graphqlFields.has(word) ||
    names.environmentVariables.has(word) ||
    names.referenceValues.has(word)
  );
}

/** The words of a page's fenced blocks: a span quoting the page's own sample code names that code. */
export function fencedCodeWords(source: string): Set<string> {
  const words = new Set<string>();
  visit(unified().use(remarkParse).parse(source) as Root, 'code', (node: { value: string }) => {
    for (const word of node.value.match(/[A-Za-z_]\w*/g) ?? []) words.add(word);
  });
  return words;
}

/**
 * Why a code span names something the API does not have, or null when it is fine or not a name.
 * `pageCode`: the words of the page's fenced blocks (see fencedCodeWords).
 */
export function problemWithSpan(text: string, names: ApiNames, pageCode: Set<string> = new Set()): string | null {
  if (text in ALLOWED || /^https?:\/\//.test(text)) return null;
  if (/^\d{3}$/.test(text)) {
    return names.statuses.has(text) || PLATFORM_STATUSES.has(text)
      ? null
      : `status ${text} is declared by no operation`;
  }
  const operation = HTTP_METHOD.exec(text);
  if (operation) return pathMatches(operation[2], names, operation[1]) ? null : `no operation ${text}`;
  if (text.startsWith('/')) return pathMatches(text.split('?')[0], names) ? null : `no path ${text}`;
  // `name: value`, `"name": value` and `name=value`: the name must exist.
  const pair = /^"?([A-Za-z_][\w.]*)"?\s*(?::|=)\s*(\S+)$/.exec(text);
  if (pair) {
    const problem = problemWithSpan(pair[1], names);
    const value = /^"?([A-Z][A-Z0-9_]+)"?$/.exec(pair[2])?.[1];
    return problem ?? (value && !names.enumValues.has(value) ? `no enum value ${value}` : null);
  }
  // A JSON snippet: its keys are names (`{"stock.price": [...]}` names stock and price).
  if (/^[{[]/.test(text)) {
    const keys = [...text.matchAll(/"([^"]+)"\s*:/g)].flatMap((match) => match[1].split('.'));
    const unknown = keys.filter(
      (key) => !/^\d+$/.test(key) && !isName(key, names) && !pageCode.has(key) && !(key in ALLOWED),
    );
    return unknown.length === 0 ? null : `no field ${[...new Set(unknown)].join(', ')} (in ${text})`;
  }
  if (NOT_A_NAME.some(({ shape }) => shape.test(text))) return null;
  if (/\s/.test(text)) return null; // prose: a message or a phrase quoted from an answer
  if (/^[A-Za-z_]\w*(\.\w+)+$/.test(text)) {
    const segments = text.split('.').filter((segment) => !/^\d+$/.test(segment));
    if (segments.every((segment) => pageCode.has(segment))) return null;
    const unknown = segments.filter((segment) => !isName(segment, names));
    return unknown.length === 0 ? null : `no field ${unknown.join(', ')} (in ${text})`;
  }
  if (/^[A-Za-z_]\w*$/.test(text))
    return isName(text, names) || pageCode.has(text) ? null : `no field, enum value, operation or schema named ${text}`;
  // An enum value with a hyphen (`SPECTACLE_MUSICAL-COMEDIE_MUSICALE`, a show type).
  if (names.enumValues.has(text)) return null;
  return `not a name the check understands: classify it in tests/docs/support/codeSpans.ts`;
}

import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { splitFrontMatter } from './markdown.server.js';

/**
 * The HTTP examples of a docs page, as the page marks them, so that a test can run them.
 *
 * The marking, in a fenced block's info string (after the language):
 * - `run`: a curl command the test runs against a fresh server; `status=NNN` (required) is the
 *   status the page says it answers (of the block's last request, when it makes several);
 *   `save="NAME=json.path ..."` stores values of that JSON answer (dot path, numeric segments
 *   index arrays) as environment variables for the page's later samples, in every language.
 * - `norun`: a curl command shown on purpose without being run (production URL, placeholder ids).
 *   Every shell block that calls curl carries one of the two, so that nothing slips through unmarked.
 * - `tab="..."`: consecutive labelled blocks are one group of equivalent samples (curl, JavaScript,
 *   Python, SDK): the JavaScript, Python and SDK blocks of a `run` group make the same request. An
 *   SDK block (`ts`) calls the API through the TypeScript client package (clients/typescript).
 * A group without curl whose shell block only assigns variables (`BASE_URL=...`) sets the page up:
 * its blocks are prepended to every later sample of their language. A `json` block with `file=NAME`
 * is written to that file, in the directory the samples run in, for `-d @NAME`.
 *
 * The answer a page shows after a `run` sample is the first `json` block (the body) or `http` block
 * (status line, headers, then the body) that follows it before the next shell block or file: the
 * test compares it with what the server answered. Any other such block there shows something else
 * (a message the platform sends, a refusal in other circumstances) and is marked `example`.
 *
 * Samples call the API at `{{BASE_URL}}` (see addresses.server.ts): the page, rendered, shows the
 * address of the server that serves it, and the test runs them against its own.
 */

export type SampleLanguage = 'shell' | 'javascript' | 'python' | 'sdk';

export interface CodeBlock {
  language: string;
  meta: string;
  code: string;
  /** The line of the opening fence in the Markdown file. */
  line: number;
  flags: Set<string>;
  attributes: Map<string, string>;
}

export interface SavedValue {
  name: string;
  path: string;
}

/** The answer a page shows after a sample: what the test compares with the real one. */
export interface ShownAnswer {
  line: number;
  /** From an `http` block: its status line's status and its headers, names in lower case. */
  status?: number;
  headers?: Record<string, string>;
  /** The body, parsed; undefined when the block shows none. */
  body?: unknown;
}

export interface RunnableSample {
  line: number;
  /** The curl command's first line, to name the sample in a report. */
  firstLine: string;
  curl: string;
  status: number;
  save: SavedValue[];
  /** The same request in other languages, from the sample's group of tabs. */
  equivalents: Partial<Record<Exclude<SampleLanguage, 'shell'>, string>>;
  /** The answer the page shows after it, if any. */
  shown?: ShownAnswer;
}

/** What a page needs before its next samples: variables, or a file to send. */
export type PageStep =
  | { kind: 'sample'; sample: RunnableSample }
  | { kind: 'setup'; line: number; code: Partial<Record<SampleLanguage, string>> }
  | { kind: 'file'; line: number; name: string; content: string };

export interface PageSamples {
  steps: PageStep[];
  /** Blocks whose marking is wrong: each one says where and why. */
  problems: string[];
  /** Blocks marked `verify`: signature-verification functions, by language. */
  verifiers: CodeBlock[];
}

/**
 * The parts of remark's syntax tree read here (the top-level @types/mdast is an older major
 * than the one remark-parse produces, so the tree is typed by what this module needs).
 */
interface MarkdownNode {
  type: string;
  children?: MarkdownNode[];
  lang?: string | null;
  meta?: string | null;
  value?: string;
  position?: { start: { line: number } };
}

const ATTRIBUTE = /([A-Za-z_][\w-]*)=(?:"([^"]*)"|'([^']*)'|([^\s"']+))/g;

function parseMeta(meta: string): { flags: Set<string>; attributes: Map<string, string> } {
  const attributes = new Map<string, string>();
  for (const match of meta.matchAll(ATTRIBUTE)) attributes.set(match[1], match[2] ?? match[3] ?? match[4] ?? '');
  const flags = new Set(meta.replace(ATTRIBUTE, ' ').split(/\s+/).filter(Boolean));
  return { flags, attributes };
}

export function languageOf(block: Pick<CodeBlock, 'language'>): SampleLanguage | null {
  if (['sh', 'bash', 'shell', 'console'].includes(block.language)) return 'shell';
  if (['js', 'javascript', 'mjs'].includes(block.language)) return 'javascript';
  if (['py', 'python'].includes(block.language)) return 'python';
  if (['ts', 'typescript'].includes(block.language)) return 'sdk';
  return null;
}

/** Whether a shell block calls curl (a word, not inside another word). */
export function callsCurl(code: string): boolean {
  return /(^|[\s;|&(])curl\s/m.test(code);
}

const ASSIGNMENT_LINE = /^\s*(export\s+)?[A-Za-z_]\w*=\S.*$|^\s*(#.*)?$/;

/** Parses `save="A=x.0.id B=y"`. */
export function parseSaves(value: string): SavedValue[] | string {
  const saves: SavedValue[] = [];
  for (const entry of value.split(/\s+/).filter(Boolean)) {
    const match = /^([A-Za-z_]\w*)=([\w-]+(?:\.[\w-]+)*)$/.exec(entry);
    if (!match) return `save entry "${entry}" is not NAME=json.path`;
    saves.push({ name: match[1], path: match[2] });
  }
  return saves;
}

/** The value at a dot path of a JSON value (numeric segments index arrays), or undefined. */
export function valueAtPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Array.isArray(current)
      ? /^\d+$/.test(segment)
        ? current[Number(segment)]
        : undefined
      : (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** A block that shows an answer: JSON, or HTTP; a JSON file to send is not one, nor a block marked to run. */
function isAnswerBlock(block: CodeBlock): boolean {
  if (block.attributes.has('file') || block.flags.has('run') || block.flags.has('norun')) return false;
  return block.language === 'json' || block.language === 'http';
}

const STATUS_LINE = /^HTTP\/[\d.]+ (\d{3})\b/;

/** The answer a block shows, or what is wrong with it. */
function parseShownAnswer(block: CodeBlock): ShownAnswer | string {
  let text = block.code;
  const shown: ShownAnswer = { line: block.line };
  if (block.language === 'http') {
    const [head, ...rest] = text.split(/\r?\n\r?\n/);
    const [statusLine, ...headerLines] = head.split(/\r?\n/);
    const status = STATUS_LINE.exec(statusLine)?.[1];
    if (!status) return 'an http block starts with a status line (HTTP/1.1 200 OK)';
    shown.status = Number(status);
    shown.headers = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      if (colon < 1) return `"${line}" is not a header line (Name: value)`;
      shown.headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    text = rest.join('\n\n');
  }
  if (text.trim() === '') return shown;
  try {
    shown.body = JSON.parse(text);
  } catch (error) {
    return `the answer shown is not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  return shown;
}

/** Fenced blocks in document order, consecutive labelled ones grouped as the renderer groups them. */
function blockGroups(root: MarkdownNode, lineOffset: number): CodeBlock[][] {
  const groups: CodeBlock[][] = [];
  const visit = (children: MarkdownNode[]) => {
    let current: CodeBlock[] | null = null;
    for (const node of children) {
      if (node.type !== 'code') {
        current = null;
        if (node.children) visit(node.children);
        continue;
      }
      const { flags, attributes } = parseMeta(node.meta ?? '');
      const block: CodeBlock = {
        language: node.lang ?? '',
        meta: node.meta ?? '',
        code: node.value ?? '',
        line: (node.position?.start.line ?? 0) + lineOffset,
        flags,
        attributes,
      };
      if (attributes.has('tab') && current) current.push(block);
      else {
        current = attributes.has('tab') ? [block] : null;
        groups.push(current ?? [block]);
      }
    }
  };
  visit(root.children ?? []);
  return groups;
}

/** Reads a page's samples and every mistake in their marking. */
export function extractPageSamples(source: string, file: string): PageSamples {
  const { body } = splitFrontMatter(source, file);
  const lineOffset = source.slice(0, source.length - body.length).split('\n').length - 1;
  const root = unified().use(remarkParse).use(remarkGfm).parse(body) as MarkdownNode;
  const steps: PageStep[] = [];
  const problems: string[] = [];
  const verifiers: CodeBlock[] = [];
  const where = (block: CodeBlock) => `${file}:${block.line}`;

  /** The last sample, until the next shell block or file: the blocks after it may show its answer. */
  let answered: RunnableSample | null = null;
  for (const group of blockGroups(root, lineOffset)) {
    if (group.length === 1 && isAnswerBlock(group[0])) {
      const [block] = group;
      if (block.flags.has('example') || !answered) continue;
      if (answered.shown) {
        problems.push(`${where(block)}: the sample at line ${answered.line} shows one answer: mark this block example`);
        continue;
      }
      const shown = parseShownAnswer(block);
      if (typeof shown === 'string') problems.push(`${where(block)}: ${shown}`);
      else answered.shown = shown;
      continue;
    }
    if (group.some((block) => languageOf(block) === 'shell' || block.attributes.has('file'))) answered = null;
    for (const block of group) {
      if (block.flags.has('verify')) verifiers.push(block);
      const fileName = block.attributes.get('file');
      if (fileName !== undefined) steps.push({ kind: 'file', line: block.line, name: fileName, content: block.code });
    }
    const shell = group.find((block) => languageOf(block) === 'shell');
    const marked = group.filter((block) => block.flags.has('run') || block.flags.has('norun'));
    for (const block of marked) {
      if (languageOf(block) !== 'shell' || !callsCurl(block.code))
        problems.push(`${where(block)}: only a curl command can be marked run or norun`);
    }
    if (!shell) continue;
    for (const other of group.filter(
      (block) => block !== shell && languageOf(block) === 'shell' && callsCurl(block.code),
    )) {
      if (!other.flags.has('run') && !other.flags.has('norun'))
        problems.push(`${where(other)}: a curl command must be marked either run (with status=) or norun`);
    }
    if (!callsCurl(shell.code)) {
      const setsUp = shell.code.split('\n').every((line) => ASSIGNMENT_LINE.test(line));
      if (setsUp && group.length > 1) {
        const code: Partial<Record<SampleLanguage, string>> = {};
        for (const block of group) {
          const language = languageOf(block);
          if (language) code[language] = block.code;
        }
        steps.push({ kind: 'setup', line: shell.line, code });
      }
      continue;
    }
    const run = shell.flags.has('run');
    if (run === shell.flags.has('norun')) {
      problems.push(`${where(shell)}: a curl command must be marked either run (with status=) or norun`);
      continue;
    }
    if (!run) continue;
    const status = shell.attributes.get('status');
    if (status === undefined || !/^[1-5]\d\d$/.test(status)) {
      problems.push(`${where(shell)}: a run block needs status=NNN`);
      continue;
    }
    const save = parseSaves(shell.attributes.get('save') ?? '');
    if (typeof save === 'string') {
      problems.push(`${where(shell)}: ${save}`);
      continue;
    }
    const equivalents: RunnableSample['equivalents'] = {};
    for (const block of group) {
      const language = languageOf(block);
      if (language && language !== 'shell') equivalents[language] = block.code;
    }
    const firstLine = shell.code.split('\n').find((line) => callsCurl(`${line} `)) ?? shell.code.split('\n')[0];
    const sample: RunnableSample = {
      line: shell.line,
      firstLine: firstLine.trim(),
      curl: shell.code,
      status: Number(status),
      save,
      equivalents,
    };
    steps.push({ kind: 'sample', sample });
    answered = sample;
  }
  return { steps, problems, verifiers };
}

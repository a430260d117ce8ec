/**
 * Full-text search over the docs, shared by the server (which builds the index at build time and
 * answers /search) and the browser (which downloads the index on the first search). Pure: no Node
 * APIs, no DOM.
 */
import { type Folded, findWord, fold, mergeRanges, originalIndex, originalRange } from './textMatch.js';

/**
 * The index as JSON, kept compact because the browser downloads it: one entry per page, and one
 * per section (a page's intro, then one per heading of level 2 or 3).
 */
export interface SearchIndex {
  /** Format version. */
  v: 1;
  /** Pages in reading order: [url, title]. */
  p: [url: string, title: string][];
  /** Sections: [index into p, anchor ('' for the intro), heading ('' for the intro), plain text]. */
  s: [page: number, anchor: string, heading: string, text: string][];
}

/** One section of the index, spelt out. */
export interface SearchSection {
  /** The page's URL, with `#anchor` unless this is the page's intro. */
  url: string;
  pageTitle: string;
  /** null for the page's intro (the text before its first heading). */
  heading: string | null;
  text: string;
}

export interface SearchEntry {
  url: string;
  title: string;
  html: string;
}

export interface SearchResult {
  url: string;
  pageTitle: string;
  heading: string | null;
  snippet: string;
  /** [start, end) ranges of `snippet` to highlight, sorted, not overlapping. */
  matches: [number, number][];
}

/** Sections longer than this are cut (at a word) in the index. */
export const MAX_SECTION_TEXT = 2000;
/** About how long a result's snippet is, "…" excluded. */
export const SNIPPET_LENGTH = 160;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

// Tags that separate words; the others (code, strong, a…) are inline and join their text to their neighbours'.
const BLOCK_TAG =
  /<\/?(?:p|div|li|ul|ol|dl|dt|dd|table|thead|tbody|tfoot|tr|td|th|caption|pre|blockquote|h[1-6]|br|hr|section|details|summary|figure|figcaption|img)\b[^>]*>/gi;

/** Plain text of an HTML fragment: heading anchors ("#") dropped, tags stripped, entities decoded, whitespace collapsed. */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->|<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<a\b[^>]*\bclass="anchor"[^>]*>[\s\S]*?<\/a>/gi, '')
      .replace(BLOCK_TAG, ' ')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(' ', max);
  return text.slice(0, space > max * 0.7 ? space : max);
}

const HEADING = /<h([23])\b([^>]*)>([\s\S]*?)<\/h\1>/gi;

/** Splits every page's HTML into its intro and its sections at h2 and h3. */
export function buildSearchIndex(entries: SearchEntry[]): SearchIndex {
  const index: SearchIndex = { v: 1, p: [], s: [] };
  entries.forEach(({ url, title, html }, page) => {
    index.p.push([url, title]);
    let anchor = '';
    let heading = '';
    let from = 0;
    const flush = (to: number) =>
      index.s.push([page, anchor, heading, cut(htmlToText(html.slice(from, to)), MAX_SECTION_TEXT)]);
    for (const match of html.matchAll(HEADING)) {
      const id = /\bid="([^"]*)"/.exec(match[2])?.[1];
      if (id === undefined) continue; // A heading without an anchor cannot be linked to: it stays in its section's text.
      flush(match.index);
      anchor = decodeEntities(id);
      heading = htmlToText(match[3]);
      from = match.index + match[0].length;
    }
    flush(html.length);
  });
  return index;
}

/** Every section of the index, with its URL. */
export function searchSections(index: SearchIndex): SearchSection[] {
  return index.s.map(([page, anchor, heading, text]) => {
    const [url, pageTitle] = index.p[page];
    return { url: anchor ? `${url}#${anchor}` : url, pageTitle, heading: anchor ? heading : null, text };
  });
}

// Matching: case- and accent-insensitive, at the start of words.

/** The query's words, folded: split at anything but letters and digits, duplicates dropped. */
export function queryWords(query: string): string[] {
  return [
    ...new Set(
      fold(query)
        .folded.split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean),
    ),
  ];
}

interface Prepared {
  sections: SearchSection[];
  heading: string[];
  title: string[];
  text: Folded[];
}

const prepared = new WeakMap<SearchIndex, Prepared>();

function prepare(index: SearchIndex): Prepared {
  let ready = prepared.get(index);
  if (!ready) {
    const sections = searchSections(index);
    ready = {
      sections,
      heading: sections.map((section) => fold(section.heading ?? '').folded),
      title: sections.map((section) => fold(section.pageTitle).folded),
      text: sections.map((section) => fold(section.text)),
    };
    prepared.set(index, ready);
  }
  return ready;
}

/** Highlight ranges of `words` in text[start, end), relative to `start`, merged. */
function rangesIn(text: Folded, plain: string, words: string[], start: number, end: number): [number, number][] {
  const ranges: [number, number][] = [];
  for (const word of words) {
    for (let i = findWord(text.folded, word); i >= 0; i = findWord(text.folded, word, i + 1)) {
      const [from, to] = originalRange(text, plain, i, word.length);
      if (from >= start && to <= end) ranges.push([from - start, to - start]);
    }
  }
  return mergeRanges(ranges);
}

/** A window of about SNIPPET_LENGTH characters of the text, around `around` (an index in it), cut at words. */
function snippetOf(text: string, around: number): { snippet: string; start: number; end: number; prefix: number } {
  let start = 0;
  let end = text.length;
  if (end > SNIPPET_LENGTH) {
    start = Math.max(0, Math.min(around - 50, end - SNIPPET_LENGTH));
    if (start > 0) {
      const space = text.indexOf(' ', start - 1);
      start = space >= 0 && space < around ? space + 1 : start;
    }
    end = Math.min(text.length, start + SNIPPET_LENGTH);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > around && space > start) end = space;
    }
  }
  const before = start > 0 ? '…' : '';
  return {
    snippet: before + text.slice(start, end) + (end < text.length ? '…' : ''),
    start,
    end,
    prefix: before.length,
  };
}

// A word found in the heading weighs most, then in the page's title (on the page's intro; on its other
// sections, less than the body, so that a page whose title matches does not flood the results), then in the body.
const IN_HEADING = 12;
const IN_TITLE = 6;
const IN_BODY = 3;
const IN_TITLE_ELSEWHERE = 1;

/**
 * The sections where every word of the query starts a word (of the heading, the page's title or the
 * text), best first: matches in headings, then in page titles, then in the text, then earliest.
 */
export function searchDocs(index: SearchIndex, query: string, limit = 8): SearchResult[] {
  const words = queryWords(query);
  if (words.length === 0 || limit <= 0) return [];
  const { sections, heading, title, text } = prepare(index);
  const found: { section: number; score: number; position: number; first: number }[] = [];
  for (let section = 0; section < sections.length; section++) {
    let score = 0;
    let position = 0;
    let first = Infinity;
    for (const word of words) {
      const inHeading = findWord(heading[section], word);
      const inTitle = findWord(title[section], word);
      const inBody = findWord(text[section].folded, word);
      if (inHeading < 0 && inTitle < 0 && inBody < 0) {
        score = -1;
        break;
      }
      if (inBody >= 0) first = Math.min(first, inBody);
      const intro = sections[section].heading === null;
      if (inHeading >= 0) {
        score += IN_HEADING;
        position += inHeading;
      } else if (inTitle >= 0 && intro) {
        score += IN_TITLE;
        position += inTitle;
      } else if (inBody >= 0) {
        score += IN_BODY;
        position += inBody;
      } else {
        score += IN_TITLE_ELSEWHERE;
        position += inTitle;
      }
    }
    if (score >= 0) found.push({ section, score, position, first });
  }
  found.sort((a, b) => b.score - a.score || a.position - b.position || a.section - b.section);
  return found.slice(0, limit).map(({ section, first }) => {
    const { url, pageTitle, heading: sectionHeading, text: plain } = sections[section];
    const around = first === Infinity ? 0 : Math.min(originalIndex(text[section], first), plain.length);
    const { snippet, start, end, prefix } = snippetOf(plain, around);
    const matches = rangesIn(text[section], plain, words, start, end).map(([from, to]): [number, number] => [
      from + prefix,
      to + prefix,
    ]);
    return { url, pageTitle, heading: sectionHeading, snippet, matches };
  });
}

/**
 * Text matching shared by the docs search (app/search/searchIndex.ts) and the REST reference's
 * search (app/reference/searchIndex.ts): case- and accent-folding that keeps track of positions,
 * the start of words, and highlight ranges. Pure: no Node APIs, no DOM.
 */

// eslint-disable-next-line no-misleading-character-class -- combining marks on their own, on purpose: folding strips them
const MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
export const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Lower-cased, accents stripped; `at[i]` is the index in the original text of the character that gave `folded[i]` (null: the same index). */
export interface Folded {
  folded: string;
  at: number[] | null;
}

export function fold(text: string): Folded {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return { folded: text.toLowerCase(), at: null };
  let folded = '';
  const at: number[] = [];
  let i = 0;
  for (const char of text) {
    const part = char.normalize('NFD').replace(MARKS, '').toLowerCase();
    folded += part;
    for (let k = 0; k < part.length; k++) at.push(i);
    i += char.length;
  }
  return { folded, at };
}

/** Start of the first occurrence of `word` at the start of a word of `text`, or -1. */
export function findWord(text: string, word: string, from = 0): number {
  for (let i = text.indexOf(word, from); i >= 0; i = text.indexOf(word, i + 1)) {
    if (i === 0 || !WORD_CHAR.test(text[i - 1])) return i;
  }
  return -1;
}

/** The index in the original text of the character at `position` of the folded one. */
export function originalIndex(text: Folded, position: number): number {
  return text.at ? (text.at[position] ?? Infinity) : position;
}

/** The range [from, to) of the original `plain` text that gave folded[start, start + length). */
export function originalRange(text: Folded, plain: string, start: number, length: number): [number, number] {
  const from = text.at ? text.at[start] : start;
  const lastAt = text.at ? text.at[start + length - 1] : start + length - 1;
  return [from, lastAt + (plain.codePointAt(lastAt)! > 0xffff ? 2 : 1)];
}

/** Ranges sorted, overlapping or touching ones merged. */
export function mergeRanges(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

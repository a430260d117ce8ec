/**
 * The navbar's search box, enhanced: the index is fetched on first use, results show as you type
 * (ARIA combobox with a listbox of links, app/client/combobox.ts), Ctrl+K / Cmd+K or "/" focus it
 * (or the page's own search, on the reference). Without JavaScript the form still submits to
 * /search. Idempotent: a form already enhanced is left alone, and the document's keyboard
 * listener is added once.
 */
import { type SearchIndex, type SearchResult, searchDocs } from '../search/searchIndex.js';
import { bindSearchShortcut, createCombobox, element, highlighted } from './combobox.js';

const LIMIT = 8;

let forms = 0;
const indexes = new Map<string, Promise<SearchIndex>>();

function loadIndex(url: string): Promise<SearchIndex> {
  let index = indexes.get(url);
  if (!index) {
    index = fetch(url).then((response) => {
      if (!response.ok) throw new Error(`${response.status}`);
      return response.json() as Promise<SearchIndex>;
    });
    // A failed download is tried again on the next search.
    index.catch(() => indexes.delete(url));
    indexes.set(url, index);
  }
  return index;
}

export function initSearch(root: ParentNode): void {
  bindSearchShortcut();
  root.querySelectorAll<HTMLFormElement>('form.search[data-search-index]').forEach((form) => {
    const input = form.querySelector<HTMLInputElement>('.search__input');
    if (input && !form.dataset.enhanced) enhance(form, input);
  });
}

function enhance(form: HTMLFormElement, input: HTMLInputElement): void {
  form.dataset.enhanced = 'true';
  const indexUrl = form.dataset.searchIndex!;
  const shortcut = form.querySelector('.search__shortcut');
  if (shortcut && /Mac|iPhone|iPad/.test(navigator.userAgent)) shortcut.textContent = '⌘ K';
  createCombobox<SearchIndex, SearchResult>({
    container: form,
    input,
    block: 'search',
    listboxId: `search-results-${++forms}`,
    listboxLabel: 'Search results',
    load: () => loadIndex(indexUrl),
    search: (index, query) => searchDocs(index, query, LIMIT),
    renderOption(option, result) {
      option.href = result.url;
      option.append(element('span', 'search__page', result.pageTitle));
      if (result.heading) option.append(element('span', 'search__heading', result.heading));
      option.append(highlighted('search__snippet', result.snippet, result.matches));
    },
    unavailable: 'Search is unavailable: the index could not be loaded.',
  });
}

/**
 * The navbar's search box, enhanced: the index is fetched on first use, results show as you type
 * (ARIA combobox with a listbox of links), Ctrl+K / Cmd+K or "/" focus it. Without JavaScript the
 * form still submits to /search. Idempotent: a form already enhanced is left alone, and the
 * document's keyboard listener is added once.
 */
import { type SearchIndex, type SearchResult, searchDocs } from '../search/searchIndex.js';

const LIMIT = 8;

let keysBound = false;
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

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || !!target.closest('input, textarea, select'));
}

function onDocumentKey(event: KeyboardEvent): void {
  const input = document.querySelector<HTMLInputElement>('form.search .search__input');
  if (!input || event.defaultPrevented || event.altKey) return;
  // Chrome's autofill sends keydown events without a key.
  const shortcut = (event.ctrlKey || event.metaKey) && (event.key || '').toLowerCase() === 'k';
  if (shortcut || (event.key === '/' && !event.ctrlKey && !event.metaKey && !isEditable(event.target))) {
    event.preventDefault();
    input.focus();
    input.select();
  }
}

export function initSearch(root: ParentNode): void {
  if (!keysBound) {
    keysBound = true;
    document.addEventListener('keydown', onDocumentKey);
  }
  root.querySelectorAll<HTMLFormElement>('form.search[data-search-index]').forEach((form) => {
    const input = form.querySelector<HTMLInputElement>('.search__input');
    if (input && !form.dataset.enhanced) enhance(form, input);
  });
}

function enhance(form: HTMLFormElement, input: HTMLInputElement): void {
  form.dataset.enhanced = 'true';
  const id = `search-results-${++forms}`;
  const indexUrl = form.dataset.searchIndex!;

  // Announces the number of results; always in the page, since a live region must exist before it speaks.
  const status = element('p', 'visually-hidden');
  status.setAttribute('role', 'status');
  const panel = element('div', 'search__panel');
  const message = element('p', 'search__message');
  const listbox = element('div', 'search__results');
  listbox.id = id;
  listbox.setAttribute('role', 'listbox');
  listbox.setAttribute('aria-label', 'Search results');
  panel.append(message, listbox);
  panel.hidden = true;
  form.append(status, panel);

  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', id);
  input.setAttribute('aria-expanded', 'false');

  const shortcut = form.querySelector('.search__shortcut');
  if (shortcut && /Mac|iPhone|iPad/.test(navigator.userAgent)) shortcut.textContent = '⌘ K';

  let options: HTMLAnchorElement[] = [];
  let active = -1;
  let searched = '';

  function setActive(next: number): void {
    options[active]?.setAttribute('aria-selected', 'false');
    active = next;
    const option = options[active];
    if (option) {
      option.setAttribute('aria-selected', 'true');
      option.scrollIntoView({ block: 'nearest' });
      input.setAttribute('aria-activedescendant', option.id);
    } else input.removeAttribute('aria-activedescendant');
  }

  /** Opens the panel with these results, or with `text` alone when there are none. */
  function show(text: string, results: SearchResult[]): void {
    options = results.map((result, i) => {
      const option = element('a', 'search__result');
      option.href = result.url;
      option.id = `${id}-${i}`;
      option.setAttribute('role', 'option');
      option.setAttribute('aria-selected', 'false');
      const snippet = element('span', 'search__snippet');
      let from = 0;
      for (const [start, end] of result.matches) {
        snippet.append(result.snippet.slice(from, start), element('mark', '', result.snippet.slice(start, end)));
        from = end;
      }
      snippet.append(result.snippet.slice(from));
      option.append(element('span', 'search__page', result.pageTitle));
      if (result.heading) option.append(element('span', 'search__heading', result.heading));
      option.append(snippet);
      return option;
    });
    active = -1;
    input.removeAttribute('aria-activedescendant');
    listbox.replaceChildren(...options);
    listbox.hidden = !options.length;
    message.textContent = results.length ? '' : text;
    message.hidden = results.length > 0;
    status.textContent = text;
    panel.hidden = false;
    input.setAttribute('aria-expanded', String(options.length > 0));
  }

  // Hides the results without removing them: a link pressed must stay in the document to be followed.
  function close(): void {
    panel.hidden = true;
    setActive(-1);
    options = [];
    searched = '';
    status.textContent = '';
    input.setAttribute('aria-expanded', 'false');
  }

  function update(): void {
    const query = input.value;
    if (!query.trim()) return close();
    if (query === searched && !panel.hidden) return;
    loadIndex(indexUrl).then(
      (index) => {
        // Typing went on meanwhile (its own update shows it), or the focus left the search.
        if (input.value !== query || document.activeElement !== input) return;
        searched = query;
        const results = searchDocs(index, query, LIMIT);
        show(results.length ? `${results.length} result${results.length > 1 ? 's' : ''}` : `No results for “${query.trim()}”`, results);
      },
      () => {
        if (input.value === query && document.activeElement === input) show('Search is unavailable: the index could not be loaded.', []);
      },
    );
  }

  input.addEventListener('focus', () => {
    loadIndex(indexUrl).catch(() => {});
    update();
  });
  input.addEventListener('input', update);
  form.addEventListener('keydown', (event) => {
    const count = options.length;
    if (event.key === 'Escape' && (input.value || !panel.hidden)) {
      event.preventDefault();
      input.value = '';
      close();
      input.focus();
    }
    // The results are links in the tab order too (a scrolling panel needs something to focus); the keys below are the input's.
    if (event.target !== input) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (panel.hidden) return update();
      if (count) setActive(event.key === 'ArrowDown' ? (active + 1) % count : (active <= 0 ? count : active) - 1);
    } else if (event.key === 'Enter' && options[active]) {
      event.preventDefault();
      options[active].click();
    }
  });
  // Keeps the focus in the input when a result is pressed, so that the click that follows still lands on it.
  panel.addEventListener('mousedown', (event) => event.preventDefault());
  panel.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) close();
  });
  form.addEventListener('focusout', (event) => {
    if (!form.contains(event.relatedTarget as Node | null)) close();
  });
}

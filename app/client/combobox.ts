/**
 * The search-as-you-type box shared by the docs search (app/client/search.ts) and the REST
 * reference's search (app/client/referenceSearch.ts): an ARIA combobox whose listbox holds links
 * (`role="option"`), a live region announcing the number of results, ArrowUp/ArrowDown/Enter/Escape,
 * and the Ctrl+K / Cmd+K and "/" shortcuts.
 */

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** A span of `text` with the given [start, end) ranges in `<mark>`. */
export function highlighted(className: string, text: string, ranges: [number, number][]): HTMLSpanElement {
  const span = element('span', className);
  let from = 0;
  for (const [start, end] of ranges) {
    span.append(text.slice(from, start), element('mark', '', text.slice(start, end)));
    from = end;
  }
  span.append(text.slice(from));
  return span;
}

function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || !!target.closest('input, textarea, select'));
}

let keysBound = false;

/**
 * Ctrl+K / Cmd+K, and "/" outside a field, focus the page's search: an input marked
 * `data-search-shortcut` (a page's own search, as the reference's) or else the navbar's docs search.
 * Bound once, whatever the number of calls.
 */
export function bindSearchShortcut(): void {
  if (keysBound) return;
  keysBound = true;
  document.addEventListener('keydown', (event) => {
    const input =
      document.querySelector<HTMLInputElement>('input[data-search-shortcut]') ??
      document.querySelector<HTMLInputElement>('form.search .search__input');
    if (!input || event.defaultPrevented || event.altKey) return;
    // Chrome's autofill sends keydown events without a key.
    const shortcut = (event.ctrlKey || event.metaKey) && (event.key || '').toLowerCase() === 'k';
    if (shortcut || (event.key === '/' && !event.ctrlKey && !event.metaKey && !isEditable(event.target))) {
      event.preventDefault();
      input.focus();
      input.select();
    }
  });
}

export interface ComboboxOptions<Data, Result> {
  /** Holds the input; the live region and the panel are appended to it, and the focus leaving it closes the results. */
  container: HTMLElement;
  input: HTMLInputElement;
  /** The CSS block of the panel's elements: `<block>__panel`, `__message`, `__results`, `__result`. */
  block: string;
  listboxId: string;
  listboxLabel: string;
  /** What the search runs on (an index, downloaded once); a rejection shows `unavailable`. */
  load(): Promise<Data>;
  search(data: Data, query: string): Result[];
  /** Fills an option (an `<a role="option">`, already given its id and class): its href and content. */
  renderOption(option: HTMLAnchorElement, result: Result): void;
  unavailable: string;
}

export interface Combobox {
  panel: HTMLElement;
  listbox: HTMLElement;
  close(): void;
}

/** Turns the input into the combobox; the caller makes sure this happens once per input. */
export function createCombobox<Data, Result>(options: ComboboxOptions<Data, Result>): Combobox {
  const { container, input, block, listboxId: id } = options;

  // Announces the number of results; always in the page, since a live region must exist before it speaks.
  const status = element('p', 'visually-hidden');
  status.setAttribute('role', 'status');
  const panel = element('div', `${block}__panel`);
  const message = element('p', `${block}__message`);
  const listbox = element('div', `${block}__results`);
  listbox.id = id;
  listbox.setAttribute('role', 'listbox');
  listbox.setAttribute('aria-label', options.listboxLabel);
  panel.append(message, listbox);
  panel.hidden = true;
  container.append(status, panel);

  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', id);
  input.setAttribute('aria-expanded', 'false');

  let optionElements: HTMLAnchorElement[] = [];
  let active = -1;
  let searched = '';

  function setActive(next: number): void {
    optionElements[active]?.setAttribute('aria-selected', 'false');
    active = next;
    const option = optionElements[active];
    if (option) {
      option.setAttribute('aria-selected', 'true');
      option.scrollIntoView({ block: 'nearest' });
      input.setAttribute('aria-activedescendant', option.id);
    } else input.removeAttribute('aria-activedescendant');
  }

  /** Opens the panel with these results, or with `text` alone when there are none. */
  function show(text: string, results: Result[]): void {
    optionElements = results.map((result, i) => {
      const option = element('a', `${block}__result`);
      option.id = `${id}-${i}`;
      option.setAttribute('role', 'option');
      option.setAttribute('aria-selected', 'false');
      options.renderOption(option, result);
      return option;
    });
    active = -1;
    input.removeAttribute('aria-activedescendant');
    listbox.replaceChildren(...optionElements);
    listbox.hidden = !optionElements.length;
    message.textContent = results.length ? '' : text;
    message.hidden = results.length > 0;
    status.textContent = text;
    panel.hidden = false;
    input.setAttribute('aria-expanded', String(optionElements.length > 0));
  }

  // Hides the results without removing them: a link pressed must stay in the document to be followed.
  function close(): void {
    panel.hidden = true;
    setActive(-1);
    optionElements = [];
    searched = '';
    status.textContent = '';
    input.setAttribute('aria-expanded', 'false');
  }

  function update(): void {
    const query = input.value;
    if (!query.trim()) return close();
    if (query === searched && !panel.hidden) return;
    options.load().then(
      (data) => {
        // Typing went on meanwhile (its own update shows it), or the focus left the search.
        if (input.value !== query || document.activeElement !== input) return;
        searched = query;
        const results = options.search(data, query);
        show(
          results.length
            ? `${results.length} result${results.length > 1 ? 's' : ''}`
            : `No results for “${query.trim()}”`,
          results,
        );
      },
      () => {
        if (input.value === query && document.activeElement === input) show(options.unavailable, []);
      },
    );
  }

  input.addEventListener('focus', () => {
    options.load().catch(() => {});
    update();
  });
  input.addEventListener('input', update);
  container.addEventListener('keydown', (event) => {
    const count = optionElements.length;
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
    } else if (event.key === 'Enter' && optionElements[active]) {
      event.preventDefault();
      optionElements[active].click();
    }
  });
  // Keeps the focus in the input when a result is pressed, so that the click that follows still lands on it.
  panel.addEventListener('mousedown', (event) => event.preventDefault());
  panel.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) close();
  });
  container.addEventListener('focusout', (event) => {
    if (!container.contains(event.relatedTarget as Node | null)) close();
  });

  return { panel, listbox, close };
}

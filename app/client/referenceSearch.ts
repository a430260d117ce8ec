/**
 * The reference's search (app/reference/ReferenceSearch.tsx renders it, hidden without JavaScript:
 * the left navigation leads to every operation). Here it takes the page's Ctrl+K /
 * Cmd+K and "/" shortcuts from the navbar's docs search; the index (/rest-api/search.json) is
 * fetched on first use; results (operations, schemas, fields) show as you type in the same
 * combobox as the docs search; choosing one moves the hash to its anchor on this page, opening
 * the `<details>` it is folded in. Idempotent: a box already enhanced carries `data-enhanced`.
 */
import { type ReferenceIndex, type ReferenceResult, searchReference } from '../reference/searchIndex.js';
import { bindSearchShortcut, createCombobox, element, highlighted } from './combobox.js';
import { openTargetedSchema } from './schemaTrees.js';

const LIMIT = 12;
const KIND_LABEL: Record<ReferenceResult['kind'], string> = {
  operation: 'Operation',
  schema: 'Schema',
  field: 'Field',
};

let index: Promise<ReferenceIndex> | undefined;

function loadIndex(url: string): Promise<ReferenceIndex> {
  if (!index) {
    const loading = fetch(url).then((response) => {
      if (!response.ok) throw new Error(`${response.status}`);
      return response.json() as Promise<ReferenceIndex>;
    });
    // A failed download is tried again on the next search.
    loading.catch(() => {
      if (index === loading) index = undefined;
    });
    index = loading;
  }
  return index;
}

/** Opens every closed `<details>` around the element, so that it can be seen. */
function reveal(target: Element): void {
  for (let details = target.closest('details'); details; details = details.parentElement?.closest('details') ?? null) {
    details.open = true;
  }
}

/** Goes to the anchor on this page: its `<details>` opened, the hash set (scrolled below the navbar by `scroll-padding-top`), the focus on it. */
export function goToAnchor(anchor: string): void {
  const target = document.getElementById(anchor);
  if (target) reveal(target);
  if (decodeURIComponent(location.hash.slice(1)) === anchor) {
    target?.scrollIntoView();
    openTargetedSchema(); // the hash is unchanged: no hashchange will load a schema's fields
  } else location.hash = anchor;
  if (!target) return;
  // Screen readers go on reading from the result chosen, not from the top of the page.
  if (!target.matches('a[href], button, input, select, textarea, [tabindex]')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

export function initReferenceSearch(root: ParentNode): void {
  bindSearchShortcut();
  root.querySelectorAll<HTMLElement>('[data-reference-search-box]').forEach((box) => {
    const input = box.querySelector<HTMLInputElement>('input[data-reference-search]');
    if (input && !box.dataset.enhanced) enhance(box, input);
  });
}

function enhance(box: HTMLElement, input: HTMLInputElement): void {
  box.dataset.enhanced = 'true';
  // Ctrl+K and "/" now lead here rather than to the navbar's docs search, which stops showing the hint.
  input.setAttribute('data-search-shortcut', '');
  document.querySelector('form.search')?.classList.add('search--shortcut-elsewhere');
  const shortcut = box.querySelector('.reference-search__shortcut');
  if (shortcut && /Mac|iPhone|iPad/.test(navigator.userAgent)) shortcut.textContent = '⌘ K';
  const indexUrl = box.dataset.referenceSearchBox || '/rest-api/search.json';

  const { listbox } = createCombobox<ReferenceIndex, ReferenceResult>({
    container: box,
    input,
    block: 'reference-search',
    listboxId: 'reference-search-results',
    listboxLabel: 'Reference search results',
    load: () => loadIndex(indexUrl),
    search: (data, query) => searchReference(data, query, LIMIT),
    renderOption(option, result) {
      option.href = `#${result.anchor}`;
      option.dataset.anchor = result.anchor;
      option.append(
        element('span', `reference-search__kind reference-search__kind--${result.kind}`, KIND_LABEL[result.kind]),
        highlighted('reference-search__title', result.title, result.matches.title),
        highlighted('reference-search__detail', result.detail, result.matches.detail),
      );
    },
    unavailable: 'Search is unavailable: the index could not be loaded.',
  });

  // The combobox closes the panel on the same click; the link's own navigation is replaced by goToAnchor.
  listbox.addEventListener('click', (event) => {
    const option = (event.target as Element).closest<HTMLAnchorElement>('a[data-anchor]');
    if (!option || event.ctrlKey || event.metaKey || event.shiftKey || event.button > 0) return;
    event.preventDefault();
    goToAnchor(option.dataset.anchor!);
  });
}

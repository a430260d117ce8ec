/** Where the page's script downloads the reference's search index (app/routes/rest-api.search[.]json.tsx). */
export const REFERENCE_SEARCH_INDEX_URL = '/rest-api/search.json';

/**
 * The reference's search box. Searching needs the script (app/client/referenceSearch.ts makes the
 * input a combobox and adds the results panel); without it the root layout's `<noscript>` style
 * hides the box (the left navigation leads to every operation), so no control that does nothing is
 * shown. Hiding it with the attribute instead would make the script's reveal push the page down on
 * a phone, where the navigation sits above the operations: a layout shift on every load.
 */
export function ReferenceSearch() {
  return (
    <div
      className="reference-search"
      role="search"
      aria-label="API reference"
      data-reference-search-box={REFERENCE_SEARCH_INDEX_URL}
    >
      <label className="reference-search__label" htmlFor="reference-search-input">
        Search the API reference
      </label>
      <div className="reference-search__field">
        <input
          id="reference-search-input"
          className="reference-search__input"
          type="search"
          placeholder="Operations, paths, schemas, fields"
          autoComplete="off"
          spellCheck={false}
          data-reference-search=""
        />
        <kbd className="reference-search__shortcut" aria-hidden="true">
          Ctrl K
        </kbd>
      </div>
    </div>
  );
}

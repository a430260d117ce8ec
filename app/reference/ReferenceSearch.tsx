/** Where the page's script downloads the reference's search index (app/routes/rest-api.search[.]json.tsx). */
export const REFERENCE_SEARCH_INDEX_URL = '/rest-api/search.json';

/**
 * The reference's search box. Rendered `hidden`: searching needs the script (app/client/referenceSearch.ts
 * shows the box, makes the input a combobox and adds the results panel); without it the left
 * navigation leads to every operation, so no control that does nothing is ever shown.
 */
export function ReferenceSearch() {
  return (
    <div className="reference-search" role="search" aria-label="API reference" data-reference-search-box={REFERENCE_SEARCH_INDEX_URL} hidden>
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

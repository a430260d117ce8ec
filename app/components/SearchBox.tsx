/**
 * The search form. Without JavaScript it submits to /search, which answers on the server; the
 * client turns it into a search-as-you-type box over the index built with the portal.
 */
export function SearchBox({ indexUrl }: { indexUrl: string | undefined }) {
  return (
    <form className="search" role="search" action="/search" method="get" data-search-index={indexUrl}>
      <label className="visually-hidden" htmlFor="search-input">
        Search the docs
      </label>
      <input
        id="search-input"
        className="search__input"
        type="search"
        name="q"
        placeholder="Search"
        autoComplete="off"
      />
      <kbd className="search__shortcut" aria-hidden="true">
        Ctrl K
      </kbd>
    </form>
  );
}

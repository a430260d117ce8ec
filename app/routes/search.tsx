import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { Fragment } from 'react';
import { SEARCH_INDEX_ADDRESSES } from '../docs/addresses.server.js';
import { DOCS_UNAVAILABLE, docsCatalogue } from '../docs/docs.server.js';
import { loadOrFail } from '../loadFailure.js';
import { pageMeta, routeMeta } from '../meta.js';
import { type SearchIndex, type SearchResult, buildSearchIndex, searchDocs } from '../search/searchIndex.js';
import { readBuiltSearchIndex, searchEntries } from '../search/searchIndex.server.js';

/** Longest query read from the URL; the rest is ignored. */
const MAX_QUERY_LENGTH = 200;
const RESULT_LIMIT = 20;

/** By the URL the build gave the index: a rebuild in development names a new one. */
const indexes = new Map<string, SearchIndex>();

/**
 * The index the browser downloads, read from the build's file: building it again from the docs
 * took the first search 1.5 s of the event loop. Both searches find the same sections. A portal
 * built without the file gets the index built alike, before any address is known.
 */
function searchIndex(url: string): SearchIndex {
  let index = indexes.get(url);
  if (!index) {
    index = readBuiltSearchIndex(url) ?? buildSearchIndex(searchEntries(docsCatalogue(SEARCH_INDEX_ADDRESSES)));
    indexes.set(url, index);
  }
  return index;
}

/** /search?q=…: the same search as the navbar's, answered on the server, so it works without JavaScript. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH).trim();
  return loadOrFail(DOCS_UNAVAILABLE, () => ({
    q,
    results: q ? searchDocs(searchIndex(context.portal.assets.searchIndex), q, RESULT_LIMIT) : [],
  }));
}

// "Search | API documentation"; result pages are not for search engines.
export const meta = routeMeta(() => [
  ...pageMeta('Search', 'Search the guides, tutorials and change log of the API documentation.'),
  { name: 'robots', content: 'noindex' },
]);

/** The snippet as text, its matches in <mark>. */
function Highlighted({ text, matches }: { text: string; matches: SearchResult['matches'] }) {
  let from = 0;
  return (
    <>
      {matches.map(([start, end]) => {
        const before = text.slice(from, start);
        from = end;
        return (
          <Fragment key={start}>
            {before}
            <mark>{text.slice(start, end)}</mark>
          </Fragment>
        );
      })}
      {text.slice(from)}
    </>
  );
}

export default function Search() {
  const { q, results } = useLoaderData<typeof loader>();
  return (
    <div className="container search-page">
      <h1>Search the documentation</h1>
      <form
        className="search-page__form"
        role="search"
        aria-label="Search the documentation"
        action="/search"
        method="get"
      >
        <label className="visually-hidden" htmlFor="search-page-input">
          Search the docs
        </label>
        <input
          id="search-page-input"
          className="search-page__input"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={MAX_QUERY_LENGTH}
          autoComplete="off"
        />
        <button className="button" type="submit">
          Search
        </button>
      </form>
      {q === '' ? (
        <p className="search-page__message">
          Type one or more words: pages whose headings, titles or text contain them all are listed.
        </p>
      ) : results.length === 0 ? (
        <p className="search-page__message">No results for “{q}”.</p>
      ) : (
        <>
          <p className="search-page__message">
            {results.length === 1 ? '1 result' : `${results.length} results`} for “{q}”
          </p>
          <ol className="search-page__results">
            {results.map((result) => (
              <li key={result.url} className="search-page__result">
                <a className="search-page__link" href={result.url}>
                  <span className="search-page__page">{result.pageTitle}</span>
                  {result.heading !== null ? (
                    <>
                      {' › '}
                      <span className="search-page__heading">{result.heading}</span>
                    </>
                  ) : null}
                </a>
                {result.snippet ? (
                  <p className="search-page__snippet">
                    <Highlighted text={result.snippet} matches={result.matches} />
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from '../components/ErrorPages.js';

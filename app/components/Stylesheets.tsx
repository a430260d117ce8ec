import type { useMatches } from '@remix-run/react';

/** What a route module exports as `handle` to have stylesheets of its own (beside the root's). */
export interface StylesheetsHandle {
  stylesheets?: string[];
}

/** The stylesheets the matched routes declare, in route order, each once. */
export function routeStylesheets(matches: ReturnType<typeof useMatches>): string[] {
  const hrefs = matches.flatMap((match) => (match.handle as StylesheetsHandle | undefined)?.stylesheets ?? []);
  return [...new Set(hrefs)];
}

/**
 * The page's CSS, written into the page: a fresh visit paints as soon as its HTML is parsed,
 * instead of waiting for one request per stylesheet (measured on /rest-api: 30 to 45 ms earlier;
 * all of the portal's CSS is 9 KB gzip). `data-href` names the fingerprinted file, so
 * navigation without reloads still sees when the next page needs styles this one lacks. A file
 * whose text the build did not record is linked instead.
 */
export function Stylesheets({ hrefs, texts }: { hrefs: string[]; texts: Record<string, string> | undefined }) {
  return (
    <>
      {hrefs.map((href) =>
        texts?.[href] === undefined ? (
          <link key={href} rel="stylesheet" href={href} />
        ) : (
          <style key={href} data-href={href} dangerouslySetInnerHTML={{ __html: texts[href] }} />
        ),
      )}
    </>
  );
}

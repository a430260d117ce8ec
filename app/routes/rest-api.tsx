import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import type { StylesheetsHandle } from '../components/Stylesheets.js';
import { loadOrFail } from '../loadFailure.js';
import { pageMeta, routeMeta } from '../meta.js';
import { referenceHtml } from '../reference/render.server.js';
import referenceStylesHref from '../styles/reference.css';
import referenceSearchStylesHref from '../styles/referenceSearch.css';
import tryItStylesHref from '../styles/tryIt.css';

/** The reference's styles come with this page only: the page, its search box, its try-it consoles. */
export const handle: StylesheetsHandle = {
  stylesheets: [referenceStylesHref, referenceSearchStylesHref, tryItStylesHref],
};

/**
 * The reference rendered from the document the server generates (app/reference/ReferencePage.tsx),
 * once per document: loader data never reaches the browser (decision 009), only this markup.
 */
export function loader({ context }: LoaderFunctionArgs) {
  return loadOrFail('The API reference could not be loaded.', () => ({
    html: referenceHtml(context.portal.openApiDocument),
  }));
}

export const meta = routeMeta(() =>
  pageMeta('REST API', 'Every operation of the provider REST API, from the OpenAPI 3.1 document the server generates.'),
);

/** The API reference: every operation and schema of the document, complete without JavaScript. */
export default function RestApi() {
  const { html } = useLoaderData<typeof loader>();
  // `data-reference`: the client loads the reference's chunk (app/client/reference.ts) on this page.
  return <div className="reference" data-reference="" dangerouslySetInnerHTML={{ __html: html }} />;
}

export { RouteErrorBoundary as ErrorBoundary } from '../components/ErrorPages.js';

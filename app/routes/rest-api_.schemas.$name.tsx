import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import type { StylesheetsHandle } from '../components/Stylesheets.js';
import { loadOrFail } from '../loadFailure.js';
import { pageMeta, routeMeta } from '../meta.js';
import { schemaPageHtml } from '../reference/render.server.js';
import referenceStylesHref from '../styles/reference.css';

export const handle: StylesheetsHandle = { stylesheets: [referenceStylesHref] };

/**
 * One schema of the reference on a page of its own: where the reference's folded levels lead a
 * reader without JavaScript (with it, they load in place from .../fragment). 404 for an unknown name.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const name = params.name ?? '';
  const html = await loadOrFail('The schema could not be loaded.', () =>
    schemaPageHtml(context.portal.openApiDocument, name),
  );
  if (html === null) throw new Response(`No schema named ${name}.`, { status: 404 });
  return { name, html };
}

export const meta = routeMeta((data: { name: string }) =>
  pageMeta(`${data.name} schema`, `The fields of the ${data.name} schema of the provider REST API.`),
);

export default function SchemaPage() {
  const { html } = useLoaderData<typeof loader>();
  // `data-reference`: the client's reference chunk loads the deeper levels in place.
  return <div className="container schema-page" data-reference="" dangerouslySetInnerHTML={{ __html: html }} />;
}

export { RouteErrorBoundary as ErrorBoundary } from '../components/ErrorPages.js';

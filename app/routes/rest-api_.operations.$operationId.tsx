import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import type { StylesheetsHandle } from '../components/Stylesheets.js';
import { loadOrFail } from '../loadFailure.js';
import { pageMeta, routeMeta } from '../meta.js';
import { operationSamplesPageHtml, referenceOperation } from '../reference/render.server.js';
import referenceStylesHref from '../styles/reference.css';
import tryItStylesHref from '../styles/tryIt.css';

export const handle: StylesheetsHandle = { stylesheets: [referenceStylesHref, tryItStylesHref] };

/**
 * One operation's samples and try-it console on a page of their own: where the reference's
 * right column leads a reader without JavaScript (with it, they load in place from .../samples).
 * 404 for an unknown operationId.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const operationId = params.operationId ?? '';
  const html = await loadOrFail('The operation could not be loaded.', () =>
    operationSamplesPageHtml(context.portal.openApiDocument, operationId),
  );
  const operation = referenceOperation(context.portal.openApiDocument, operationId);
  if (html === null || !operation) throw new Response(`No operation ${operationId}.`, { status: 404 });
  return { summary: operation.summary, html };
}

export const meta = routeMeta((data: { summary: string }) =>
  pageMeta(`${data.summary}: samples`, `Request samples, a response example and a try-it console: ${data.summary}.`),
);

export default function OperationSamplesPage() {
  const { html } = useLoaderData<typeof loader>();
  // `data-reference`: the client's reference chunk writes the other languages' samples and runs the console.
  return <div className="container schema-page" data-reference="" dangerouslySetInnerHTML={{ __html: html }} />;
}

export { RouteErrorBoundary as ErrorBoundary } from '../components/ErrorPages.js';

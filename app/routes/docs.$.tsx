import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { DocPage } from '../components/DocPage.js';
import { DOCS_UNAVAILABLE, type DocPageData, docPageData } from '../docs/docs.server.js';
import { loadOrFail } from '../loadFailure.js';
import { pageMeta, routeMeta } from '../meta.js';

export function loader({ params, context }: LoaderFunctionArgs) {
  // `/docs/` itself is the landing's route; an empty splat here is not a page.
  const path = params['*'] ?? '';
  if (path === '') throw new Response('Not Found', { status: 404 });
  return loadOrFail(DOCS_UNAVAILABLE, () => docPageData(path, context.portal.addresses));
}

export const meta = routeMeta<DocPageData>(({ frontMatter }) => pageMeta(frontMatter.title, frontMatter.description));

export default function DocsPage() {
  return <DocPage page={useLoaderData<typeof loader>()} />;
}

export { RouteErrorBoundary as ErrorBoundary } from '../components/ErrorPages.js';

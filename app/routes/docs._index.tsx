import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { DocPage } from '../components/DocPage.js';
import { DOCS_UNAVAILABLE, type DocPageData, docPageData } from '../docs/docs.server.js';
import { loadOrFail } from '../loadFailure.js';
import { pageMeta, routeMeta } from '../meta.js';

export const loader = ({ context }: LoaderFunctionArgs) =>
  loadOrFail(DOCS_UNAVAILABLE, () => docPageData('', context.portal.addresses));

export const meta = routeMeta<DocPageData>(({ frontMatter }) => pageMeta(frontMatter.title, frontMatter.description));

export default function DocsLanding() {
  return <DocPage page={useLoaderData<typeof loader>()} />;
}

export { RouteErrorBoundary as ErrorBoundary } from '../components/ErrorPages.js';

import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { DOCS_UNAVAILABLE, docsCatalogue } from '../docs/docs.server.js';
import { loadOrFail } from '../loadFailure.js';
import { pageMeta, routeMeta } from '../meta.js';

export const loader = ({ context }: LoaderFunctionArgs) =>
  loadOrFail(DOCS_UNAVAILABLE, () => {
    const { frontMatter, html } = docsCatalogue(context.portal.addresses).changeLog;
    return { frontMatter, html };
  });

export const meta = routeMeta<Awaited<ReturnType<typeof loader>>>(({ frontMatter }) =>
  pageMeta(frontMatter.title, frontMatter.description),
);

export default function ChangeLogs() {
  const { frontMatter, html } = useLoaderData<typeof loader>();
  return (
    <div className="container doc">
      <h1>{frontMatter.title}</h1>
      <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from '../components/ErrorPages.js';

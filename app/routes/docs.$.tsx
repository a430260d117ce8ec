import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { DocLayout } from '../components/DocLayout.js';
import { docsCatalogue, sidebarNodes } from '../docs/docs.server.js';
import { siteTitle } from '../site.js';

export function loader({ params }: LoaderFunctionArgs) {
  const page = docsCatalogue().pages.get(params['*'] ?? '');
  if (!page || !params['*']) throw new Response('Not Found', { status: 404 });
  return { frontMatter: page.frontMatter, html: page.html, toc: page.toc, sidebar: sidebarNodes() };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? [{ title: `${data.frontMatter.title} | ${siteTitle}` }, { name: 'description', content: data.frontMatter.description }]
    : [];

export default function DocPage() {
  const { frontMatter, html, toc, sidebar } = useLoaderData<typeof loader>();
  return (
    <DocLayout sidebar={sidebar} toc={toc}>
      <h1>{frontMatter.title}</h1>
      <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
    </DocLayout>
  );
}

import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { DocLayout } from '../components/DocLayout.js';
import { docsCatalogue, sidebarNodes } from '../docs/docs.server.js';
import { siteTitle } from '../site.js';

export function loader() {
  const page = docsCatalogue().pages.get('')!;
  return { frontMatter: page.frontMatter, html: page.html, toc: page.toc, sidebar: sidebarNodes() };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? [{ title: `${data.frontMatter.title} | ${siteTitle}` }, { name: 'description', content: data.frontMatter.description }]
    : [];

export default function DocsLanding() {
  const { frontMatter, html, toc, sidebar } = useLoaderData<typeof loader>();
  return (
    <DocLayout sidebar={sidebar} toc={toc}>
      <h1>{frontMatter.title}</h1>
      <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
    </DocLayout>
  );
}

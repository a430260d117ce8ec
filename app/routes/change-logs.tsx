import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { docsCatalogue } from '../docs/docs.server.js';
import { siteTitle } from '../site.js';

export function loader() {
  const { frontMatter, html } = docsCatalogue().changeLog;
  return { frontMatter, html };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: `${data.frontMatter.title} | ${siteTitle}` }, { name: 'description', content: data.frontMatter.description }] : [];

export default function ChangeLogs() {
  const { frontMatter, html } = useLoaderData<typeof loader>();
  return (
    <div className="container doc">
      <h1>{frontMatter.title}</h1>
      <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}

import type { DocPageData } from '../docs/docs.server.js';
import { DocLayout } from './DocLayout.js';

/** A Markdown page of the docs in the docs layout; /docs and /docs/* share it. */
export function DocPage({ page }: { page: DocPageData }) {
  return (
    <DocLayout sidebar={page.sidebar} toc={page.toc}>
      <h1>{page.frontMatter.title}</h1>
      <div className="markdown" dangerouslySetInnerHTML={{ __html: page.html }} />
    </DocLayout>
  );
}

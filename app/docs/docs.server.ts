import { join } from 'node:path';
import type { DocsAddresses } from './addresses.server.js';
import { type DocsCatalogue, loadDocsCatalogue } from './catalogue.server.js';
import type { RenderedPage } from './markdown.server.js';
import { type SidebarCategory, sidebar } from './sidebar.js';

/** By the addresses they show: a process has one, its tests a few. */
const catalogues = new Map<string, DocsCatalogue>();

/**
 * The rendered docs, read once per process (and per set of addresses) from `docs/pages` under the
 * working directory (`npm start` and the tests run from the project's root).
 */
export function docsCatalogue(addresses: DocsAddresses): DocsCatalogue {
  const key = JSON.stringify(addresses);
  let catalogue = catalogues.get(key);
  if (!catalogue) {
    catalogue = loadDocsCatalogue(join(process.cwd(), 'docs', 'pages'), addresses);
    catalogues.set(key, catalogue);
  }
  return catalogue;
}

/** The sidebar as the page draws it: labels from the pages' front matter, links resolved. */
export interface SidebarNode {
  label: string;
  href: string;
  children?: SidebarNode[];
}

function nodesOf(category: SidebarCategory, pages: Map<string, RenderedPage>): SidebarNode {
  return {
    label: category.label,
    href: `/docs/category/${category.slug}`,
    children: category.items.map((item) =>
      item.kind === 'category'
        ? nodesOf(item.category, pages)
        : { label: pages.get(item.path)!.frontMatter.sidebar_label, href: `/docs/${item.path}` },
    ),
  };
}

export function sidebarNodes(addresses: DocsAddresses): SidebarNode[] {
  const { pages } = docsCatalogue(addresses);
  return sidebar.map((category) => nodesOf(category, pages));
}

/** What a doc page's route sends to its component; a path with no page is a 404. */
export function docPageData(path: string, addresses: DocsAddresses) {
  const page = docsCatalogue(addresses).pages.get(path);
  if (!page) throw new Response('Not Found', { status: 404 });
  return { frontMatter: page.frontMatter, html: page.html, toc: page.toc, sidebar: sidebarNodes(addresses) };
}

export type DocPageData = ReturnType<typeof docPageData>;

/** Read by every docs loader: a failure to read or render the docs shows the Retry box. */
export const DOCS_UNAVAILABLE = 'The documentation could not be loaded.';

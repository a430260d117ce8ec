import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { type DocsAddresses, withAddresses } from './addresses.server.js';
import { expandGeneratedSections } from './generatedSections.server.js';
import { type RenderedPage, renderMarkdown } from './markdown.server.js';
import { allDocPaths } from './sidebar.js';

/** The docs' pages rendered once from `docs/pages`, by path under /docs ('' is the /docs landing). */
export interface DocsCatalogue {
  pages: Map<string, RenderedPage>;
  changeLog: RenderedPage;
}

function markdownFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/**
 * Reads and renders every page (its addresses those of the server that serves it: see
 * addresses.server.ts; its generated sections written from the server's data: see
 * generatedSections.server.ts), and checks that the sidebar and the files agree: a page
 * the sidebar names must exist, and a page no one can reach from the sidebar is an error.
 */
export function loadDocsCatalogue(pagesDirectory: string, addresses: DocsAddresses): DocsCatalogue {
  const pages = new Map<string, RenderedPage>();
  let changeLog: RenderedPage | null = null;
  for (const file of markdownFiles(pagesDirectory)) {
    const path = relative(pagesDirectory, file).split(sep).join('/').replace(/\.md$/, '');
    const source = withAddresses(readFileSync(file, 'utf8'), file, addresses);
    const rendered = renderMarkdown(expandGeneratedSections(source, file), file);
    if (path === 'change-logs') changeLog = rendered;
    else pages.set(path === 'index' ? '' : path, rendered);
  }
  if (!changeLog) throw new Error(`${pagesDirectory}: no change-logs.md`);
  if (!pages.has('')) throw new Error(`${pagesDirectory}: no index.md for /docs`);
  const listed = new Set(allDocPaths());
  for (const path of listed)
    if (!pages.has(path)) throw new Error(`The sidebar names /docs/${path}, which has no page`);
  for (const path of pages.keys())
    if (path !== '' && !listed.has(path)) throw new Error(`/docs/${path} is in no sidebar category`);
  return { pages, changeLog };
}

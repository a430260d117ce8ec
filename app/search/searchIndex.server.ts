import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEARCH_INDEX_ADDRESSES } from '../docs/addresses.server.js';
import { type DocsCatalogue, loadDocsCatalogue } from '../docs/catalogue.server.js';
import { allDocPaths } from '../docs/sidebar.js';
import { type SearchEntry, type SearchIndex, buildSearchIndex } from './searchIndex.js';

/** Where the build's search index is served from: the directory given to writeSearchIndex. */
export const searchIndexPublicPath = '/build/search';

/** Every page the search covers, in reading order: the /docs landing, the sidebar's pages, then the change log. */
export function searchEntries(catalogue: DocsCatalogue): SearchEntry[] {
  const sidebarOrder = allDocPaths().filter((path) => catalogue.pages.has(path));
  const others = [...catalogue.pages.keys()].filter((path) => path !== '' && !sidebarOrder.includes(path));
  const entries: SearchEntry[] = [];
  for (const path of ['', ...sidebarOrder, ...others]) {
    const page = catalogue.pages.get(path);
    if (page) entries.push({ url: path ? `/docs/${path}` : '/docs', title: page.frontMatter.title, html: page.html });
  }
  entries.push({ url: '/change-logs', title: catalogue.changeLog.frontMatter.title, html: catalogue.changeLog.html });
  return entries;
}

/**
 * Builds the index of the docs in `docsPagesDir` and writes it to `outDir` (created if need be) as
 * `search-index-<hash>.json`, the hash being the first 8 hex digits of the content's SHA-256, so that
 * it can be cached for good. Older indexes in `outDir` are removed.
 */
export function writeSearchIndex(docsPagesDir: string, outDir: string): { file: string; url: string } {
  const json = JSON.stringify(buildSearchIndex(searchEntries(loadDocsCatalogue(docsPagesDir, SEARCH_INDEX_ADDRESSES))));
  const name = `search-index-${createHash('sha256').update(json).digest('hex').slice(0, 8)}.json`;
  mkdirSync(outDir, { recursive: true });
  for (const old of readdirSync(outDir)) {
    if (old !== name && /^search-index-[0-9a-f]{8}\.json$/.test(old)) rmSync(join(outDir, old), { force: true });
  }
  const file = join(outDir, name);
  writeFileSync(file, json);
  return { file, url: `${searchIndexPublicPath}/${name}` };
}

/**
 * The index writeSearchIndex wrote, read back by its public URL from `public/` under the working
 * directory (the server runs from the project's root); null when the portal was built without it.
 */
export function readBuiltSearchIndex(url: string): SearchIndex | null {
  const file = join(process.cwd(), 'public', url);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SearchIndex) : null;
}

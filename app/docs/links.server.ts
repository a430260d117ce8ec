import type { DocsCatalogue } from './catalogue.server.js';
import { allCategories } from './sidebar.js';

/** The ids a page's HTML gives its elements: the anchors a link may aim at. */
export function anchorsOf(html: string): Set<string> {
  return new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]));
}

/**
 * Every internal link of the docs that leads nowhere: a page that does not exist, or an anchor
 * that the page does not have. Reference links (`/rest-api#tag/<Tag>/operation/<id>`) are checked
 * against the anchors the reference will have (`referenceAnchors`); /openapi.json is the document.
 */
export function brokenLinks(catalogue: DocsCatalogue, referenceAnchors: Set<string>): string[] {
  const categories = new Set(allCategories().map((category) => category.slug));
  const sources = [...catalogue.pages.entries(), ['change-logs', catalogue.changeLog] as const];
  const broken: string[] = [];
  for (const [sourcePath, page] of sources) {
    const source = sourcePath === 'change-logs' ? '/change-logs' : `/docs${sourcePath ? `/${sourcePath}` : ''}`;
    for (const [, href] of page.html.matchAll(/\shref="([^"]+)"/g)) {
      if (/^[a-z]+:/i.test(href) || href.startsWith('//')) continue;
      const [path, anchor] = href.split('#') as [string, string | undefined];
      const target = path === '' ? source : path;
      const problem = ((): string | null => {
        if (target === '/rest-api')
          return anchor && !referenceAnchors.has(decodeURIComponent(anchor)) ? 'no such operation or schema' : null;
        // The OpenAPI document, served beside the portal (a reader downloads it for Postman or Insomnia).
        if (target === '/openapi.json') return anchor ? 'the document has no anchors' : null;
        if (target === '/change-logs')
          return anchor && !anchorsOf(catalogue.changeLog.html).has(anchor) ? 'no such heading' : null;
        if (target.startsWith('/docs/category/'))
          return categories.has(target.slice('/docs/category/'.length)) ? null : 'no such category';
        if (target !== '/docs' && !target.startsWith('/docs/')) return target === '/' ? null : 'outside the portal';
        if (target.endsWith('/')) return 'trailing slash';
        const page = catalogue.pages.get(target === '/docs' ? '' : target.slice('/docs/'.length));
        if (!page) return 'no such page';
        return anchor && !anchorsOf(page.html).has(anchor) ? 'no such heading' : null;
      })();
      if (problem) broken.push(`${source}: ${href} (${problem})`);
    }
  }
  return broken;
}

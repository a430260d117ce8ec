import { collectionDownloads } from './http/collectionDownloads.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createPortalHandler } from './portal.js';

/** Internal references in a page: links, scripts, stylesheets, images and the search index. */
const REFERENCE = /\s(?:href|src|data-search-index)="([^"]*)"/g;
const ID = /\sid="([^"]*)"/g;

function decodeAttribute(value: string): string {
  return value
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

function isInternal(reference: string): boolean {
  return reference !== '' && !reference.startsWith('//') && !/^[a-z][a-z0-9+.-]*:/i.test(reference);
}

export interface LinkReport {
  /** Every page the crawl reached. */
  pages: string[];
  /** `<page>: <link> (<why>)`, one per broken link or anchor. */
  broken: string[];
}

/**
 * Follows every internal link from `startPaths` on a running portal and reports each link to a
 * page that does not answer 200 (a redirect is broken too: links name canonical URLs), each
 * asset that does not answer 200, and each anchor the target page does not have.
 */
export async function crawlPortalLinks(baseUrl: string, startPaths: string[] = ['/']): Promise<LinkReport> {
  const anchors = new Map<string, Set<string> | null>();
  const statuses = new Map<string, string | null>();
  const links: { from: string; href: string; path: string; hash: string }[] = [];
  const queue = [...startPaths];

  async function fetchPath(path: string): Promise<Response> {
    return fetch(new URL(path, baseUrl), { redirect: 'manual', headers: { 'user-agent': 'portal-link-check' } });
  }

  while (queue.length > 0) {
    const path = queue.shift()!;
    if (anchors.has(path)) continue;
    const response = await fetchPath(path);
    const isPage = (response.headers.get('content-type') ?? '').includes('text/html');
    if (response.status !== 200) {
      const location = response.headers.get('location');
      statuses.set(path, location ? `answers ${response.status}, to ${location}` : `answers ${response.status}`);
      anchors.set(path, null);
      await response.body?.cancel();
      continue;
    }
    statuses.set(path, null);
    if (!isPage) {
      anchors.set(path, null);
      await response.body?.cancel();
      continue;
    }
    const html = await response.text();
    anchors.set(path, new Set([...html.matchAll(ID)].map((match) => decodeAttribute(match[1]))));
    for (const [, raw] of html.matchAll(REFERENCE)) {
      const href = decodeAttribute(raw);
      if (!isInternal(href)) continue;
      const url = new URL(href, new URL(path, baseUrl));
      const target = url.pathname + url.search;
      links.push({ from: path, href, path: target, hash: url.hash });
      if (!anchors.has(target)) queue.push(target);
    }
  }

  const broken = new Set<string>();
  for (const link of links) {
    const problem = statuses.get(link.path);
    if (problem) {
      broken.add(`${link.from}: ${link.href} (${problem})`);
      continue;
    }
    const ids = anchors.get(link.path);
    if (link.hash && link.hash !== '#' && !ids?.has(decodeURIComponent(link.hash.slice(1)))) {
      broken.add(`${link.from}: ${link.href} (no such anchor)`);
    }
  }
  for (const start of startPaths) {
    const problem = statuses.get(start);
    if (problem) broken.add(`${start} (${problem})`);
  }
  return { pages: [...anchors.entries()].filter(([, ids]) => ids !== null).map(([path]) => path), broken: [...broken] };
}

/**
 * The build's link check: serves the built portal (and /openapi.json and the collections, which pages link to) on a
 * free local port and crawls it from the home page and every doc path.
 */
export async function checkBuiltPortalLinks(options: {
  projectRoot: string;
  openApiDocument: object;
  startPaths: string[];
}): Promise<LinkReport> {
  const app = express();
  const document = JSON.stringify(options.openApiDocument);
  app.get('/openapi.json', (_request, response) => {
    response.type('application/json').send(document);
  });
  // The reference links the collections too.
  app.use(collectionDownloads(options.projectRoot, 'http://localhost', options.openApiDocument));
  app.use(
    await createPortalHandler({
      mode: 'production',
      projectRoot: options.projectRoot,
      openApiDocument: options.openApiDocument,
    }),
  );
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  try {
    return await crawlPortalLinks(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, options.startPaths);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

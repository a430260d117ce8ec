/**
 * linkinator, an independent crawler, over the built portal: from the home page, every page,
 * script, stylesheet, image and anchor it links to answers. It needs no browser, so it runs even
 * where chromium is missing or the browser tests are skipped. There is no internet here: links
 * that leave the portal are skipped, never fetched.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LinkChecker, LinkState } from 'linkinator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCategories, allDocPaths } from '../../app/docs/sidebar.js';
import { createTestPortal } from './testPortal.js';

describe('linkinator over the built portal', () => {
  let server: Server;
  const portal = { baseUrl: '' };

  beforeAll(async () => {
    const app = await createTestPortal();
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    portal.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    // linkinator keeps its connections alive: close them, or close() waits for their timeout.
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  it('finds no broken link, stylesheet, script or anchor, crawling recursively from /', async () => {
    const checker = new LinkChecker();
    const result = await checker.check({
      path: `${portal.baseUrl}/`,
      recurse: true,
      checkCss: true,
      // Every #anchor, on the same page or another, must name an element there.
      checkFragments: true,
      // Resolve links as a browser does: by default linkinator takes /docs/x for a folder, so
      // "#id" on it would become /docs/x/#id (our 301 to /docs/x would hide a missing anchor).
      cleanUrls: true,
      concurrency: 8,
      timeout: 10_000,
      // Anything outside the portal (the footer's sites, GitHub): no internet here.
      linksToSkip: async (link) => !link.startsWith(`${portal.baseUrl}/`) && link !== portal.baseUrl,
    });
    const broken = result.links
      .filter((link) => link.state === LinkState.BROKEN)
      .map((link) => ({ url: link.url, status: link.status, parent: link.parent }));
    const checked = result.links.filter((link) => link.state === LinkState.OK);
    const skipped = result.links.filter((link) => link.state === LinkState.SKIPPED);
    console.log(
      `linkinator: ${checked.length} portal URLs checked (and the anchors linked on them), ${broken.length} broken, ${skipped.length} skipped (outside the portal, or data: URLs)`,
    );

    expect(broken).toEqual([]);
    expect(result.passed).toBe(true);
    // It did crawl the portal: every route is among the links it followed.
    const followed = new Set(checked.map((link) => new URL(link.url).pathname));
    for (const path of [
      '/',
      '/docs',
      '/rest-api',
      '/change-logs',
      ...allCategories().map((category) => `/docs/category/${category.slug}`),
      ...allDocPaths().map((path) => `/docs/${path}`),
    ]) {
      expect(followed, path).toContain(path);
    }
    // Nothing of the portal itself was skipped.
    expect(skipped.filter((link) => link.url.startsWith(portal.baseUrl))).toEqual([]);
  }, 60_000);
});

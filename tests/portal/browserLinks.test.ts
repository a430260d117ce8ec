/**
 * linkinator, an independent crawler, over the built portal: from the home page, every page,
 * script, stylesheet, image and anchor it links to answers. It needs no browser, so it runs even
 * where chromium is missing or the browser tests are skipped. There is no internet here: links
 * that leave the portal are skipped, never fetched.
 */
import { LinkChecker, LinkState } from 'linkinator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally, type LocalServer } from '../support/miscLocalServer.js';
import { createTestPortal, linkedPortalPaths } from './testPortal.js';

describe('linkinator over the built portal', () => {
  let portal: LocalServer | undefined;

  beforeAll(async () => {
    portal = await listenLocally(await createTestPortal());
  }, 120_000);

  // linkinator keeps its connections alive: close() closes them, or it would wait for their timeout.
  afterAll(() => portal?.close());

  it('finds no broken link, stylesheet, script or anchor, crawling recursively from /', async () => {
    const { baseUrl } = portal!;
    const checker = new LinkChecker();
    const result = await checker.check({
      path: `${baseUrl}/`,
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
      linksToSkip: async (link) => !link.startsWith(`${baseUrl}/`) && link !== baseUrl,
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
    for (const path of linkedPortalPaths()) expect(followed, path).toContain(path);
    // Nothing of the portal itself was skipped.
    expect(skipped.filter((link) => link.url.startsWith(baseUrl))).toEqual([]);
    // About 300 URLs: 12 s alone, past a minute beside the other suites on two loaded cores.
  }, 180_000);
});

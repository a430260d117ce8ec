/**
 * Every route of the portal in chromium, as a reader opens it: its heading, the docs sidebar on
 * docs pages, no serious or critical axe-core violation at a desktop width and a phone width, no
 * console or page error, and no request that leaves 127.0.0.1. The other browser tests are in
 * browser*.test.ts (navigation and page states, search and code tabs, links).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PHONE,
  type PageProblems,
  WIDE,
  newWatchedContext,
  portalRoutes,
  REFERENCE_AXE_SCOPE,
  seriousViolations,
  skipBrowserTests,
  useBrowser,
} from './browserSupport.js';

const routes = portalRoutes();

describe.skipIf(skipBrowserTests)('every route of the portal in a browser', () => {
  const session = useBrowser();

  it("checks 42 routes: home, docs landing, 8 categories, 26 doc pages, REST API, a schema page, an operation's samples, change logs, search and an unknown path", () => {
    expect(routes.filter((route) => route.path.startsWith('/docs/category/'))).toHaveLength(8);
    expect(
      routes.filter((route) => route.path.startsWith('/docs/') && !route.path.startsWith('/docs/category/')),
    ).toHaveLength(26);
    expect(routes).toHaveLength(42);
  });

  // The checks below pass on every route: proof that they would see a problem if there were one.
  it('the checks can fail: axe sees an image without text, and a console error, a page error and an outside request are recorded', async () => {
    // Its own context: the problems it makes on purpose are not the session's.
    const { context, problems } = await newWatchedContext(session.browser, { viewport: WIDE });
    await context.route('http://example.invalid/**', (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${session.baseUrl}/`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.evaluate(() => {
      const image = document.createElement('img');
      image.src = 'http://example.invalid/picture.png';
      document.querySelector('main')!.append(image);
      console.error('recorded');
      setTimeout(() => {
        throw new Error('thrown');
      });
    });
    await expect.poll(() => problems.pageErrors.length + problems.externalRequests.length).toBe(2);
    expect((await seriousViolations(page)).map((violation) => violation.id)).toContain('image-alt');
    expect(problems.consoleErrors).toContain(`${session.baseUrl}/: recorded`);
    expect(problems.pageErrors).toEqual([`${session.baseUrl}/: thrown`]);
    expect(problems.externalRequests).toEqual(['http://example.invalid/picture.png']);
    await context.close();
  });

  it('shows the home page with the inline navbar on a wide screen', async () => {
    const { page } = await session.open({ viewport: WIDE, path: '/' });
    const navbar = page.locator('nav.navbar__links');
    expect(await navbar.isVisible()).toBe(true);
    for (const name of ['Docs', 'REST API', 'Change logs', /GitHub/]) {
      expect(await navbar.getByRole('link', { name }).isVisible()).toBe(true);
    }
    expect(await page.locator('.navbar__toggle').isVisible()).toBe(false);
  });

  for (const viewport of [WIDE, PHONE]) {
    // One context and one page per width, each route loaded in full in turn: axe-core is compiled once.
    describe(`at ${viewport.width} px wide`, () => {
      let context: BrowserContext;
      let problems: PageProblems;
      let page: Page;

      beforeAll(async () => {
        ({ context, problems } = await newWatchedContext(session.browser, { viewport }, { axe: true }));
        page = await context.newPage();
      });

      afterAll(async () => {
        await context?.close();
      });

      for (const route of routes) {
        it(
          `${route.path}: "${route.heading}"${route.docsSidebar ? ' and the docs sidebar' : ''}; no axe violation, console error or outside request`,
          async () => {
            problems.clear();
            const response = await page.goto(`${session.baseUrl}${route.path}`);
            expect(response?.status()).toBe(route.status);
            // What a reader sees, read in one go (one round trip per route keeps the suite fast).
            const seen = await page.evaluate(() => {
              const navigation = (selector: string) => {
                const nav = document.querySelector(selector);
                if (!nav) return null;
                const links = [...nav.querySelectorAll('a')];
                return {
                  shown: nav.checkVisibility(),
                  first: { href: links[0]?.getAttribute('href'), text: links[0]?.textContent },
                  current: links
                    .filter((link) => link.getAttribute('aria-current') === 'page')
                    .map((link) => link.getAttribute('href')),
                };
              };
              return {
                title: document.title,
                headings: [...document.querySelectorAll('h1, [role="heading"][aria-level="1"]')].map((heading) => ({
                  text: (heading as HTMLElement).innerText,
                  shown: heading.checkVisibility(),
                })),
                // Beside the article on a wide screen; in the drawer (closed until asked) on a phone.
                sidebar: navigation('.doc-layout > nav.sidebar[aria-label="Docs"]'),
                drawerSidebar: navigation('.navbar__drawer-docs'),
                pageWidth: document.documentElement.scrollWidth,
              };
            });
            expect(seen.title).toBe(route.title);
            expect(seen.headings).toEqual([{ text: route.heading, shown: true }]);
            if (route.docsSidebar) {
              // The page being read is marked in the sidebar, and only it (the landing has no entry).
              const expected = {
                first: { href: '/docs/category/mandatory-steps', text: 'Mandatory steps' },
                current: route.path === '/docs' ? [] : [route.path],
              };
              expect(seen.sidebar).toEqual({ shown: viewport === WIDE, ...expected });
              expect(seen.drawerSidebar).toEqual({ shown: false, ...expected });
            } else {
              expect(seen.sidebar).toBeNull();
              expect(seen.drawerSidebar).toBeNull();
            }
            // Nothing is wider than the screen: the page never scrolls sideways.
            expect(seen.pageWidth).toBeLessThanOrEqual(viewport.width);

            expect(await seriousViolations(page, route.path === '/rest-api' ? REFERENCE_AXE_SCOPE : undefined)).toEqual(
              [],
            );
            // A 404 is reported by the browser itself as the document's failed load; nothing else may be.
            const expectedErrors =
              route.status === 404
                ? [
                    `${session.baseUrl}${route.path}: Failed to load resource: the server responded with a status of 404 (Not Found)`,
                  ]
                : [];
            expect(problems.consoleErrors).toEqual(expectedErrors);
            expect(problems.pageErrors).toEqual([]);
            expect(problems.externalRequests).toEqual([]);
            // The reference is a long page (every operation and schema): it gets more time on a busy machine.
          },
          route.path === '/rest-api' ? 90_000 : undefined,
        );
      }
    });
  }
});

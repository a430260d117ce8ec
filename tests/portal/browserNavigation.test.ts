/**
 * Moving around the portal in chromium as a reader does: the drawer on a phone, the sidebar, the
 * table of contents and the Back button, and the page states (the spinner, a load that fails, a
 * loader that fails, a page that crashes, a release between two pages), with JavaScript on and
 * off. The test-only pages under /test-fixtures are served (testFixtures).
 */
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { docsCatalogue } from '../../app/docs/docs.server.js';
import {
  PHONE,
  WIDE,
  isShownBelowNavbar,
  markWindow,
  seriousViolations,
  skipBrowserTests,
  useBrowser,
  waitForHeading,
  windowMarker,
} from './browserSupport.js';
import { testDocsAddresses } from './testPortal.js';

const FIRST = 'mandatory-steps/request-a-provider-account';
const SECOND = 'mandatory-steps/create-test-accounts';
const WITH_TOC = 'understanding-our-api/authentication-authorization';
const frontMatterOf = (path: string) => docsCatalogue(testDocsAddresses).pages.get(path)!.frontMatter;

const NAVBAR_LINKS = ['Docs', 'REST API', 'Change logs', /GitHub/];

function errorBox(page: Page) {
  return page.getByRole('alert');
}

describe.skipIf(skipBrowserTests)('moving around the portal in a browser', () => {
  const session = useBrowser({ testFixtures: true });

  for (const javaScriptEnabled of [true, false]) {
    it(`at 390 px the drawer opens from its toggle with the navbar links, the docs sidebar and the version and language dropdowns (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const { page } = await session.open({ viewport: PHONE, javaScriptEnabled, path: `/docs/${SECOND}` });
      expect(await page.locator('nav.navbar__links').isVisible()).toBe(false);
      // A <summary>: browsers announce it as an expandable button, Playwright gives it no role.
      const toggle = page.locator('summary.navbar__toggle');
      expect(await toggle.innerText()).toBe('Navigation menu');
      const drawer = page.locator('.navbar__drawer-panel');
      expect(await toggle.isVisible()).toBe(true);
      expect(await drawer.isVisible()).toBe(false);

      await toggle.click();
      expect(await page.locator('details.navbar__drawer').getAttribute('open')).toBe('');
      for (const name of NAVBAR_LINKS) {
        expect(await drawer.getByRole('link', { name }).isVisible()).toBe(true);
      }
      const docs = drawer.getByRole('navigation', { name: 'Docs' });
      expect(await docs.isVisible()).toBe(true);
      expect(await docs.getByRole('link').first().getAttribute('href')).toBe('/docs/category/mandatory-steps');
      const current = docs.getByRole('link', { name: frontMatterOf(SECOND).sidebar_label });
      expect(await current.getAttribute('aria-current')).toBe('page');

      // The settings, in the drawer since the bar has no room for them on a phone.
      const version = drawer.locator('details.dropdown--version');
      const language = drawer.locator('details.dropdown--language');
      expect(await version.locator('summary').innerText()).toBe('Current');
      expect(await version.locator('summary').isVisible()).toBe(true);
      expect(await language.locator('summary').innerText()).toBe('English');
      expect(await language.locator('summary').isVisible()).toBe(true);
      await language.locator('summary').click();
      expect(await language.getByRole('link', { name: 'English' }).isVisible()).toBe(true);
      expect(await page.locator('.navbar__settings--wide').isVisible()).toBe(false);

      if (javaScriptEnabled) {
        // Escape closes the language menu, the focus on its toggle; again, the drawer, the focus on the menu button.
        const focused = () =>
          page.evaluate(() => document.activeElement?.closest('summary')?.className ?? document.activeElement?.tagName);
        await page.keyboard.press('Escape');
        expect(await language.getAttribute('open')).toBeNull();
        expect(await drawer.isVisible()).toBe(true);
        expect(await focused()).toBe('dropdown__toggle');
        expect(await language.locator('summary').evaluate((element) => element === document.activeElement)).toBe(true);
        await page.keyboard.press('Escape');
        expect(await drawer.isVisible()).toBe(false);
        expect(await focused()).toBe('navbar__toggle');
        await toggle.click();
      }

      // A link in the drawer goes where it says.
      await drawer.getByRole('link', { name: 'REST API' }).click();
      await waitForHeading(page, 'REST API');
      expect(new URL(page.url()).pathname).toBe('/rest-api');
    });
  }

  it('at 390 px the drawer of a page outside the docs has no docs sidebar, and axe finds nothing serious with it open', async () => {
    const { page } = await session.open({ viewport: PHONE, path: '/' });
    await page.locator('summary.navbar__toggle').click();
    const drawer = page.locator('.navbar__drawer-panel');
    expect(await drawer.getByRole('link', { name: 'Docs' }).isVisible()).toBe(true);
    expect(await drawer.locator('.navbar__drawer-docs').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${session.baseUrl}/docs/${WITH_TOC}`);
    await page.locator('summary.navbar__toggle').click();
    await drawer.locator('details.dropdown--version > summary').click();
    expect(await drawer.getByRole('navigation', { name: 'Docs' }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('a sidebar link opens its page without a reload, marked as the current one; Back shows the previous page again', async () => {
    const { page } = await session.open({ path: `/docs/${FIRST}` });
    const sidebar = page.locator('.doc-layout > nav.sidebar');
    expect(
      await sidebar.getByRole('link', { name: frontMatterOf(FIRST).sidebar_label }).getAttribute('aria-current'),
    ).toBe('page');
    await markWindow(page);

    await sidebar.getByRole('link', { name: frontMatterOf(SECOND).sidebar_label, exact: true }).click();
    await waitForHeading(page, frontMatterOf(SECOND).title);
    expect(page.url()).toBe(`${session.baseUrl}/docs/${SECOND}`);
    expect(await page.title()).toBe(`${frontMatterOf(SECOND).title} | API documentation`);
    expect(
      await sidebar
        .getByRole('link', { name: frontMatterOf(SECOND).sidebar_label, exact: true })
        .getAttribute('aria-current'),
    ).toBe('page');
    expect(
      await sidebar
        .getByRole('link', { name: frontMatterOf(FIRST).sidebar_label, exact: true })
        .getAttribute('aria-current'),
    ).toBeNull();
    expect(await windowMarker(page)).toBe(1);

    await page.goBack();
    await waitForHeading(page, frontMatterOf(FIRST).title);
    expect(page.url()).toBe(`${session.baseUrl}/docs/${FIRST}`);
    expect(
      await sidebar
        .getByRole('link', { name: frontMatterOf(FIRST).sidebar_label, exact: true })
        .getAttribute('aria-current'),
    ).toBe('page');
    expect(await windowMarker(page)).toBe(1);

    await page.goForward();
    await waitForHeading(page, frontMatterOf(SECOND).title);
    expect(await windowMarker(page)).toBe(1);
  });

  for (const viewport of [WIDE, PHONE]) {
    it(`an "On this page" link moves to its heading, below the sticky navbar (${viewport.width} px)`, async () => {
      const { page } = await session.open({ viewport, path: `/docs/${WITH_TOC}` });
      await markWindow(page);
      const entry = docsCatalogue(testDocsAddresses).pages.get(WITH_TOC)!.toc[2];
      if (viewport === WIDE) {
        await page.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: entry.text }).click();
      } else {
        // On a phone the table of contents folds above the article.
        const folded = page.locator('details.toc-collapsible');
        await folded.locator('summary').click();
        await folded.getByRole('link', { name: entry.text }).click();
      }
      await page.waitForFunction((id) => location.hash === `#${id}`, entry.id);
      await page.locator(`[id="${entry.id}"]`).waitFor();
      // In the viewport, and not under the navbar that stays at the top of the screen.
      expect(await isShownBelowNavbar(page, entry.id)).toBe(true);
      expect(await windowMarker(page)).toBe(1);
    });
  }

  it('from the keyboard, the first Tab shows "Skip to main content", which moves the focus to the page', async () => {
    const { page } = await session.open({ path: `/docs/${WITH_TOC}` });
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
    const box = (await skip.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'main');
    expect(new URL(page.url()).hash).toBe('#main');
  });

  it('the unknown page links home without a reload', async () => {
    const { page } = await session.open({ path: '/some/unknown/page' });
    await markWindow(page);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await waitForHeading(page, 'API documentation');
    expect(page.url()).toBe(`${session.baseUrl}/`);
    expect(await page.title()).toBe('API documentation');
    expect(await windowMarker(page)).toBe(1);
  });

  describe('page states', () => {
    // The fixtures fail on purpose and the server logs why (the portal runs in this process).
    beforeEach(() => {
      vi.spyOn(console, 'error').mockImplementation(() => {});
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('shows the spinner while the next page loads, and hides it once the page is shown', async () => {
      const { page } = await session.open({ path: '/docs' });
      await markWindow(page);
      await page.evaluate(() => {
        const link = document.createElement('a');
        link.href = '/test-fixtures/slow?ms=1500';
        link.textContent = 'The slow page';
        document.querySelector('main')!.prepend(link);
      });
      const spinner = page.locator('[data-page-loading]');
      expect(await spinner.isVisible()).toBe(false);
      await page.getByRole('link', { name: 'The slow page' }).click();
      await spinner.waitFor({ state: 'visible' });
      // Still the old page under the spinner: it shows during the load, not after.
      expect(await page.getByRole('heading', { level: 1, name: 'A slow page' }).count()).toBe(0);
      await waitForHeading(page, 'A slow page');
      expect(await spinner.isVisible()).toBe(false);
      expect(await page.locator('html[data-navigating]').count()).toBe(0);
      expect(page.url()).toBe(`${session.baseUrl}/test-fixtures/slow?ms=1500`);
      expect(await windowMarker(page)).toBe(1);
    });

    it('a load that fails shows the error box with the error and Retry, which loads the page once it can', async () => {
      const { page } = await session.open({ path: `/docs/${FIRST}` });
      await markWindow(page);
      const isSecond = (url: URL) => url.pathname === `/docs/${SECOND}`;
      await page.route(isSecond, (route) => route.abort('failed'));
      await page
        .locator('.doc-layout > nav.sidebar')
        .getByRole('link', { name: frontMatterOf(SECOND).sidebar_label, exact: true })
        .click();

      const box = errorBox(page);
      await box.waitFor();
      expect(await box.getByRole('heading', { level: 1 }).innerText()).toBe('This page could not be loaded');
      expect((await box.locator('.error-box__message').innerText()).trim()).not.toBe('');
      expect(await page.title()).toBe('This page could not be loaded | API documentation');
      expect(page.url()).toBe(`${session.baseUrl}/docs/${SECOND}`);
      const retry = box.getByRole('button', { name: 'Retry' });
      expect(await retry.isVisible()).toBe(true);
      expect(await page.locator('[data-page-loading]').isVisible()).toBe(false);

      await page.unroute(isSecond);
      await retry.click();
      await waitForHeading(page, frontMatterOf(SECOND).title);
      expect(await errorBox(page).count()).toBe(0);
      expect(page.url()).toBe(`${session.baseUrl}/docs/${SECOND}`);
      expect(await windowMarker(page)).toBe(1);
    });

    it('a loader that fails answers 503 with the error box, and Retry asks the server again', async () => {
      const { page } = await session.open();
      const requests: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/test-fixtures/load-failure') requests.push(request.url());
      });
      const response = await page.goto(`${session.baseUrl}/test-fixtures/load-failure`);
      expect(response?.status()).toBe(503);
      const box = errorBox(page);
      expect(await box.getByRole('heading', { level: 1 }).innerText()).toBe('This page could not be loaded');
      expect(await box.locator('.error-box__message').innerText()).toBe('The fixture could not be loaded.');
      expect(requests).toHaveLength(1);

      const again = page.waitForResponse((answer) => new URL(answer.url()).pathname === '/test-fixtures/load-failure');
      await box.getByRole('button', { name: 'Retry' }).click();
      expect((await again).status()).toBe(503);
      await page.waitForFunction(() => !document.documentElement.hasAttribute('data-navigating'));
      expect(requests).toHaveLength(2);
      expect(await errorBox(page).locator('.error-box__message').innerText()).toBe('The fixture could not be loaded.');
      expect(await errorBox(page).getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    });

    it('a page that throws answers 500 with "This page crashed", and Try again asks the server again', async () => {
      const { page } = await session.open();
      const response = await page.goto(`${session.baseUrl}/test-fixtures/crash`);
      expect(response?.status()).toBe(500);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('This page crashed');
      expect(await page.title()).toBe('This page crashed | API documentation');

      const again = page.waitForResponse((answer) => new URL(answer.url()).pathname === '/test-fixtures/crash');
      await page.getByRole('button', { name: 'Try again' }).click();
      expect((await again).status()).toBe(500);
      await page.waitForFunction(() => !document.documentElement.hasAttribute('data-navigating'));
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('This page crashed');
      expect(await page.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
    });

    it('a release between two pages (another script) makes the next navigation a full page load', async () => {
      const { page } = await session.open({ path: `/docs/${FIRST}` });
      const currentScript = await page.locator('script[type="module"]').getAttribute('src');
      expect(currentScript).toMatch(/^\/build\/client\/portal-\w+\.js$/);
      const nextScript = currentScript!.replace(/\.js$/, '-next.js');

      // The server has a new release: the next page names another script, which it serves.
      await page.route(
        (url) => url.pathname === `/docs/${SECOND}`,
        async (route) => {
          const response = await route.fetch();
          const html = (await response.text()).replace(
            `<script type="module" src="${currentScript}">`,
            `<script type="module" src="${nextScript}">`,
          );
          await route.fulfill({ status: response.status(), contentType: 'text/html; charset=utf-8', body: html });
        },
      );
      let nextScriptLoaded = false;
      await page.route(
        (url) => url.pathname === nextScript,
        async (route) => {
          const original = await route.fetch({ url: `${session.baseUrl}${currentScript}` });
          nextScriptLoaded = true;
          await route.fulfill({ status: 200, contentType: 'text/javascript', body: await original.text() });
        },
      );

      await markWindow(page);
      await page
        .locator('.doc-layout > nav.sidebar')
        .getByRole('link', { name: frontMatterOf(SECOND).sidebar_label, exact: true })
        .click();
      await waitForHeading(page, frontMatterOf(SECOND).title);
      // A new window: the page was loaded in full, not swapped in.
      expect(await windowMarker(page)).toBeUndefined();
      expect(page.url()).toBe(`${session.baseUrl}/docs/${SECOND}`);
      expect(await page.locator('script[type="module"]').getAttribute('src')).toBe(nextScript);
      // The new release's script runs the new page: its search box is enhanced.
      await page.locator('form.search[data-enhanced]').waitFor({ state: 'attached' });
      expect(nextScriptLoaded).toBe(true);
    });

    it('a page that needs styles this one lacks (the reference, from a doc page) is loaded in full, with its styles', async () => {
      const { page } = await session.open({ path: `/docs/${FIRST}` });
      const styles = () =>
        page
          .locator('style[data-href]')
          .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-href')));
      expect(await styles()).not.toContainEqual(expect.stringMatching(/\/reference-\w+\.css$/));
      await markWindow(page);
      await page.locator('.navbar').getByRole('link', { name: 'REST API' }).first().click();
      await waitForHeading(page, 'REST API');
      expect(await windowMarker(page)).toBeUndefined();
      expect(await styles()).toContainEqual(expect.stringMatching(/\/reference-\w+\.css$/));
      expect(await page.locator('.reference').evaluate((element) => getComputedStyle(element).display)).toBe('grid');
    });

    for (const [fixture, status, heading, button] of [
      ['load-failure', 503, 'This page could not be loaded', 'Retry'],
      ['crash', 500, 'This page crashed', 'Try again'],
    ] as const) {
      it(`without JavaScript, ${button} on ${fixture} is a button that loads the page again`, async () => {
        const { page } = await session.open({ javaScriptEnabled: false, path: `/test-fixtures/${fixture}` });
        expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(heading);
        const reload = page.getByRole('button', { name: button });
        expect(await reload.evaluate((element) => element.closest('form')?.method)).toBe('get');

        const [answer] = await Promise.all([
          page.waitForResponse(
            (response) =>
              new URL(response.url()).pathname === `/test-fixtures/${fixture}` &&
              response.request().isNavigationRequest(),
          ),
          reload.click(),
        ]);
        expect(answer.status()).toBe(status);
        await page.waitForLoadState();
        expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(heading);
        expect(new URL(page.url()).pathname).toBe(`/test-fixtures/${fixture}`);
      });
    }
  });
});

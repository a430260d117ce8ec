/**
 * The portal's features in chromium, used as a reader uses them: search from the keyboard (and
 * without JavaScript), the code-sample tabs and copy buttons, and the site settings (one language,
 * one docs version kept in local storage, light mode only).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_INDEX_ADDRESSES } from '../../app/docs/addresses.server.js';
import { docsCatalogue } from '../../app/docs/docs.server.js';
import { buildSearchIndex, searchDocs } from '../../app/search/searchIndex.js';
import { searchEntries } from '../../app/search/searchIndex.server.js';
import { docsVersionStorageKey } from '../../app/site.js';
import {
  PHONE,
  WIDE,
  focusedId,
  isShownBelowNavbar,
  markWindow,
  seriousViolations,
  skipBrowserTests,
  useBrowser,
  waitForHeading,
  windowMarker,
} from './browserSupport.js';
import { testDocsAddresses } from './testPortal.js';

const AUTHENTICATION = 'understanding-our-api/authentication-authorization';
/** Another page with a group of code samples, next to it in the sidebar. */
const OTHER_WITH_TABS = 'mandatory-steps/create-test-accounts';
const LANGUAGES = ['curl', 'JavaScript', 'Python', 'SDK'];

/** What search finds for `query` (8 results in the navbar, 20 on /search): the same function over the same pages as the built index. */
function expectedResults(query: string, limit = 8) {
  return searchDocs(buildSearchIndex(searchEntries(docsCatalogue(SEARCH_INDEX_ADDRESSES))), query, limit);
}

describe.skipIf(skipBrowserTests)('the portal features in a browser', () => {
  const session = useBrowser();

  describe('search', () => {
    // A fresh server's first search loads its route and reads the built index: done here, so that
    // under CI's load the navigations below wait on the page, not on that cold start.
    beforeAll(async () => {
      expect((await fetch(`${session.baseUrl}/search?q=countermark`)).status).toBe(200);
    }, 60_000);

    it('Control+K and "/" focus the search box; typing shows the results, ArrowDown and Enter open one, Escape closes', async () => {
      const { page } = await session.open({ path: '/docs' });
      const input = page.getByRole('combobox', { name: 'Search the docs' });
      expect(await focusedId(page)).not.toBe('search-input');
      await page.keyboard.press('Control+K');
      expect(await focusedId(page)).toBe('search-input');

      await page.evaluate(() => (document.activeElement as HTMLElement).blur());
      expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
      await page.keyboard.press('/');
      expect(await focusedId(page)).toBe('search-input');
      expect(await input.inputValue()).toBe('');

      const expected = expectedResults('countermark');
      expect(expected.length).toBeGreaterThan(1);
      await page.keyboard.type('countermark');
      const listbox = page.getByRole('listbox', { name: 'Search results' });
      await listbox.waitFor();
      expect(await input.getAttribute('aria-expanded')).toBe('true');
      const options = listbox.getByRole('option');
      expect(await options.count()).toBe(expected.length);
      const first = options.first();
      expect(await first.locator('.search__page').innerText()).toBe(expected[0].pageTitle);
      expect(expected[0].heading).not.toBeNull();
      expect(await first.locator('.search__heading').innerText()).toBe(expected[0].heading);
      expect(await first.getAttribute('href')).toBe(expected[0].url);
      expect(await first.locator('mark').first().innerText()).toMatch(/^countermark/i);

      // Escape closes the panel and empties the box.
      await page.keyboard.press('Escape');
      expect(await listbox.isVisible()).toBe(false);
      expect(await input.inputValue()).toBe('');
      expect(await input.getAttribute('aria-expanded')).toBe('false');
      expect(await focusedId(page)).toBe('search-input');

      await page.keyboard.type('countermark');
      await listbox.waitFor();
      await markWindow(page);
      await page.keyboard.press('ArrowDown');
      expect(await first.getAttribute('aria-selected')).toBe('true');
      expect(await input.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
      await page.keyboard.press('Enter');
      await waitForHeading(page, expected[0].pageTitle);
      expect(page.url()).toBe(`${session.baseUrl}${expected[0].url}`);
      expect(await windowMarker(page)).toBe(1);
      expect(await isShownBelowNavbar(page, new URL(page.url()).hash.slice(1))).toBe(true);
      expect(await listbox.isVisible()).toBe(false);
    });

    for (const viewport of [WIDE, PHONE]) {
      it(`axe finds nothing serious with the results shown at ${viewport.width} px`, async () => {
        const { page } = await session.open({ viewport, path: '/docs' });
        await page.getByRole('combobox', { name: 'Search the docs' }).fill('countermark');
        await page.getByRole('listbox', { name: 'Search results' }).waitFor();
        await page.keyboard.press('ArrowDown');
        expect(await seriousViolations(page)).toEqual([]);
        // The panel fits in the screen.
        const box = (await page.locator('.search__panel').boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      });
    }

    it('without JavaScript, the search form opens /search, which lists the results', async () => {
      const { page } = await session.open({ javaScriptEnabled: false, path: '/docs' });
      await page.getByRole('searchbox', { name: 'Search the docs' }).fill('countermark');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${session.baseUrl}/search?q=countermark`);
      await waitForHeading(page, 'Search the documentation');
      const expected = expectedResults('countermark', 20);
      const links = page.locator('.search-page__results .search-page__link');
      expect(await links.count()).toBe(expected.length);
      expect(await links.first().getAttribute('href')).toBe(expected[0].url);
      expect(await links.first().innerText()).toBe(`${expected[0].pageTitle} › ${expected[0].heading}`);
      expect(await page.locator('.search-page__message').innerText()).toBe(
        `${expected.length} results for “countermark”`,
      );
    });
  });

  describe('code samples', () => {
    it('show curl, JavaScript and Python as tabs; the choice shows one panel and follows the reader to the next page', async () => {
      const { page } = await session.open({ path: `/docs/${AUTHENTICATION}` });
      // The page's first group sets BASE_URL in each language; the second is its first request.
      const group = page.locator('.code-tabs').nth(1);
      const tablist = group.getByRole('tablist', { name: 'Code samples' });
      expect(await tablist.getByRole('tab').allInnerTexts()).toEqual(LANGUAGES);
      expect(await tablist.getByRole('tab', { name: 'curl' }).getAttribute('aria-selected')).toBe('true');
      expect(await group.getByRole('tabpanel').allInnerTexts()).toHaveLength(1);
      expect(await seriousViolations(page)).toEqual([]);

      await tablist.getByRole('tab', { name: 'Python' }).click();
      for (const language of LANGUAGES) {
        expect(await tablist.getByRole('tab', { name: language }).getAttribute('aria-selected')).toBe(
          String(language === 'Python'),
        );
      }
      const shown = group.getByRole('tabpanel');
      expect(await shown.count()).toBe(1);
      expect(await shown.getAttribute('aria-labelledby')).toBe(
        await tablist.getByRole('tab', { name: 'Python' }).getAttribute('id'),
      );
      expect(await shown.locator('code').innerText()).toMatch(/import|requests|python/i);
      expect(await group.locator('.code-tabs__panel:visible').count()).toBe(1);
      expect(await page.evaluate(() => localStorage.getItem('portal.code-tab'))).toBe('Python');

      await markWindow(page);
      const next = docsCatalogue(testDocsAddresses).pages.get(OTHER_WITH_TABS)!.frontMatter;
      await page
        .locator('.doc-layout > nav.sidebar')
        .getByRole('link', { name: next.sidebar_label, exact: true })
        .click();
      await waitForHeading(page, next.title);
      expect(await windowMarker(page)).toBe(1);
      const nextTablist = page.locator('.code-tabs').first().getByRole('tablist', { name: 'Code samples' });
      expect(await nextTablist.getByRole('tab', { name: 'Python' }).getAttribute('aria-selected')).toBe('true');
      expect(await page.locator('.code-tabs').first().getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(
        await nextTablist.getByRole('tab', { name: 'Python' }).getAttribute('id'),
      );
    });

    it('without JavaScript, every sample shows under its label and the tab list is hidden', async () => {
      const { page } = await session.open({ javaScriptEnabled: false, path: `/docs/${AUTHENTICATION}` });
      const group = page.locator('.code-tabs').first();
      expect(await group.locator('.code-tabs__tablist').isVisible()).toBe(false);
      expect(await group.locator('.code-tabs__label').allInnerTexts()).toEqual(LANGUAGES);
      for (const panel of await group.locator('.code-tabs__panel').all()) {
        expect(await panel.locator('pre').isVisible()).toBe(true);
      }
    });

    it('arrow keys, Home and End move between the tabs', async () => {
      const { page } = await session.open({ path: `/docs/${AUTHENTICATION}` });
      const tablist = page.locator('.code-tabs').first().getByRole('tablist', { name: 'Code samples' });
      const selected = async () => ({
        selected: await tablist.locator('[aria-selected="true"]').innerText(),
        focused: await page.evaluate(() => document.activeElement?.textContent ?? null),
      });
      await tablist.getByRole('tab', { name: 'curl' }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await selected()).toEqual({ selected: 'JavaScript', focused: 'JavaScript' });
      await page.keyboard.press('ArrowRight');
      expect(await selected()).toEqual({ selected: 'Python', focused: 'Python' });
      await page.keyboard.press('ArrowRight');
      expect(await selected()).toEqual({ selected: 'SDK', focused: 'SDK' });
      await page.keyboard.press('ArrowRight');
      expect(await selected()).toEqual({ selected: 'curl', focused: 'curl' });
      await page.keyboard.press('ArrowLeft');
      expect(await selected()).toEqual({ selected: 'SDK', focused: 'SDK' });
      await page.keyboard.press('Home');
      expect(await selected()).toEqual({ selected: 'curl', focused: 'curl' });
      await page.keyboard.press('End');
      expect(await selected()).toEqual({ selected: 'SDK', focused: 'SDK' });
      // Only the selected tab is in the tab order.
      expect(await tablist.locator('[role="tab"][tabindex="0"]').allInnerTexts()).toEqual(['SDK']);
    });

    it('the copy button copies the code shown, without its last newline', async () => {
      const { page, context } = await session.open({ path: `/docs/${AUTHENTICATION}` });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.baseUrl });
      const group = page.locator('.code-tabs').first();
      await group.getByRole('tab', { name: 'Python' }).click();
      const panel = group.getByRole('tabpanel');
      const code = await panel.locator('pre code').evaluate((element) => element.textContent);
      const button = panel.getByRole('button', { name: 'Copy code to clipboard' });
      await button.click();
      await page.waitForFunction((element) => element.textContent === 'Copied', await button.elementHandle());
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code.replace(/\n$/, ''));
      // Said to screen-reader users too.
      expect(await panel.locator('[aria-live="polite"]').textContent()).toBe('Copied to clipboard');
    });
  });

  describe('settings', () => {
    it('the language dropdown offers English only', async () => {
      const { page } = await session.open({ path: `/docs/${AUTHENTICATION}` });
      const language = page.locator('.navbar__settings--wide details.dropdown--language');
      expect(await language.locator('summary').innerText()).toBe('English');
      await language.locator('summary').click();
      const links = language.getByRole('link');
      expect(await links.count()).toBe(1);
      expect(await links.innerText()).toBe('English');
      expect(await links.getAttribute('lang')).toBe('en');
      expect(await links.getAttribute('hreflang')).toBe('en');
      expect(await links.getAttribute('href')).toBe(`/docs/${AUTHENTICATION}`);
      expect(await links.isVisible()).toBe(true);
      // Escape closes it.
      await page.keyboard.press('Escape');
      expect(await language.getAttribute('open')).toBeNull();
    });

    it(`the docs version dropdown offers one version, and choosing it stores ${docsVersionStorageKey} = current`, async () => {
      const { page } = await session.open({ path: `/docs/${AUTHENTICATION}` });
      expect(await page.evaluate((key) => localStorage.getItem(key), docsVersionStorageKey)).toBeNull();
      const version = page.locator('.navbar__settings--wide details.dropdown--version');
      expect(await version.locator('summary').innerText()).toBe('Current');
      await version.locator('summary').click();
      const links = version.getByRole('link');
      expect(await links.allInnerTexts()).toEqual(['Current']);
      await links.click();
      expect(await page.evaluate((key) => localStorage.getItem(key), docsVersionStorageKey)).toBe('current');
      await waitForHeading(page, docsCatalogue(testDocsAddresses).pages.get('')!.frontMatter.title);
      expect(new URL(page.url()).pathname).toBe('/docs');
      // The next pages mark the version chosen.
      expect(
        await page.locator('.navbar__settings--wide [data-docs-version="current"]').getAttribute('aria-current'),
      ).toBe('true');
    });

    for (const javaScriptEnabled of [true, false]) {
      it(`light mode only: no colour-mode control, <html data-theme="light"> (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
        const { page } = await session.open({ javaScriptEnabled, colorScheme: 'dark', path: '/' });
        expect(await page.locator('[data-color-mode-toggle], .color-mode-toggle').count()).toBe(0);
        expect(await page.getByRole('button', { name: /colou?r mode|dark|theme/i }).count()).toBe(0);
        expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
        // Light even for a reader whose system prefers dark.
        expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
      });
    }
  });
});

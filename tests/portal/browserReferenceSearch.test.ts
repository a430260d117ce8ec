/**
 * The reference's search in chromium, used from the keyboard: on /rest-api, Ctrl+K and "/" focus
 * it (not the navbar's docs search), typing lists operations, schemas and fields, Enter moves the
 * hash to the result's anchor with its heading in sight, and axe finds nothing serious with the
 * results open. Without JavaScript the box is not shown (the navigation leads everywhere).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../app/portalContext.js';
import { buildReferenceIndex, searchReference } from '../../app/reference/searchIndex.js';
import {
  PHONE,
  REFERENCE_AXE_SCOPE,
  WIDE,
  focusedId,
  isShownBelowNavbar,
  seriousViolations,
  skipBrowserTests,
  useBrowser,
} from './browserSupport.js';
import { testOpenApiDocument } from './testPortal.js';

const index = buildReferenceIndex(testOpenApiDocument() as unknown as OpenApiDocument);
/** A real operation of the document, found by words of its summary. */
const CREATE_EVENT = index.o.find(([operationId]) => operationId === 'PostEventOffer')!;
const QUERY = 'create an event';

async function openReference(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/rest-api`);
  // The reference's chunk shows the box once it has loaded.
  await page.locator('[data-reference-search-box][data-enhanced]').waitFor({ state: 'visible' });
  return page.getByRole('combobox', { name: 'Search the API reference' });
}

describe.skipIf(skipBrowserTests)('the reference search in a browser', () => {
  const session = useBrowser();

  it('Control+K and "/" focus the reference search on /rest-api; Enter on a result moves to its operation', async () => {
    const { page } = await session.open();
    const input = await openReference(page, session.baseUrl);
    await page.keyboard.press('Control+K');
    expect(await focusedId(page)).toBe('reference-search-input');
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await page.keyboard.press('/');
    expect(await focusedId(page)).toBe('reference-search-input');
    expect(await input.inputValue()).toBe('');

    const expected = searchReference(index, QUERY, 12);
    expect(expected[0].anchor).toBe(CREATE_EVENT[5]);
    await page.keyboard.type(QUERY);
    const listbox = page.getByRole('listbox', { name: 'Reference search results' });
    await listbox.waitFor();
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    const options = listbox.getByRole('option');
    expect(await options.count()).toBe(expected.length);
    const first = options.first();
    expect(await first.locator('.reference-search__kind').innerText()).toMatch(/^operation$/i);
    expect(await first.locator('.reference-search__title').innerText()).toBe(CREATE_EVENT[1]);
    expect(await first.locator('.reference-search__detail').innerText()).toBe(
      `${CREATE_EVENT[2]} ${CREATE_EVENT[3]} · ${CREATE_EVENT[0]}`,
    );
    expect(await first.locator('.reference-search__title mark').allInnerTexts()).toEqual(['Create', 'an', 'event']);

    await page.keyboard.press('ArrowDown');
    expect(await first.getAttribute('aria-selected')).toBe('true');
    expect(await input.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
    await page.keyboard.press('Enter');
    await page.waitForFunction((hash) => location.hash === hash, `#${CREATE_EVENT[5]}`);
    expect(await listbox.isVisible()).toBe(false);
    // The operation's heading is in sight below the navbar, and the focus is on the operation.
    await page.waitForFunction((id) => document.activeElement?.id === id, CREATE_EVENT[5]);
    expect(await isShownBelowNavbar(page, `${CREATE_EVENT[5]}/title`)).toBe(true);
    expect(await page.getByRole('heading', { level: 3, name: CREATE_EVENT[1] }).first().isVisible()).toBe(true);

    // Escape empties the box and closes the results.
    await page.keyboard.press('Control+K');
    await page.keyboard.type('idAtProvider');
    await listbox.waitFor();
    await page.keyboard.press('Escape');
    expect(await listbox.isVisible()).toBe(false);
    expect(await input.inputValue()).toBe('');
  });

  it('lists the schemas that have a field; choosing one moves to the schema', async () => {
    const { page } = await session.open();
    await openReference(page, session.baseUrl);
    await page.keyboard.press('Control+K');
    await page.keyboard.type('idAtProvider');
    const options = page.getByRole('listbox', { name: 'Reference search results' }).getByRole('option');
    await options.first().waitFor();
    const [field] = searchReference(index, 'idAtProvider', 1);
    expect(field.kind).toBe('field');
    expect(await options.first().locator('.reference-search__detail').innerText()).toBe(field.detail);
    await options.first().click();
    await page.waitForFunction((hash) => location.hash === hash, `#${field.anchor}`);
    // The schema's heading is in sight (its fields load below it).
    expect(await isShownBelowNavbar(page, field.anchor, 'h3')).toBe(true);
  });

  for (const viewport of [WIDE, PHONE]) {
    it(`axe finds nothing serious with the results shown at ${viewport.width} px`, async () => {
      const { page } = await session.open({ viewport });
      const input = await openReference(page, session.baseUrl);
      await input.fill('event');
      await page.getByRole('listbox', { name: 'Reference search results' }).waitFor();
      await page.keyboard.press('ArrowDown');
      expect(await seriousViolations(page, REFERENCE_AXE_SCOPE)).toEqual([]);
      // The panel fits in the screen.
      const box = (await page.locator('.reference-search__panel').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    }, 120_000);
  }

  it('without JavaScript, no search box is shown and the docs search keeps its place', async () => {
    const { page } = await session.open({ javaScriptEnabled: false, path: '/rest-api' });
    expect(await page.locator('[data-reference-search-box]').count()).toBe(1);
    expect(await page.locator('[data-reference-search-box]').isVisible()).toBe(false);
    expect(await page.getByRole('searchbox', { name: 'Search the docs' }).isVisible()).toBe(true);
  });

  it('on a docs page, Control+K still focuses the docs search', async () => {
    const { page } = await session.open({ path: '/docs' });
    await page.keyboard.press('Control+K');
    expect(await focusedId(page)).toBe('search-input');
  });
});

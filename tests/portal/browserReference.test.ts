/**
 * The REST reference in chromium, as a reader uses it: a deep link lands on its operation, also on
 * the first load; the variant picker switches a `oneOf`, loading a variant the server left as a
 * link; a folded level and a targeted schema section load their fields; the navigation is beside
 * the page on a wide screen and folded on a phone; and without JavaScript every variant and the
 * schema pages are reachable.
 */
import { runInNewContext } from 'node:vm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PHONE, skipBrowserTests, useBrowser } from './browserSupport.js';

const CREATE_EVENT = 'tag/Event-Offers/operation/PostEventOffer';
const LAST_MOCK = 'tag/Adage-Mock-(Collective-Bookings)';

/** Whether the element's top is on screen, below the sticky navbar. */
function topIsShown(page: Page, id: string) {
  return page.evaluate((targetId) => {
    const box = document.getElementById(targetId)!.getBoundingClientRect();
    const navbar = document.querySelector('.navbar')!.getBoundingClientRect().bottom;
    return box.top >= navbar - 1 && box.top < window.innerHeight;
  }, id);
}

async function referenceClientReady(page: Page) {
  await page.locator('[data-reference-search-box][data-enhanced]').waitFor({ state: 'attached' });
}

describe.skipIf(skipBrowserTests)('the REST reference in a browser', () => {
  const session = useBrowser();

  it('a deep link lands on its operation on the first load, and a link in the navigation moves to another', async () => {
    const { page, problems } = await session.open({ path: `/rest-api#${CREATE_EVENT}` });
    await referenceClientReady(page);
    expect(await topIsShown(page, CREATE_EVENT)).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);

    const mocks = await page.evaluate((tag) => document.querySelector(`[id="${tag}"] .operation`)!.id, LAST_MOCK);
    await page.locator(`.reference-nav a[href="#${mocks}"]`).click();
    await page.waitForFunction((id) => location.hash === `#${id}`, mocks);
    expect(await topIsShown(page, mocks)).toBe(true);
    expect(problems.consoleErrors).toEqual([]);
  });

  it('the variant picker switches a oneOf: a variant left as a link loads its fields when picked', async () => {
    const { page, problems } = await session.open({ path: `/rest-api#${CREATE_EVENT}` });
    await referenceClientReady(page);
    const operation = page.locator(`[id="${CREATE_EVENT}"] .operation__main`);
    const group = operation
      .locator('[data-variants]')
      .filter({ has: page.locator('[data-variant-links] a[href="/rest-api/schemas/CONCERT_create"]') });
    // The picker is put in from its template as it nears the viewport; those far away wait in theirs.
    const picker = group.getByLabel('Variant');
    await picker.waitFor();
    expect(await picker.locator('option[data-schema-ref="CONCERT_create"]').count()).toBe(1);
    const pickers = await page.evaluate(() => ({
      all: document.querySelectorAll('[data-variant-picker]').length,
      built: document.querySelectorAll('[data-variant-picker] select').length,
    }));
    expect(pickers.built).toBeGreaterThan(0);
    expect(pickers.built).toBeLessThan(pickers.all);
    // With the script, the links for readers without it are hidden, and the first variant shows alone.
    expect(await group.locator('[data-variant-links]').isVisible()).toBe(false);
    expect(await group.locator(':scope > details[data-variant]:visible').count()).toBe(1);

    await picker.selectOption({ label: 'CONCERT (CONCERT_create)' });
    const concert = group.locator(':scope > details[data-schema-ref="CONCERT_create"]');
    await concert.locator('code.schema__name', { hasText: /^musicType$/ }).waitFor();
    expect(await concert.getAttribute('open')).toBe('');
    expect(await group.locator(':scope > details[data-variant]:visible').count()).toBe(1);

    // Back to the first: the concert's fields are kept, hidden.
    await picker.selectOption({ index: 0 });
    expect(await concert.isVisible()).toBe(false);
    expect(await group.locator(':scope > details[data-variant="0"]').isVisible()).toBe(true);
    expect(problems.consoleErrors).toEqual([]);
  });

  it('a folded level loads its fields when opened, and a link to a schema opens its section with its fields', async () => {
    const { page, problems } = await session.open({ path: `/rest-api#${CREATE_EVENT}` });
    await referenceClientReady(page);
    const accessibility = page
      .locator(`[id="${CREATE_EVENT}"] .operation__main details[data-schema-ref="Accessibility"]`)
      .first();
    await accessibility.locator('summary').click();
    await accessibility.locator('code.schema__name', { hasText: /^visualDisabilityCompliant$/ }).waitFor();

    // The first success's fields are folded the same way: the answer's status and schema, its fields when opened.
    const answer = page.locator(`[id="${CREATE_EVENT}"] .responses details[data-schema-ref]`).first();
    expect(await answer.locator('summary').innerText()).toMatch(/^200 .+ EventOfferResponse$/);
    await answer.locator('summary').click();
    await answer.locator('code.schema__name', { hasText: /^priceCategories$/ }).waitFor();

    await page.locator(`[id="${CREATE_EVENT}"] .operation__main a[href="#schema/Accessibility"]`).first().click();
    const section = page.locator('[id="schema/Accessibility"]');
    await section.locator('code.schema__name', { hasText: /^audioDisabilityCompliant$/ }).waitFor();
    expect(await topIsShown(page, 'schema/Accessibility')).toBe(true);

    // On the first load too.
    await page.goto(`${session.baseUrl}/rest-api#schema/PriceCategoryResponse`);
    await page.locator('[id="schema/PriceCategoryResponse"] code.schema__name', { hasText: /^price$/ }).waitFor();
    expect(problems.consoleErrors).toEqual([]);
  });

  it('writes the JavaScript, Python and SDK samples when their tab shows, the same request as curl, and keeps the language chosen', async () => {
    const { page, problems } = await session.open({ path: `/rest-api#${CREATE_EVENT}` });
    await referenceClientReady(page);
    const samples = page.locator(`[id="samples-PostEventOffer"]`);
    const curl = await samples.locator('code.language-bash').innerText();
    // The address the test portal's configuration gives (PUBLIC_URL), as its first server.
    expect(curl).toContain("curl -X POST 'https://sandbox.example.net/public/offers/v1/events'");
    await samples.getByRole('tab', { name: 'JavaScript' }).click();
    const javascript = await samples.locator('code.language-javascript').innerText();
    expect(javascript).toContain('await fetch("https://sandbox.example.net/public/offers/v1/events", {');
    expect(javascript).toContain('method: "POST"');
    // The same body as the curl sample.
    const body = (code: string, start: string, end: string) =>
      JSON.parse(code.slice(code.indexOf(start) + start.length, code.lastIndexOf(end)));
    expect(body(javascript, 'body: JSON.stringify(', '),')).toEqual(body(curl, "--data '", "'"));
    // The SDK's call: the operation's method and path, and the same body as a TypeScript literal.
    await samples.getByRole('tab', { name: 'SDK' }).click();
    const sdk = await samples.locator('code.language-typescript').innerText();
    expect(sdk).toContain('createClient({ baseUrl: "https://sandbox.example.net", apiKey: "YOUR_API_KEY" })');
    expect(sdk).toContain('await api.POST("/public/offers/v1/events", {');
    const literal = sdk.slice(sdk.indexOf('  body: ') + '  body: '.length, sdk.lastIndexOf(',\n});'));
    expect(runInNewContext(`(${literal})`)).toEqual(body(curl, "--data '", "'"));

    // The choice is remembered: on the next load each group's Python tab shows, written as the group comes in.
    await samples.getByRole('tab', { name: 'Python' }).click();
    await page.reload();
    await referenceClientReady(page);
    await page
      .locator('.operation__aside[data-samples="/rest-api/operations/GetEvent/samples"]')
      .scrollIntoViewIfNeeded();
    const other = page.locator('[id="samples-GetEvent"]');
    await other.locator('code.language-python', { hasText: 'requests.get(' }).waitFor();
    expect(await other.getByRole('tab', { name: 'Python' }).getAttribute('aria-selected')).toBe('true');
    expect(problems.consoleErrors).toEqual([]);
  });

  it("puts an operation's samples in as it comes near the screen, not before, each block with its copy button", async () => {
    const { page } = await session.open({ path: '/rest-api' });
    await referenceClientReady(page);
    const lastAside = page.locator(`[id="${LAST_MOCK}"] .operation`).last().locator('.operation__aside');
    // The first screen's samples are in, with their copy buttons; the fifty operations further down have a link instead.
    await page.locator('.operation__aside .code-block__copy').first().waitFor();
    expect(await page.locator('.operation__aside pre[data-copy]').count()).toBeLessThan(20);
    expect(await lastAside.locator('pre').count()).toBe(0);
    expect(await lastAside.locator('a[href^="/rest-api/operations/"]').count()).toBe(1);
    await lastAside.scrollIntoViewIfNeeded();
    const pre = lastAside.locator('pre[data-copy]').first();
    await pre.waitFor();
    expect(await pre.innerText()).toMatch(/^curl -X POST /);
    const button = pre.locator('xpath=..').getByRole('button', { name: 'Copy code to clipboard' });
    await button.waitFor();
    expect(await button.isVisible()).toBe(true);
    expect(await lastAside.locator('a[href^="/rest-api/operations/"]').count()).toBe(0);
  });

  it('shows the navigation beside the page on a wide screen, and folded above it on a phone', async () => {
    const wide = await session.open({ path: '/rest-api' });
    expect(await wide.page.locator(`.reference-nav a[href="#${CREATE_EVENT}"]`).isVisible()).toBe(true);
    expect(await wide.page.locator('.reference-nav__fold > summary').isVisible()).toBe(false);

    const phone = await session.open({ path: '/rest-api', viewport: PHONE });
    const fold = phone.page.locator('.reference-nav__fold');
    expect(await fold.locator(`a[href="#${CREATE_EVENT}"]`).isVisible()).toBe(false);
    await fold.locator('summary').click();
    expect(await fold.locator(`a[href="#${CREATE_EVENT}"]`).isVisible()).toBe(true);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it('without JavaScript, every variant is reachable and a folded level leads to its schema page', async () => {
    const { page } = await session.open({ path: `/rest-api#${CREATE_EVENT}`, javaScriptEnabled: false });
    const operation = page.locator(`[id="${CREATE_EVENT}"] .operation__main`);
    const group = operation
      .locator('[data-variants]')
      .filter({ has: page.locator('[data-variant-links] a[href="/rest-api/schemas/CONCERT_create"]') });
    expect(await group.getByLabel('Variant').count()).toBe(0);
    const concert = group.locator('[data-variant-links] a', { hasText: 'CONCERT (CONCERT_create)' });
    expect(await concert.isVisible()).toBe(true);
    await concert.click();
    await page.waitForURL(`${session.baseUrl}/rest-api/schemas/CONCERT_create`);
    expect(await page.locator('h1').innerText()).toBe('CONCERT_create');
    expect(await page.locator('code.schema__name', { hasText: /^musicType$/ }).isVisible()).toBe(true);

    // The samples are a link away, on a page of their own: only the curl sample, which the server
    // writes; the others need the script.
    await page.goto(`${session.baseUrl}/rest-api#${CREATE_EVENT}`);
    await page
      .locator(`[id="${CREATE_EVENT}"] .operation__aside a[href="/rest-api/operations/PostEventOffer"]`)
      .click();
    await page.waitForURL(`${session.baseUrl}/rest-api/operations/PostEventOffer`);
    const samples = page.locator('[id="samples-PostEventOffer"]');
    expect(await samples.locator('code.language-bash').isVisible()).toBe(true);
    expect(await samples.locator('code.language-javascript').isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: 'in the reference' }).getAttribute('href')).toBe(
      `/rest-api#${CREATE_EVENT}`,
    );

    // The small choices show every variant.
    await page.goto(`${session.baseUrl}/rest-api#${CREATE_EVENT}`);
    const locations = operation
      .locator('[data-variants]')
      .filter({ has: page.locator('summary', { hasText: 'digital (DigitalLocation)' }) })
      .first();
    expect(await locations.locator(':scope > details[data-variant]:visible').count()).toBe(3);
  });
});

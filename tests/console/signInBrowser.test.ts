import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  newWatchedContext,
  type PageProblems,
  seriousViolations,
  skipBrowserTests,
  WIDE,
} from '../portal/browserSupport.js';
import { aBackOfficeWorld, type BackOfficeWorld } from '../backoffice/backOfficeWorld.js';

/** The console's sign-in in a browser: from the keyboard, accessible, and refused to an internal key. */
describe.skipIf(skipBrowserTests)("The console's sign-in in a browser", () => {
  let world: BackOfficeWorld;
  let browser: Browser;
  let context: BrowserContext;
  let problems: PageProblems;
  let page: Page;
  const url = (path: string) => `${world.server.baseUrl}${path}`;

  async function submitKey(key: string) {
    await page.getByLabel('API key').fill(key);
    const button = page.getByRole('button', { name: 'Sign in', exact: true });
    await button.focus();
    await page.keyboard.press('Enter');
  }

  beforeAll(async () => {
    world = await aBackOfficeWorld();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });
  beforeEach(async () => {
    ({ context, problems } = await newWatchedContext(browser, { viewport: WIDE }));
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });

  it("signs in with the provider's key, shows the console's frame, and signs out", async () => {
    await page.goto(url('/console/keys'));
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    expect(await seriousViolations(page)).toEqual([]);
    await submitKey(world.sandbox.apiKey);
    await page.waitForURL(url('/console/keys'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Keys');
    const navigation = page.getByRole('navigation', { name: 'Console' });
    expect(await navigation.getByRole('link').allTextContents()).toEqual([
      'Requests',
      'Messages',
      'Test events',
      'Keys',
    ]);
    expect(await navigation.getByRole('link', { name: 'Keys' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByText(world.sandbox.provider.name, { exact: false }).count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    const cookie = (await context.cookies()).find((one) => one.name === 'console_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    const signOut = page.getByRole('button', { name: 'Sign out' });
    await signOut.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/console/sign-in'));
    expect((await context.cookies()).find((one) => one.name === 'console_session')).toBeUndefined();
    await page.goto(url('/console'));
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    expect(problems.pageErrors).toEqual([]);
    expect(problems.externalRequests).toEqual([]);
  });

  it('refuses an internal key with the 403 page, and stays on the sign-in', async () => {
    await page.goto(url('/console/sign-in'));
    await submitKey(world.internalKey);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Internal keys do not open the console');
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    expect((await context.cookies()).find((one) => one.name === 'console_session')).toBeUndefined();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

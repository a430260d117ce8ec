import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// The named export: under NodeNext the package's CommonJS typings hide the default one.
import { AxeBuilder } from '@axe-core/playwright';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal } from './testPortal.js';

const CHROMIUM_PATH = '/usr/bin/chromium';
// Debian's chromium, never a browser downloaded by a tool; these flags let it run headless here.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const WIDE = { width: 1280, height: 900 };
const NARROW = { width: 800, height: 900 };

const hasChromium = existsSync(CHROMIUM_PATH);
const deliberatelySkipped = process.env.SKIP_BROWSER_TESTS === '1';
// On CI a missing browser is a broken machine, not a reason to skip: the suite runs and fails.
const mustRun = process.env.CI === 'true' && !deliberatelySkipped;
const skip = deliberatelySkipped || (!hasChromium && !mustRun);
if (deliberatelySkipped) {
  console.warn('Browser tests skipped: SKIP_BROWSER_TESTS=1');
} else if (skip) {
  console.warn(`Browser tests skipped: ${CHROMIUM_PATH} not found (apt-get install -y chromium)`);
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

describe.skipIf(skip)('portal in a browser', () => {
  let server: Server;
  let baseUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!hasChromium) {
      throw new Error(`CI=true but ${CHROMIUM_PATH} is missing: apt-get install -y chromium`);
    }
    const app = await createTestPortal({ testFixtures: true });
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  }, 120_000);

  // axe needs a page from an explicit context; closing the context closes its pages too.
  async function openPage(viewport: typeof WIDE, javaScriptEnabled = true) {
    const context = await browser.newContext({ viewport, javaScriptEnabled });
    return { page: await context.newPage(), close: () => context.close() };
  }

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  it('shows the home page with the inline navbar on a wide screen', async () => {
    const { page, close } = await openPage(WIDE);
    await page.goto(`${baseUrl}/`);
    expect(await page.title()).toBe('API documentation');
    const heading = page.getByRole('heading', { level: 1, name: 'API documentation' });
    expect(await heading.isVisible()).toBe(true);

    const navbar = page.locator('nav.navbar__links');
    expect(await navbar.isVisible()).toBe(true);
    for (const name of ['Docs', 'REST API', 'Change logs', /GitHub/]) {
      expect(await navbar.getByRole('link', { name }).isVisible()).toBe(true);
    }
    expect(await page.locator('.navbar__toggle').isVisible()).toBe(false);

    await page.screenshot({ path: '/tmp/portal-home.png', fullPage: true });
    await close();
  });

  for (const javaScriptEnabled of [true, false]) {
    it(`opens the drawer on a narrow screen (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const { page, close } = await openPage(NARROW, javaScriptEnabled);
      await page.goto(`${baseUrl}/`);

      expect(await page.locator('nav.navbar__links').isVisible()).toBe(false);
      const toggle = page.locator('.navbar__toggle');
      expect(await toggle.isVisible()).toBe(true);
      const drawerLinks = page.locator('.navbar__drawer-panel');
      expect(await drawerLinks.getByRole('link', { name: 'REST API' }).isVisible()).toBe(false);

      await toggle.click();
      for (const name of ['Docs', 'REST API', 'Change logs', /GitHub/]) {
        expect(await drawerLinks.getByRole('link', { name }).isVisible()).toBe(true);
      }
      if (javaScriptEnabled) await page.screenshot({ path: '/tmp/portal-home-drawer.png' });
      await close();
    });
  }

  it('has no serious or critical accessibility violations on the home page', async () => {
    for (const viewport of [WIDE, NARROW]) {
      const { page, close } = await openPage(viewport);
      await page.goto(`${baseUrl}/`);
      expect(await seriousViolations(page)).toEqual([]);
      await close();
    }
  });

  it('renders the not-found page for an unknown path', async () => {
    const { page, close } = await openPage(WIDE);
    const response = await page.goto(`${baseUrl}/some/unknown/page`);
    expect(response?.status()).toBe(404);
    const heading = page.getByRole('heading', { level: 1, name: 'Page Not Found' });
    expect(await heading.isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    // Client-side navigation changes the URL before React renders the new title.
    await page.waitForFunction(() => document.title === 'API documentation');
    expect(page.url()).toBe(`${baseUrl}/`);
    await close();
  });
});

import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ColorModeToggle } from '../../app/components/SiteSettings.js';
import { colorModeSettings } from '../../app/site.js';
import { createTestPortal } from './testPortal.js';

/** The navbar's dropdowns of one kind on a page (the wide navbar's and the drawer's). */
const menus = (html: string, kind: 'language' | 'version') =>
  [...html.matchAll(new RegExp(`<details class="dropdown dropdown--${kind}"[\\s\\S]*?</details>`, 'g'))].map(
    ([menu]) => menu,
  );
/** The [code, label] of each language a menu offers. */
const languagesIn = (menu: string) =>
  [...menu.matchAll(/<a [^>]*hreflang="(\w+)"[^>]*>([^<]+)<\/a>/gi)].map(([, code, label]) => [code, label]);

describe('site settings', () => {
  it('are English only, one docs version, and light mode with the switch disabled, on every kind of page', async () => {
    const app = await createTestPortal();
    for (const path of ['/', '/docs', '/rest-api', '/change-logs', '/search?q=countermark', '/no/such/page']) {
      const { text } = await request(app).get(path);
      expect(text, path).toContain('<html lang="en" data-theme="light">');
      expect(text, path).not.toContain('data-color-mode-toggle');
      expect(menus(text, 'language').map(languagesIn), path).toEqual([[['en', 'English']], [['en', 'English']]]);
      const versions = menus(text, 'version').map((menu) =>
        [...menu.matchAll(/data-docs-version="([^"]+)"/g)].map(([, version]) => version),
      );
      expect(versions, path).toEqual([['current'], ['current']]);
    }
  }, 120_000);

  it('the theme has a colour-mode control (light, dark, system) that a site enabling the switch renders', () => {
    expect(renderToStaticMarkup(createElement(ColorModeToggle))).toBe('');
    const enabled = renderToStaticMarkup(
      createElement(ColorModeToggle, { settings: { ...colorModeSettings, disableSwitch: false } }),
    );
    expect(enabled).toContain('data-color-mode-toggle');
    expect(enabled).toContain('data-modes="light dark system"');
  });

  it('renders the language dropdown (one locale), the version dropdown, and no colour-mode control', async () => {
    const app = await createTestPortal();
    const { text } = await request(app).get('/docs/tutorials/create-a-collective-offer');
    expect(text).toContain('<html lang="en" data-theme="light">');
    expect(text).not.toContain('data-color-mode-toggle');
    const [languageMenu] = menus(text, 'language');
    expect(languagesIn(languageMenu)).toEqual([['en', 'English']]);
    // The language link keeps the reader on the page being read.
    expect(languageMenu).toContain('href="/docs/tutorials/create-a-collective-offer"');
    const [versionMenu] = menus(text, 'version');
    expect(versionMenu).toContain('data-docs-version="current"');
    expect(versionMenu).toContain('data-storage-key="docs-preferred-version-default"');
  }, 120_000);
});

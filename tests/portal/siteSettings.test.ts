import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ColorModeToggle } from '../../app/components/SiteSettings.js';
import { colorModeSettings, docsVersions, locales } from '../../app/site.js';
import { createTestPortal } from './testPortal.js';

describe('site settings', () => {
  it('are English only, one docs version, and light mode with the switch disabled', () => {
    expect(locales).toEqual([{ code: 'en', label: 'English' }]);
    expect(docsVersions).toHaveLength(1);
    expect(colorModeSettings).toMatchObject({
      defaultMode: 'light',
      disableSwitch: true,
      modes: ['light', 'dark', 'system'],
    });
  });

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
    const languageMenu = /<details class="dropdown dropdown--language"[\s\S]*?<\/details>/.exec(text)![0];
    expect(
      [...languageMenu.matchAll(/<a [^>]*hreflang="(\w+)"[^>]*>([^<]+)<\/a>/gi)].map(([, code, label]) => [
        code,
        label,
      ]),
    ).toEqual([['en', 'English']]);
    // The language link keeps the reader on the page being read.
    expect(languageMenu).toContain('href="/docs/tutorials/create-a-collective-offer"');
    const versionMenu = /<details class="dropdown dropdown--version"[\s\S]*?<\/details>/.exec(text)![0];
    expect(versionMenu).toContain('data-docs-version="current"');
    expect(versionMenu).toContain('data-storage-key="docs-preferred-version-default"');
  }, 120_000);
});

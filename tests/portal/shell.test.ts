import { gzipSync } from 'node:zlib';
import type express from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPortalHandler, portalBuildExists } from '../../server/portal.js';
import { ensurePortalBuilt } from './ensureBuilt.js';
import { createTestPortal, testOpenApiDocument } from './testPortal.js';

describe('portal shell', () => {
  let app: express.Express;

  beforeAll(async () => {
    expect(portalBuildExists(ensurePortalBuilt())).toBe(true);
    app = await createTestPortal();
  }, 120_000);

  it('serves the home page with the site title', async () => {
    const response = await request(app).get('/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.text).toContain('<html lang="en"');
    expect(response.text).toContain('<title>API documentation</title>');
    expect(response.text).toMatch(/<h1[^>]*>API documentation<\/h1>/);
  });

  it('shows the navbar items and the source repository link', async () => {
    const { text } = await request(app).get('/');
    expect(text).toMatch(/<a[^>]*href="\/docs"[^>]*>Docs<\/a>/);
    expect(text).toMatch(/<a[^>]*href="\/rest-api"[^>]*>REST API<\/a>/);
    expect(text).toMatch(/<a[^>]*href="\/change-logs"[^>]*>Change logs<\/a>/);
    expect(text).toMatch(/<a href="https:\/\/github\.com\/pass-culture\/pass-culture-main"[^>]*rel="noopener[^"]*"/);
  });

  it('shows the footer link groups and the copyright line', async () => {
    const { text } = await request(app).get('/');
    for (const heading of ['Our websites', 'Useful links', 'Social']) {
      expect(text).toContain(`>${heading}</h2>`);
    }
    for (const label of ['For cultural partners', 'For beneficiaries', 'General information']) {
      expect(text).toContain(label);
    }
    for (const label of ['Terms of use for the APIs', 'Help center', 'Source repository']) {
      expect(text).toContain(label);
    }
    expect(text).toMatch(/Copyright © <!-- -->2025<!-- --> <!-- -->\S+|Copyright © 2025 \S+/);
  });

  it('answers unknown pages with 404 and the not-found page', async () => {
    const response = await request(app).get('/some/unknown/page');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.text).toContain('Page Not Found</h1>');
    expect(response.text).toMatch(/<a[^>]*href="\/"[^>]*>Go to the home page<\/a>/);
    expect(response.text).toContain('<title>Page Not Found | API documentation</title>');
  });

  // A POST to a page without an action is a 405 route error: the crash fallback, not a 404.
  it('renders the crash fallback for errors other than 404', async () => {
    const response = await request(app).post('/').type('form').send('intent=unknown');
    expect(response.status).toBe(405);
    expect(response.text).toContain('This page crashed</h1>');
    expect(response.text).toMatch(/<button[^>]*>Try again<\/button>/);
  });

  it('serves hashed assets under /build with an immutable cache', async () => {
    const { text } = await request(app).get('/');
    const assetPath = text.match(/\/build\/[^"]+\.js/)?.[0];
    expect(assetPath).toBeDefined();
    const asset = await request(app).get(assetPath!);
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('runs one script, the fingerprinted client module, and it fits the 60 KB (gzip) budget of a doc page', async () => {
    for (const path of ['/', '/docs/understanding-our-api/authentication-authorization']) {
      const { text } = await request(app).get(path);
      const scripts = [...text.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
      expect(scripts, path).toEqual([
        expect.stringMatching(/^<script type="module" src="\/build\/client\/portal-[A-Z0-9]+\.js">$/),
      ]);
      expect(text).not.toContain('__remixContext');
      const src = /src="([^"]+)"/.exec(scripts[0])![1];
      const script = await request(app).get(src);
      expect(gzipSync(script.text, { level: 9 }).length).toBeLessThan(60 * 1024);
    }
  });

  it('sends pages and assets compressed when the browser accepts it', async () => {
    const page = await request(app).get('/docs').set('Accept-Encoding', 'br, gzip');
    expect(page.headers['content-encoding']).toBe('br');
    const gzipped = await request(app).get('/docs').set('Accept-Encoding', 'gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    const stylesheet = page.text.match(/href="(\/build\/[^"]+\.css)"/)![1];
    expect((await request(app).get(stylesheet).set('Accept-Encoding', 'gzip')).headers['content-encoding']).toBe(
      'gzip',
    );
  });

  it('writes the stylesheets into the page, each naming the fingerprinted file it is, and links none', async () => {
    const { text } = await request(app).get('/');
    const inline = [...text.matchAll(/<style data-href="(\/build\/_assets\/[\w-]+\.css)">([^<]*)<\/style>/g)];
    expect(inline.map(([, href]) => href.replace(/-\w+\.css$/, ''))).toEqual([
      '/build/_assets/global',
      '/build/_assets/code',
      '/build/_assets/search',
    ]);
    expect(text).not.toContain('rel="stylesheet"');
    for (const [, href, css] of inline) expect((await request(app).get(href)).text).toBe(css);
    expect(inline[0][2]).toContain('--accent: #6d28d9');
  });
});

describe('createPortalHandler', () => {
  it('serves the portal in development mode too', async () => {
    const app = await createTestPortal({ mode: 'development' });
    const response = await request(app).get('/');
    expect(response.status).toBe(200);
    expect(response.text).toContain('<title>API documentation</title>');
  }, 120_000);

  it('explains how to fix a missing build', async () => {
    await expect(
      createPortalHandler({
        mode: 'production',
        projectRoot: '/nonexistent-project',
        openApiDocument: testOpenApiDocument(),
      }),
    ).rejects.toThrow('Portal not built: run npm run build');
  });
});

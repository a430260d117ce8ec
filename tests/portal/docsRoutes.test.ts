import type express from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { docsCatalogue } from '../../app/docs/docs.server.js';
import { allCategories, allDocPaths } from '../../app/docs/sidebar.js';
import { createTestPortal, escapedHtml, testDocsAddresses } from './testPortal.js';

/** The first version of every docs route, rendered on the server from docs/pages. */
describe('docs routes', () => {
  let app: express.Express;

  beforeAll(async () => {
    app = await createTestPortal();
  }, 120_000);

  it('renders every doc page with its title, the one sidebar and its table of contents', async () => {
    const { pages } = docsCatalogue(testDocsAddresses);
    for (const path of allDocPaths()) {
      const page = pages.get(path)!;
      const response = await request(app).get(`/docs/${path}`);
      expect(response.status, path).toBe(200);
      expect(response.text, path).toContain(`<h1>${escapedHtml(page.frontMatter.title)}</h1>`);
      expect(response.text, path).toContain(
        `<title>${escapedHtml(page.frontMatter.title)} | API documentation</title>`,
      );
      expect(response.text, path).toMatch(
        /<nav class="sidebar" aria-label="Docs">\s*<ul class="sidebar__list"><li><a[^>]*href="\/docs\/category\/mandatory-steps"/,
      );
      expect(response.text, path).toContain(`href="/docs/${path}"`);
      for (const entry of page.toc) expect(response.text, `${path} #${entry.id}`).toContain(`href="#${entry.id}"`);
    }
  }, 60_000);

  it('renders the /docs landing, every category index and the change log', async () => {
    expect((await request(app).get('/docs')).status).toBe(200);
    for (const category of allCategories()) {
      const response = await request(app).get(`/docs/category/${category.slug}`);
      expect(response.status, category.slug).toBe(200);
      expect(response.text).toContain(`<h1>${escapedHtml(category.label)}</h1>`);
    }
    const changeLog = await request(app).get('/change-logs');
    expect(changeLog.status).toBe(200);
    expect(changeLog.text).toContain(
      `<h1>${escapedHtml(docsCatalogue(testDocsAddresses).changeLog.frontMatter.title)}</h1>`,
    );
  });

  it('answers 404 for a doc page or a category that does not exist', async () => {
    for (const path of ['/docs/no-such-page', '/docs/category/no-such-category', '/docs/mandatory-steps']) {
      const response = await request(app).get(path);
      expect(response.status, path).toBe(404);
      expect(response.text).toContain('Page Not Found</h1>');
    }
  });

  it('redirects a trailing-slash page to its canonical URL (query kept), never to another site', async () => {
    const cases: [string, string][] = [
      ['/docs/', '/docs'],
      ['/docs/category/tutorials/?from=nav', '/docs/category/tutorials?from=nav'],
      ['/change-logs//', '/change-logs'],
      ['//evil.example.com/', '/evil.example.com'],
    ];
    for (const [from, to] of cases) {
      const response = await request(app).get(from);
      expect(response.status, from).toBe(301);
      expect(response.headers.location, from).toBe(to);
    }
    // The API's own paths keep their form (the contract has trailing slashes of its own).
    const api = await request(app).get('/v2/collective/offers/');
    expect(api.status).not.toBe(301);
    expect((await request(app).get('/')).status).toBe(200);
  });
});

import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBuiltPortalLinks, crawlPortalLinks } from '../../server/portalLinks.js';
import { listenLocally, type LocalServer } from '../support/miscLocalServer.js';
import { ensurePortalBuilt } from './ensureBuilt.js';
import { linkedPortalPaths, testOpenApiDocument } from './testPortal.js';

/** What the build runs after it has built the portal: every internal link and anchor resolves. */
describe('the built portal has no broken link', () => {
  it('reaches every route from the home page, and every link and anchor resolves', async () => {
    const report = await checkBuiltPortalLinks({
      projectRoot: ensurePortalBuilt(),
      openApiDocument: testOpenApiDocument(),
      startPaths: ['/'],
    });
    expect(report.broken).toEqual([]);
    expect(report.pages).toEqual(expect.arrayContaining(linkedPortalPaths()));
  }, 120_000);
});

describe('crawlPortalLinks', () => {
  let server: LocalServer;

  const page = (body: string) =>
    `<!doctype html><html><head><link rel="stylesheet" href="/build/site.css"></head><body>${body}</body></html>`;

  beforeAll(async () => {
    const app = express();
    app.set('strict routing', true);
    app.get('/', (_request, response) => {
      response.send(
        page(
          '<a href="/a">A</a> <a href="/a#here">here</a> <a href="/a#nowhere">nowhere</a> <a href="/missing">missing</a> <a href="/a/">slash</a> <a href="https://example.org/x">out</a> <img src="/build/missing.png">',
        ),
      );
    });
    app.get('/a', (_request, response) => {
      response.send(
        page('<h2 id="here">Here</h2><a href="#here">self</a><a href="#gone">gone</a><a href="/">home</a>'),
      );
    });
    app.get('/a/', (_request, response) => {
      response.redirect(301, '/a');
    });
    app.get('/build/site.css', (_request, response) => {
      response.type('text/css').send('body{}');
    });
    server = await listenLocally(app);
  });

  afterAll(() => server.close());

  it('lists each missing page, redirect, missing asset and missing anchor with the page that links to it', async () => {
    const report = await crawlPortalLinks(server.baseUrl);
    expect(report.broken.sort()).toEqual(
      [
        '/: /a#nowhere (no such anchor)',
        '/: /missing (answers 404)',
        '/: /a/ (answers 301, to /a)',
        '/: /build/missing.png (answers 404)',
        '/a: #gone (no such anchor)',
      ].sort(),
    );
    expect(report.pages.sort()).toEqual(['/', '/a']);
  });
});

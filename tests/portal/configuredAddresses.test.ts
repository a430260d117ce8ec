/**
 * One process as `npm start` composes it (the API, /openapi.json and the portal on one app), with
 * its addresses configured: the OpenAPI document, the reference at /rest-api and the docs all name
 * those addresses, and only those, and the reference stays a cached, compressed page.
 */
import type express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { servedOpenApiDocument } from '../../server/openApiDocument.js';
import { createPortalHandler } from '../../server/portal.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ensurePortalBuilt } from './ensureBuilt.js';

const CONFIGURED = {
  APP_ENV: 'integration',
  PUBLIC_URL: 'https://sandbox.example.net',
  PRODUCTION_URL: 'https://api.example.net',
  SUPPORT_EMAIL: 'providers@example.net',
};

/** Every host an HTML page names in a URL. */
const hostsIn = (html: string) => new Set([...html.matchAll(/https?:\/\/([\w.-]+)/g)].map((match) => match[1]));

describe('a process with its addresses configured', () => {
  let testApp: TestApp;
  let app: express.Express;

  beforeAll(async () => {
    const projectRoot = ensurePortalBuilt();
    testApp = await createTestApp({ env: CONFIGURED });
    const portal = await createPortalHandler({
      mode: 'production',
      projectRoot,
      openApiDocument: servedOpenApiDocument(testApp.runtime).document,
    });
    app = createApp(testApp.runtime, { portal });
  }, 120_000);
  afterAll(async () => {
    await testApp?.close();
  });

  it('serves an OpenAPI document whose servers and contact are the configured ones', async () => {
    const response = await request(app).get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.servers).toEqual([
      { url: 'https://sandbox.example.net', description: 'Integration: test data, school-platform mocks' },
      { url: 'https://api.example.net', description: 'Production' },
    ]);
    expect(response.body.info.contact.email).toBe('providers@example.net');
  });

  it('renders the reference with those servers, its samples calling the first, and no other API host', async () => {
    const { text: html } = await request(app).get('/rest-api');
    const start = html.indexOf('<ul class="reference__servers">');
    const servers = html.slice(start, html.indexOf('</ul>', start));
    expect(servers).toContain('<code>https://sandbox.example.net</code>');
    expect(servers).toContain('<code>https://api.example.net</code>');
    // The reference itself, without the site's footer and its links to the programme's websites,
    // and the samples its client puts in (a page of their own without JavaScript).
    const reference = html.slice(html.indexOf('<div class="reference"'), html.indexOf('<footer'));
    const samples = (await request(app).get('/rest-api/operations/PostEventOffer/samples')).text;
    const samplesPage = (await request(app).get('/rest-api/operations/PostEventOffer')).text;
    for (const text of [samples, samplesPage])
      expect(text).toContain('https://sandbox.example.net/public/offers/v1/events');
    for (const text of [
      reference,
      samples,
      samplesPage.slice(samplesPage.indexOf('<article'), samplesPage.indexOf('<footer')),
    ]) {
      const apiHosts = [...hostsIn(text)].filter((host) => !/(^|\.)example\.(com|net|org)$/.test(host));
      expect(apiHosts).toEqual([]);
    }
  });

  it('keeps the reference rendered and compressed: an ETag, a 304 for it, brotli when accepted', async () => {
    // The first request starts making the kept copy; until it is made, the page renders as any other.
    let first = await request(app).get('/rest-api').set('Accept-Encoding', 'br');
    for (let attempt = 0; !first.headers.etag && attempt < 50; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      first = await request(app).get('/rest-api').set('Accept-Encoding', 'br');
    }
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
    const again = await request(app).get('/rest-api').set('If-None-Match', first.headers.etag);
    expect(again.status).toBe(304);
  });

  it('shows the configured address in the docs’ samples and the support address in the account page', async () => {
    const landing = await request(app).get('/docs');
    expect(landing.text).toContain('curl "https://sandbox.example.net/public/providers/v1/provider"');
    const guide = await request(app).get('/docs/understanding-our-api/authentication-authorization');
    expect(guide.text).toContain('BASE_URL=https://sandbox.example.net');
    const account = await request(app).get('/docs/mandatory-steps/request-a-provider-account');
    expect(account.text).toContain('href="mailto:providers@example.net"');
    for (const page of [landing.text, guide.text, account.text]) expect(page).not.toContain('{{');
  });
});

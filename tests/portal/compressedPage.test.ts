import express from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { compressedPageRoute } from '../../server/compressedPage.js';
import { REFERENCE_PATH } from '../../server/portal.js';
import { createTestPortal } from './testPortal.js';

/** The body as bytes; supertest has decoded it from the Content-Encoding the answer names. */
const raw = (test: request.Test) =>
  test.buffer(true).parse((response, done) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => done(null, Buffer.concat(chunks)));
  });

const html = `<!DOCTYPE html><html><body>${'<p>The same page for every reader.</p>'.repeat(500)}</body></html>`;

/** An app whose /page is kept by compressedPageRoute, rendered by `render`; other answers say "live". */
function appWith(render: () => Promise<Response>) {
  const route = compressedPageRoute('/page', render);
  const app = express();
  app.use(route);
  app.use((_request, response) => {
    response.type('html').send('live');
  });
  return { app, route };
}

describe('compressedPageRoute', () => {
  it('renders the page live until its copy is made, then sends the copy in the encoding asked for', async () => {
    let renders = 0;
    const { app, route } = appWith(async () => {
      renders += 1;
      return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    });
    expect((await request(app).get('/page')).text).toBe('live');
    await route.make();

    const br = await raw(request(app).get('/page').set('Accept-Encoding', 'gzip, deflate, br'));
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((br.body as Buffer).toString()).toBe(html);
    expect(Number(br.headers['content-length'])).toBeLessThan(Buffer.byteLength(html) / 20);

    const gzip = await raw(request(app).get('/page').set('Accept-Encoding', 'gzip'));
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect((gzip.body as Buffer).toString()).toBe(html);

    const plain = await raw(request(app).get('/page').set('Accept-Encoding', 'identity'));
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((plain.body as Buffer).toString()).toBe(html);
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(html));
    expect(renders).toBe(1);
  });

  it('answers 304 to a reload that names its ETag, and HEAD with the headers alone', async () => {
    const { app, route } = appWith(
      async () => new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    );
    await route.make();
    const first = await request(app).get('/page');
    expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
    const again = await request(app).get('/page').set('If-None-Match', first.headers.etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const other = await request(app).get('/page').set('If-None-Match', '"another"');
    expect(other.status).toBe(200);
    const head = await raw(request(app).head('/page').set('Accept-Encoding', 'identity'));
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(html)));
    expect(head.body).toEqual({});
  });

  it('leaves other paths, queries and methods to the live page', async () => {
    const { app, route } = appWith(
      async () => new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    );
    await route.make();
    expect((await request(app).get('/page?tab=1')).text).toBe('live');
    expect((await request(app).get('/other')).text).toBe('live');
    expect((await request(app).post('/page')).text).toBe('live');
  });

  it('keeps no copy of a page that did not render (a loader that failed), and tries again on the next request', async () => {
    let status = 503;
    const { app, route } = appWith(async () => new Response('down', { status }));
    await route.make();
    expect((await request(app).get('/page')).text).toBe('live');
    status = 200;
    await route.make();
    expect((await request(app).get('/page')).text).toBe('down'); // the render's body: now kept
  });
});

describe(`the portal's ${REFERENCE_PATH}`, () => {
  let app: express.Express;

  beforeAll(async () => {
    app = await createTestPortal();
  }, 120_000);

  it('is sent from its kept copy once made: the same HTML as a live render, brotli, with an ETag', async () => {
    const live = await request(app).get(`${REFERENCE_PATH}?live`).set('Accept-Encoding', 'identity');
    let kept = await raw(request(app).get(REFERENCE_PATH).set('Accept-Encoding', 'br'));
    for (let attempt = 0; !kept.headers.etag && attempt < 100; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      kept = await raw(request(app).get(REFERENCE_PATH).set('Accept-Encoding', 'br'));
    }
    expect(kept.headers.etag).toBeDefined();
    expect(kept.headers['content-encoding']).toBe('br');
    expect((kept.body as Buffer).toString()).toBe(live.text);
  }, 30_000);
});

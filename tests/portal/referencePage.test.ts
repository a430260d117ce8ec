import { COLLECTION_DOWNLOADS, COLLECTIONS_DOC } from '../../app/reference/downloads.js';
import { gzipSync } from 'node:zlib';
import type express from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../app/portalContext.js';
import { referenceTags } from '../../app/reference/model.js';
import { operationAnchor, tagAnchor } from '../../app/reference/anchors.js';
import { escapeText } from '../../app/reference/Prose.js';
import { componentSchemas } from '../../app/reference/schema.js';
import { createTestPortal, escapedHtml, testOpenApiDocument } from './testPortal.js';

/** The API reference at /rest-api, rendered on the server from the generated document. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the API reference page', () => {
  let app: express.Express;
  let html: string;
  const document = testOpenApiDocument() as unknown as OpenApiDocument;
  const schemas = componentSchemas(document);
  const tags = referenceTags(document);
  const operations = tags.flatMap((tag) => tag.operations);

  beforeAll(async () => {
    app = await createTestPortal();
    const response = await request(app).get('/rest-api');
    expect(response.status).toBe(200);
    html = response.text;
  }, 120_000);

  const ids = () => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]));

  it('renders every operation and every schema of the document, each under its deep-link anchor', () => {
    expect(operations.length).toBeGreaterThan(50);
    expect(Object.keys(schemas).length).toBeGreaterThan(200);
    const present = ids();
    for (const tag of tags) {
      expect(present.has(tagAnchor(tag.name)), tag.name).toBe(true);
      for (const operation of tag.operations) {
        expect(operation.anchor).toBe(operationAnchor(tag.name, operation.operationId));
        expect(present.has(operation.anchor), operation.operationId).toBe(true);
        expect(html, operation.operationId).toContain(operation.operationId);
        expect(html).toContain(`<section id="${escapedHtml(operation.anchor)}" class="operation"`);
        // The first operation's heading also carries elementtiming (the bench times its paint).
        expect(html).toMatch(
          new RegExp(
            `<h3 id="${escapeRegExp(escapedHtml(operation.anchor))}/title" class="operation__title"( elementtiming="first-operation")?>${escapeRegExp(escapedHtml(operation.summary))}`,
          ),
        );
      }
    }
    for (const name of Object.keys(schemas)) {
      expect(present.has(`schema/${name}`), name).toBe(true);
      expect(html).toContain(`>${name}</h3>`);
    }
    expect(present.has('tag/Adage-Mock-(Collective-Bookings)')).toBe(true);
    expect(present.has('tag/Event-Offers/operation/PostEventOffer')).toBe(true);
  });

  it('has unique ids, and every in-page link resolves to one of them', () => {
    const all = [...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
    expect(all.length - new Set(all).size).toBe(0);
    const present = new Set(all);
    const targets = new Set([...html.matchAll(/href="#([^"]+)"/g)].map((match) => match[1].replaceAll('&amp;', '&')));
    const missing = [...targets].filter((target) => !present.has(target));
    expect(missing).toEqual([]);
  });

  it('marks the page for the client, links the download, carries its stylesheet, and leads the navigation with groups, tags and operations', () => {
    expect(html).toMatch(/<div class="reference" data-reference="">/);
    expect(html).toContain('<a class="reference__download" href="/openapi.json" download="">Download openapi.json</a>');
    for (const path of Object.values(COLLECTION_DOWNLOADS)) expect(html).toContain(`<a href="${path}" download="">`);
    expect(html).toContain(`<a href="${COLLECTIONS_DOC}">how to use them</a>`);
    expect(html).toMatch(/<style data-href="\/build\/_assets\/reference-[^"]+\.css">/);
    for (const group of document['x-tagGroups'] ?? [])
      expect(html).toContain(`<span class="reference-nav__group-title">${escapedHtml(group.name)}</span>`);
    const nav = html.slice(
      html.indexOf('<nav class="reference-nav"'),
      html.indexOf('</nav>', html.indexOf('<nav class="reference-nav"')),
    );
    for (const operation of operations) expect(nav).toContain(`href="#${escapedHtml(operation.anchor)}"`);
    expect(nav).toContain('href="#schemas"');
  });

  it('works without JavaScript: every parameter of every operation, its security, its body fields and responses are in the HTML', () => {
    for (const operation of operations) {
      const start = html.indexOf(`<section id="${escapedHtml(operation.anchor)}"`);
      const section = html.slice(start, html.indexOf('</section>', html.indexOf('class="operation__aside"', start)));
      expect(section, operation.operationId).toContain(`<code>${escapedHtml(operation.path)}</code>`);
      expect(section).toContain('ApiKeyAuth');
      for (const parameter of operation.parameters) {
        expect(section, `${operation.operationId} ${parameter.name}`).toContain(`data-parameter="${parameter.name}"`);
        expect(section).toContain(`<code class="schema__name">${parameter.name}</code>`);
      }
      for (const response of operation.responses)
        expect(section, `${operation.operationId} ${response.status}`).toContain(`>${response.status}</span>`);
      // The first success of a named schema (or an array of one) is folded: its fields are a link
      // to the schema's page without JavaScript, and load in place with it.
      const success = operation.responses.find((response) => /^2/.test(response.status));
      const ref = success?.schema?.$ref ?? success?.schema?.items?.$ref;
      if (ref) {
        const name = ref.split('/').pop()!;
        expect(section, operation.operationId).toContain(
          `<li class="response"><details class="schema__nested" data-schema-ref="${name}"><summary><span class="status status--2xx">${success!.status}</span>`,
        );
        expect(section).toContain(`<a class="schema__slot" data-schema-slot="" href="/rest-api/schemas/${name}">`);
      }
      if (operation.body?.schema.$ref) {
        const body = schemas[operation.body.schema.$ref.split('/').pop()!] as { properties?: Record<string, unknown> };
        for (const field of Object.keys(body.properties ?? {}))
          expect(section, `${operation.operationId} ${field}`).toContain(`<code class="schema__name">${field}</code>`);
      }
      // The samples are not in the page: its right column says where they are, for the client and for a reader without JavaScript.
      const aside = section.slice(section.indexOf('class="operation__aside"'));
      expect(aside).toContain(`data-samples="/rest-api/operations/${operation.operationId}/samples"`);
      expect(aside).toContain(`<a href="/rest-api/operations/${operation.operationId}">`);
      expect(aside).not.toContain('<pre');
    }
  });

  it("serves each operation's samples, as the fragment the client inserts and as a page of their own", async () => {
    for (const operation of operations) {
      const fragment = await request(app).get(`/rest-api/operations/${operation.operationId}/samples`);
      expect(fragment.status, operation.operationId).toBe(200);
      expect(fragment.headers['content-type']).toBe('text/html; charset=utf-8');
      const page = await request(app).get(`/rest-api/operations/${operation.operationId}`);
      expect(page.status, operation.operationId).toBe(200);
      expect(page.text).toContain(`<h1>${escapedHtml(operation.summary)}</h1>`);
      expect(page.text).toContain(`<a href="/rest-api#${escapedHtml(operation.anchor)}">`);
      for (const section of [fragment.text, page.text]) {
        // Four tabs, each `pre` with a copy button once the client runs; curl written, the
        // JavaScript, Python and SDK ones left for the client, with the request they are written from.
        expect(section).toContain(`id="samples-${operation.operationId}"`);
        expect(section.match(/<pre data-copy=""/g)?.length ?? 0).toBeGreaterThanOrEqual(4);
        expect(section).toMatch(/<code class="language-bash">curl -X [A-Z]+ /);
        expect(section).toContain('data-sample-pending="javascript"');
        expect(section).toContain('data-sample-pending="python"');
        expect(section).toContain('data-sample-pending="typescript"');
        expect(section).toContain('<details class="try-it" data-try-it="">');
        const sampleRequest = /<script type="application\/json" data-sample-request="">([^<]*)<\/script>/.exec(section);
        expect(JSON.parse(sampleRequest![1])).toMatchObject({ method: operation.method, path: operation.path });
      }
    }
    for (const path of ['/rest-api/operations/NoSuchOperation/samples', '/rest-api/operations/NoSuchOperation'])
      expect((await request(app).get(path)).status, path).toBe(404);
  });

  it('renders a oneOf with a discriminator as variants a picker switches, every variant reachable without JavaScript', () => {
    const start = html.indexOf('<section id="tag/Event-Offers/operation/PostEventOffer"');
    const section = html.slice(start, html.indexOf('class="operation__aside"', start));
    expect(section).toContain('chosen by <code>category</code>');
    // The picker names every variant and the schema a linked one loads from; it waits in a template
    // (the client puts it in near the viewport), so that parsing the page builds no select.
    expect(section).toMatch(
      /<div class="schema-variants__picker" data-variant-picker=""><template><label><span>Variant<\/span> <select data-variant-select="">/,
    );
    expect(section).toContain('<option data-schema-ref="CONCERT_create">CONCERT (CONCERT_create)</option>');
    const variants = [...section.matchAll(/<details class="schema-variant"([^>]*)><summary>([^<]*)<\/summary>/g)];
    expect(variants.map((variant) => variant[2])).toEqual(
      expect.arrayContaining([
        'ATELIER_PRATIQUE_ART (ATELIER_PRATIQUE_ART_create)',
        'physical (PhysicalLocation)',
        'digital (DigitalLocation)',
      ]),
    );
    // A variant is a level below its field, so it loads on demand; the others of a many-variant choice are links to their schema's page.
    expect(section).toContain(
      '<details class="schema-variant" data-schema-ref="ATELIER_PRATIQUE_ART_create" data-variant="0"><summary>',
    );
    expect(section).toContain(
      '<details class="schema-variant" data-schema-ref="DigitalLocation" data-variant="1"><summary>digital (DigitalLocation)</summary><a class="schema__slot" data-schema-slot="" href="/rest-api/schemas/DigitalLocation">',
    );
    expect(section).toMatch(
      /<p class="schema-variants__links" data-variant-links="" hidden="">The others: <a href="\/rest-api\/schemas\/CINE_PLEIN_AIR_create">CINE_PLEIN_AIR \(CINE_PLEIN_AIR_create\)<\/a>, /,
    );
    expect(section).toContain('<a href="/rest-api/schemas/CONCERT_create">CONCERT (CONCERT_create)</a>');
  });

  it('writes code with its quotes as they are, escaping only what HTML needs', async () => {
    const section = (await request(app).get('/rest-api/operations/GetProvider/samples')).text;
    expect(section).toContain('<code class="language-json">{\n  "id": 1,');
    expect(section).toContain("curl -X GET 'https://");
    expect(escapeText('<a href="x">&\'</a>')).toBe('&lt;a href="x"&gt;&amp;\'&lt;/a&gt;');
  });

  it("links a write's Idempotency-Key to the docs page on retries, and leaves a read without one", () => {
    const link = '<a href="/docs/understanding-our-api/errors-and-retries">Errors and retries</a>';
    for (const operation of operations) {
      const start = html.indexOf(`<section id="${escapedHtml(operation.anchor)}"`);
      const section = html.slice(start, html.indexOf('</section>', html.indexOf('class="operation__aside"', start)));
      if (operation.method === 'GET') expect(section, operation.operationId).not.toContain('Idempotency-Key');
      else expect(section, operation.operationId).toContain(link);
    }
  });

  it('counts a null among many variants as the field being nullable, not as one more variant to draw', () => {
    const start = html.indexOf('<section id="tag/Product-Offers/operation/EditProduct"');
    const section = html.slice(start, html.indexOf('class="operation__aside"', start));
    const field = section.slice(section.indexOf('<code class="schema__name">categoryRelatedFields</code>'));
    expect(field).toMatch(
      /^<code class="schema__name">categoryRelatedFields<\/code> <span class="schema__type">oneOf \(27 schemas\) \| null<\/span>/,
    );
    expect(field).toContain('<p class="schema-variants__intro">One of 27 or null:</p>');
    // The group ends with its links to the others (the picker's place is a <div> of its own).
    const group = field.slice(0, field.indexOf('</p>', field.indexOf('data-variant-links')));
    expect(group).not.toContain('>null</option>');
    // The first variant drawn, the 26 others linked.
    expect(group.match(/<details class="schema-variant"/g)).toHaveLength(1);
    expect(
      group.slice(group.indexOf('data-variant-links')).match(/<a href="\/rest-api\/schemas\/[A-Z_]+_edit">/g),
    ).toHaveLength(26);
  });

  it('keeps the page light: one inline level, error answers linked to their schema, the schemas folded, the consoles in templates', () => {
    const live = html.replace(/<template[\s\S]*?<\/template>/g, '');
    const elements = live.match(/<[a-z][a-z0-9]*/g)?.length ?? 0;
    // Over 27,000 elements before: the first layout of those blocked a phone's main thread for seconds.
    expect(elements).toBeLessThan(11_000);
    const start = html.indexOf('<section id="tag/Event-Offers/operation/GetEvent"');
    const section = html.slice(start, html.indexOf('class="operation__aside"', start));
    expect(section).toMatch(
      /<li class="response"><span class="status status--4xx">404<\/span> [^<]+: <a href="#schema\/[A-Za-z]+">/,
    );
    expect(html).toMatch(
      /<div id="schema\/AddressModel" class="schema-section"><h3 class="schema-section__title">AddressModel<\/h3>(<p[^>]*>[^<]*<\/p>)?<details class="schema__nested" data-schema-ref="AddressModel"><summary>\d+ fields<\/summary><a class="schema__slot" data-schema-slot="" href="\/rest-api\/schemas\/AddressModel">Fields<\/a>/,
    );
  });

  it('stays under the budget: at most 150 KB of HTML once gzipped', () => {
    const size = gzipSync(html).length;
    expect(size).toBeLessThan(150 * 1024);
  });

  it('answers a schema fragment for every schema, cacheable, and 404 for an unknown one', async () => {
    for (const name of Object.keys(schemas)) {
      const response = await request(app).get(`/rest-api/schemas/${encodeURIComponent(name)}/fragment`);
      expect(response.status, name).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      expect(response.text).not.toContain('<html');
      const properties = Object.keys((schemas[name] as { properties?: Record<string, unknown> }).properties ?? {});
      for (const property of properties)
        expect(response.text, `${name}.${property}`).toContain(`<code class="schema__name">${property}</code>`);
    }
    const unknown = await request(app).get('/rest-api/schemas/NoSuchSchema/fragment');
    expect(unknown.status).toBe(404);
    // A fragment's next level is lazy again: a details to load, with a link for readers without JavaScript.
    const nested = await request(app).get('/rest-api/schemas/GetOfferersVenuesResponse/fragment');
    expect(nested.text).toMatch(
      /<details class="schema__nested" data-schema-ref="[A-Za-z]+"><summary>[^<]+<\/summary><a class="schema__slot" data-schema-slot="" href="\/rest-api\/schemas\/[A-Za-z]+">/,
    );
    expect(nested.text).toContain('href="#schema/');
    // For a schema's own page, names link to the pages instead of the reference's sections.
    const forPage = await request(app).get('/rest-api/schemas/GetOfferersVenuesResponse/fragment?links=pages');
    expect(forPage.text).not.toContain('href="#schema/');
    expect(forPage.text).toContain('href="/rest-api/schemas/');
  }, 60_000);

  it('gives every schema a page of its own, for readers without JavaScript, and 404 for an unknown one', async () => {
    for (const name of ['AddressModel', 'EventOfferCreation', 'CONCERT_create'].filter(
      (candidate) => candidate in schemas,
    )) {
      const response = await request(app).get(`/rest-api/schemas/${name}`);
      expect(response.status, name).toBe(200);
      expect(response.text).toContain(`<title>${name} schema | `);
      expect(response.text).toContain(`<h1>${name}</h1>`);
      expect(response.text).toContain(`href="/rest-api#schema/${name}"`);
      for (const property of Object.keys((schemas[name] as { properties?: Record<string, unknown> }).properties ?? {}))
        expect(response.text, `${name}.${property}`).toContain(`<code class="schema__name">${property}</code>`);
      expect(response.text).not.toContain('href="#schema/');
    }
    expect((await request(app).get('/rest-api/schemas/NoSuchSchema')).status).toBe(404);
  }, 60_000);
});

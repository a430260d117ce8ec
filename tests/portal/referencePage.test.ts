import { gzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../app/portalContext.js';
import { referenceTags } from '../../app/reference/model.js';
import { operationAnchor, tagAnchor } from '../../app/reference/anchors.js';
import { componentSchemas } from '../../app/reference/schema.js';
import { createTestPortal, testOpenApiDocument } from './testPortal.js';

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

  const escaped = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#x27;');
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
        expect(html).toContain(`<section id="${escaped(operation.anchor)}" class="operation"`);
        // The first operation's heading also carries elementtiming (the bench times its paint).
        expect(html).toMatch(new RegExp(`<h3 id="${escapeRegExp(escaped(operation.anchor))}/title" class="operation__title"( elementtiming="first-operation")?>${escapeRegExp(escaped(operation.summary))}`));
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

  it('marks the page for the client, links the download and its stylesheet, and leads the navigation with groups, tags and operations', () => {
    expect(html).toMatch(/<div class="reference" data-reference="">/);
    expect(html).toContain('<a class="reference__download" href="/openapi.json" download="">Download openapi.json</a>');
    expect(html).toMatch(/<link rel="stylesheet" href="\/build\/_assets\/reference-[^"]+\.css"/);
    for (const group of document['x-tagGroups'] ?? []) expect(html).toContain(`<span class="reference-nav__group-title">${escaped(group.name)}</span>`);
    const nav = html.slice(html.indexOf('<nav class="reference-nav"'), html.indexOf('</nav>', html.indexOf('<nav class="reference-nav"')));
    for (const operation of operations) expect(nav).toContain(`href="#${escaped(operation.anchor)}"`);
    expect(nav).toContain('href="#schemas"');
  });

  it('works without JavaScript: every parameter of every operation, its security, its body fields and responses are in the HTML', () => {
    for (const operation of operations) {
      const start = html.indexOf(`<section id="${escaped(operation.anchor)}"`);
      const section = html.slice(start, html.indexOf('</section>', html.indexOf('class="operation__aside"', start)));
      expect(section, operation.operationId).toContain(`<code>${escaped(operation.path)}</code>`);
      expect(section).toContain('ApiKeyAuth');
      for (const parameter of operation.parameters) {
        expect(section, `${operation.operationId} ${parameter.name}`).toContain(`data-parameter="${parameter.name}"`);
        expect(section).toContain(`<code class="schema__name">${parameter.name}</code>`);
      }
      for (const response of operation.responses) expect(section, `${operation.operationId} ${response.status}`).toContain(`>${response.status}</span>`);
      if (operation.body?.schema.$ref) {
        const body = schemas[operation.body.schema.$ref.split('/').pop()!] as { properties?: Record<string, unknown> };
        for (const field of Object.keys(body.properties ?? {})) expect(section, `${operation.operationId} ${field}`).toContain(`<code class="schema__name">${field}</code>`);
      }
      // Samples: three tabs, each `pre` with a copy button once the client runs.
      expect(section).toContain(`id="samples-${operation.operationId}"`);
      expect(section.match(/<pre data-copy=""/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    }
  });

  it('renders a oneOf with a discriminator as variants a picker switches, every variant reachable without JavaScript', () => {
    const start = html.indexOf('<section id="tag/Event-Offers/operation/PostEventOffer"');
    const section = html.slice(start, html.indexOf('class="operation__aside"', start));
    expect(section).toContain('chosen by <code>category</code>');
    expect(section).toMatch(/<label class="schema-variants__picker" hidden=""><span>Variant<\/span> <select data-variant-select="">/);
    const variants = [...section.matchAll(/<details class="schema-variant"([^>]*)><summary>([^<]*)<\/summary>/g)];
    expect(variants.map((variant) => variant[2])).toEqual(expect.arrayContaining(['CONCERT (CONCERT_create)', 'physical (PhysicalLocation)', 'digital (DigitalLocation)']));
    // The first variant of each group is open; lazy ones link to their schema's section.
    expect(section).toContain('<details class="schema-variant" data-variant="0" open="">');
    expect(section).toContain('<details class="schema-variant" data-schema-ref="CONCERT_create" data-variant="2"><summary>CONCERT (CONCERT_create)</summary><div class="schema__slot" data-schema-slot=""><a href="#schema/CONCERT_create">');
  });

  it('stays under the budget: at most 150 KB of HTML once gzipped', () => {
    const size = gzipSync(html).length;
    expect(size).toBeLessThan(150 * 1024);
  });

  it('answers a schema fragment for every schema, cacheable, and 404 for an unknown one', async () => {
    for (const name of Object.keys(schemas)) {
      const response = await request(app).get(`/rest-api/schemas/${encodeURIComponent(name)}`);
      expect(response.status, name).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      expect(response.text).not.toContain('<html');
      const properties = Object.keys((schemas[name] as { properties?: Record<string, unknown> }).properties ?? {});
      for (const property of properties) expect(response.text, `${name}.${property}`).toContain(`<code class="schema__name">${property}</code>`);
    }
    const unknown = await request(app).get('/rest-api/schemas/NoSuchSchema');
    expect(unknown.status).toBe(404);
    // A fragment's third level is lazy again: a details to load, with a link for readers without JavaScript.
    const nested = await request(app).get('/rest-api/schemas/GetOfferersVenuesResponse');
    expect(nested.text).toMatch(/<details class="schema__nested" data-schema-ref="PartialAccessibility"><summary>[^<]+<\/summary><div class="schema__slot" data-schema-slot=""><a href="#schema\/PartialAccessibility">/);
  }, 60_000);
});

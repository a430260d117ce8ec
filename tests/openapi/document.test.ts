import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetTypes, routes } from '../../rest-facade/index.js';
import { apiServers, generateOpenApiDocument } from '../../rest-facade/openapi.js';
import { loadConfig } from '../../server/config.js';
import { getProvider } from '../../rest-facade/providers/routes.js';
import { defineRoute } from '../../rest-facade/route.js';
import { graphql } from '../../rest-facade/subgraphs/graphql.js';
import { z } from '../../rest-facade/zod.js';
import { createTestApp, type TestApp } from '../support/app.js';

const run = promisify(execFile);

const aSandboxOperation = defineRoute({
  method: 'post',
  path: '/v2/collective/adage_mock/bookings/{booking_id}/confirm',
  tag: 'Adage Mock (Collective Bookings)',
  operationId: 'ConfirmCollectiveBooking',
  summary: 'Mock: confirm a collective booking',
  subgraph: 'providers',
  document: graphql.providers('query { provider { id } }'),
  request: { params: z.object({ booking_id: z.coerce.number().int() }) },
  response: { status: 204, description: 'Confirmed.' },
  sandboxOnly: true,
});

describe('the generated OpenAPI document', () => {
  const document = generateOpenApiDocument(routes, loadConfig({ APP_ENV: 'integration' }));

  it('is OpenAPI 3.1 with the bearer scheme ApiKeyAuth, this server and tags', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components?.securitySchemes?.ApiKeyAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.servers).toEqual([
      { url: 'http://localhost:3000', description: 'Integration: test data, school-platform mocks' },
    ]);
    expect(document.tags?.map((tag) => tag.name)).toContain('Providers');
  });

  it("names the reference contract's tags, in its order, and the school-platform mocks last", () => {
    expect(document.tags?.map((tag) => tag.name)).toEqual([
      'Providers',
      'Venues',
      'Addresses',
      'Product Offer Bulk Operations',
      'Product Offers',
      'Event Offers',
      'Event Offer Price Categories',
      'Event Offer Stocks',
      'Images',
      'Offer Attributes',
      'Bookings',
      'Collective Offers',
      'Collective Bookings',
      'Collective Offer Attributes',
      'Adage Mock (Collective Bookings)',
    ]);
  });

  it('groups the tags for the reference (x-tagGroups): every tag in exactly one group, in reading order', () => {
    const groups = document['x-tagGroups'];
    expect(groups.map((group) => group.name)).toEqual([
      'Providers and venues',
      'Individual offers',
      'Bookings',
      'Collective offers',
    ]);
    const grouped = groups.flatMap((group) => group.tags);
    expect(new Set(grouped).size).toBe(grouped.length);
    expect([...grouped].sort()).toEqual(document.tags!.map((tag) => tag.name).sort());
    // A reader meets the venues before the offers, what an offer is made of before the offers, an
    // offer before its dates and images, and the school platform's side after the collective bookings.
    const inReadingOrder = (tags: string[]) => expect(grouped.filter((tag) => tags.includes(tag))).toEqual(tags);
    inReadingOrder(['Providers', 'Venues', 'Offer Attributes', 'Event Offers', 'Event Offer Stocks', 'Images']);
    inReadingOrder(['Bookings', 'Collective Offers', 'Collective Bookings', 'Adage Mock (Collective Bookings)']);
    const groupOf = (tag: string) => groups.find((group) => (group.tags as string[]).includes(tag))?.name;
    expect(groupOf('Images')).toBe('Individual offers');
    expect(groupOf('Bookings')).toBe('Bookings');
    expect(groupOf('Adage Mock (Collective Bookings)')).toBe('Collective offers');
    const production = generateOpenApiDocument(routes, loadConfig({ APP_ENV: 'production' }));
    expect(production['x-tagGroups'].at(-1)!.tags).not.toContain('Adage Mock (Collective Bookings)');
  });

  it('declares for every operation the codes it really answers, each with a schema', () => {
    for (const route of routes) {
      const operation = (document.paths?.[route.path] as Record<string, any>)[route.method];
      expect(operation.operationId).toBe(route.operationId);
      expect(operation.security).toEqual([{ ApiKeyAuth: [] }]);
      for (const status of ['401', '403', '422', '429']) {
        expect(
          operation.responses[status]?.content?.['application/json']?.schema,
          `${route.operationId} ${status}`,
        ).toBeDefined();
      }
      expect(operation.responses['429'].headers['Retry-After']).toBeDefined();
    }
  });

  it('leaves the school-platform mocks out of the production document only', () => {
    const integration = generateOpenApiDocument(
      forgetTypes([getProvider, aSandboxOperation]),
      loadConfig({ APP_ENV: 'integration' }),
    );
    const production = generateOpenApiDocument(
      forgetTypes([getProvider, aSandboxOperation]),
      loadConfig({ APP_ENV: 'production' }),
    );
    expect(Object.keys(integration.paths ?? {})).toContain(aSandboxOperation.path);
    expect(Object.keys(production.paths ?? {})).not.toContain(aSandboxOperation.path);
    expect(production.tags?.map((tag) => tag.name)).not.toContain('Adage Mock (Collective Bookings)');
  });

  it('passes redocly lint with zero errors and zero warnings', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(directory, 'openapi.json');
      await writeFile(
        file,
        JSON.stringify(
          generateOpenApiDocument(
            [...routes, ...forgetTypes([aSandboxOperation])],
            loadConfig({
              APP_ENV: 'integration',
              // Not localhost, which redocly's no-server-example.com warns about: a deployment's addresses.
              PUBLIC_URL: 'https://sandbox.example.net',
              PRODUCTION_URL: 'https://api.example.net',
            }),
          ),
        ),
      );
      // redocly exits non-zero on errors; its JSON report says which, so read it either way.
      const { stdout } = await run(
        'node_modules/.bin/redocly',
        ['lint', file, '--config', 'redocly.yaml', '--format', 'json'],
        {
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          timeout: 60_000,
        },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
      expect(report.problems).toEqual([]);
      expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('the servers of the document', () => {
  it('are the addresses the configuration gives: this server first, then production', () => {
    const env = { PUBLIC_URL: 'https://sandbox.example.net/', PRODUCTION_URL: 'https://api.example.net' };
    expect(apiServers(loadConfig({ ...env, APP_ENV: 'integration' }))).toEqual([
      { url: 'https://sandbox.example.net', description: 'Integration: test data, school-platform mocks' },
      { url: 'https://api.example.net', description: 'Production' },
    ]);
    expect(apiServers(loadConfig({ PORT: '8080', APP_ENV: 'development' }))).toEqual([
      { url: 'http://localhost:8080', description: 'Development: test data, school-platform mocks' },
    ]);
    expect(apiServers(loadConfig({ PUBLIC_URL: 'https://api.example.net', APP_ENV: 'production' }))).toEqual([
      { url: 'https://api.example.net', description: 'Production' },
    ]);
  });

  it('and the contact, are the only addresses the document names', () => {
    const document = generateOpenApiDocument(
      routes,
      loadConfig({
        APP_ENV: 'integration',
        PUBLIC_URL: 'https://sandbox.example.net',
        PRODUCTION_URL: 'https://api.example.net',
        SUPPORT_EMAIL: 'providers@example.net',
      }),
    );
    expect(document.info.contact).toEqual({ name: 'Provider support', email: 'providers@example.net' });
    const hosts = new Set([...JSON.stringify(document).matchAll(/https?:\/\/([\w.-]+)/g)].map((match) => match[1]));
    expect([...hosts].filter((host) => !host.endsWith('example.com'))).toEqual([
      'sandbox.example.net',
      'api.example.net',
    ]);
  });
});

describe('GET /openapi.json', () => {
  let integration: TestApp;
  let production: TestApp;
  beforeAll(async () => {
    integration = await createTestApp({
      env: {
        APP_ENV: 'integration',
        PUBLIC_URL: 'https://sandbox.example.net',
        PRODUCTION_URL: 'https://api.example.net',
      },
    });
    production = await createTestApp({ env: { APP_ENV: 'production' } });
  });
  afterAll(async () => {
    await integration.close();
    await production.close();
  });

  it('serves the document of its environment and its addresses, without a key', async () => {
    const response = await request(integration.app).get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.body).toEqual(
      JSON.parse(JSON.stringify(generateOpenApiDocument(routes, integration.runtime.config))),
    );
    expect(response.body.servers.map((server: { url: string }) => server.url)).toEqual([
      'https://sandbox.example.net',
      'https://api.example.net',
    ]);
    const served = await request(production.app).get('/openapi.json');
    expect(served.body).toEqual(
      JSON.parse(JSON.stringify(generateOpenApiDocument(routes, loadConfig({ APP_ENV: 'production' })))),
    );
  });
});

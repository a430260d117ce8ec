import type { AppLoadContext } from '@remix-run/node';
import { describe, expect, it } from 'vitest';
import { operationAnchor } from '../../app/reference/anchors.js';
import {
  type ReferenceIndex,
  type ReferenceResult,
  buildReferenceIndex,
  schemaFields,
  searchReference,
} from '../../app/reference/searchIndex.js';
import { matchesEtag } from '../../app/reference/searchIndex.server.js';
import { handle, loader } from '../../app/routes/rest-api.search[.]json.js';
import type { OpenApiDocument, OpenApiOperation } from '../../app/portalContext.js';
import { testOpenApiDocument } from './testPortal.js';

const document = testOpenApiDocument() as unknown as OpenApiDocument;
const index = buildReferenceIndex(document);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  METHODS.filter((method) => item[method]).map((method) => ({
    path,
    method: method.toUpperCase(),
    ...(item[method] as OpenApiOperation),
  })),
);
const schemaNames = Object.keys(document.components?.schemas ?? {});

/** What a result highlights, as text. */
const marked = (text: string, ranges: [number, number][]) => ranges.map(([start, end]) => text.slice(start, end));
const summary = (results: ReferenceResult[]) =>
  results.map((result) => `${result.kind} ${result.title} | ${result.detail}`);

describe('buildReferenceIndex', () => {
  it('covers every operation of the generated document, with its summary, method, path, tag and anchor', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(index.o.map(([operationId]) => operationId).sort()).toEqual(
      operations.map((operation) => operation.operationId).sort(),
    );
    for (const operation of operations) {
      const entry = index.o.find(([operationId]) => operationId === operation.operationId)!;
      const tag = operation.tags![0];
      expect(entry).toEqual([
        operation.operationId,
        operation.summary ?? operation.operationId,
        operation.method,
        operation.path,
        tag,
        operationAnchor(tag, operation.operationId),
      ]);
    }
    expect(index.o.find(([operationId]) => operationId === 'AdageMockBookOffer')?.[5]).toBe(
      'tag/Adage-Mock-(Collective-Bookings)/operation/AdageMockBookOffer',
    );
  });

  it('covers every component schema with its field names at the first two levels', () => {
    expect(schemaNames.length).toBeGreaterThan(100);
    expect(index.s.map(([name]) => name)).toEqual(schemaNames);
    const fields = new Map(index.s);
    // Its own properties, then those of a property's schema, through $ref, oneOf variants and array items.
    expect(fields.get('EventOfferCreation')).toEqual(
      expect.arrayContaining(['idAtProvider', 'location', 'location.addressId', 'location.venueId', 'accessibility']),
    );
    expect(fields.get('AddressLocation')).toEqual(['type', 'venueId', 'addressId', 'addressLabel']);
    expect(fields.get('EventOfferCreation')!.some((field) => field.split('.').length > 2)).toBe(false);
  });

  it('reads fields through $ref, allOf/oneOf/anyOf and items, stops at two levels and survives a recursive schema', () => {
    const schemas = {
      Node: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        },
      },
      Pet: {
        oneOf: [{ $ref: '#/components/schemas/Cat' }, { type: 'object', properties: { barks: { type: 'boolean' } } }],
      },
      Cat: {
        allOf: [{ type: 'object', properties: { meows: { type: 'boolean' } } }],
        properties: { owner: { anyOf: [{ $ref: '#/components/schemas/Node' }, { type: 'null' }] } },
      },
    };
    expect(schemaFields(schemas.Node, schemas, 'Node')).toEqual(['name', 'children']);
    expect(schemaFields(schemas.Pet, schemas, 'Pet')).toEqual([
      'owner',
      'owner.name',
      'owner.children',
      'meows',
      'barks',
    ]);
  });

  it('is compact JSON that survives a round trip', () => {
    const json = JSON.stringify(index);
    expect(JSON.parse(json)).toEqual(index);
    expect(json.length).toBeLessThan(80_000);
  });
});

describe('searchReference', () => {
  const fixture: ReferenceIndex = {
    v: 1,
    o: [
      [
        'GetEvents',
        'Get event offers',
        'GET',
        '/public/offers/v1/events',
        'Event Offers',
        'tag/Event-Offers/operation/GetEvents',
      ],
      [
        'PostEventOffer',
        'Create an event offer',
        'POST',
        '/public/offers/v1/events',
        'Event Offers',
        'tag/Event-Offers/operation/PostEventOffer',
      ],
      [
        'GetCollectiveOffersPublic',
        'Get your collective offers',
        'GET',
        '/v2/collective/offers/',
        'Collective Offers',
        'tag/Collective-Offers/operation/GetCollectiveOffersPublic',
      ],
      [
        'ValidateBookingByToken',
        'Validate a countermark',
        'PATCH',
        '/public/bookings/v1/use/token/{token}',
        'Bookings',
        'tag/Bookings/operation/ValidateBookingByToken',
      ],
    ],
    s: [
      ['EventOfferCreation', ['idAtProvider', 'name', 'location', 'location.addressId']],
      ['EventOfferResponse', ['id', 'idAtProvider', 'eventDuration']],
      ['Événement', ['créé']],
    ],
  };

  it('finds an operation by its operationId, whatever the case, and highlights it in the detail', () => {
    const [result, ...others] = searchReference(fixture, 'posteventoffer');
    expect(others).toEqual([]);
    expect(result).toEqual({
      kind: 'operation',
      title: 'Create an event offer',
      detail: 'POST /public/offers/v1/events · PostEventOffer',
      anchor: 'tag/Event-Offers/operation/PostEventOffer',
      matches: { title: [], detail: [[32, 46]] },
    });
  });

  it('finds operations by a fragment of their path, as a substring', () => {
    const results = searchReference(fixture, '/v2/collective/offers');
    expect(summary(results)).toEqual([
      'operation Get your collective offers | GET /v2/collective/offers/ · GetCollectiveOffersPublic',
    ]);
    expect(marked(results[0].detail, results[0].matches.detail)).toEqual(['/v2/collective/offers']);
    expect(searchReference(fixture, 'v1/use/tok')).toHaveLength(1);
  });

  it('finds operations by a word of their summary, and requires every word', () => {
    expect(searchReference(fixture, 'countermark').map((result) => result.anchor)).toEqual([
      'tag/Bookings/operation/ValidateBookingByToken',
    ]);
    const [create] = searchReference(fixture, 'create EVENT');
    expect(create.anchor).toBe('tag/Event-Offers/operation/PostEventOffer');
    expect(marked(create.title, create.matches.title)).toEqual(['Create', 'event']);
    expect(searchReference(fixture, 'create event')).toHaveLength(1);
    expect(searchReference(fixture, 'create nonexistent')).toEqual([]);
    expect(searchReference(fixture, '   ')).toEqual([]);
  });

  it('ranks operations, then schemas by name, then fields; a whole name first', () => {
    expect(summary(searchReference(fixture, 'event'))).toEqual([
      'operation Get event offers | GET /public/offers/v1/events · GetEvents',
      'operation Create an event offer | POST /public/offers/v1/events · PostEventOffer',
      'schema EventOfferCreation | Component schema',
      'schema EventOfferResponse | Component schema',
      'field eventDuration | field of EventOfferResponse',
    ]);
    // The schema named by the whole query comes before the operations that contain it.
    expect(summary(searchReference(fixture, 'EventOfferCreation'))).toEqual([
      'schema EventOfferCreation | Component schema',
    ]);
    expect(searchReference(fixture, 'eventoffer')[0].kind).toBe('operation');
    expect(searchReference(fixture, 'event', 2)).toHaveLength(2);
  });

  it('finds the schemas that have a field, which points to the schema', () => {
    const results = searchReference(fixture, 'idAtProvider');
    expect(results).toEqual([
      {
        kind: 'field',
        title: 'idAtProvider',
        detail: 'field of EventOfferCreation',
        anchor: 'schema/EventOfferCreation',
        matches: { title: [[0, 12]], detail: [] },
      },
      {
        kind: 'field',
        title: 'idAtProvider',
        detail: 'field of EventOfferResponse',
        anchor: 'schema/EventOfferResponse',
        matches: { title: [[0, 12]], detail: [] },
      },
    ]);
    // A nested field by its path, or by its name and its schema's.
    expect(summary(searchReference(fixture, 'location.address'))).toEqual([
      'field location.addressId | field of EventOfferCreation',
    ]);
    const [scoped, ...others] = searchReference(fixture, 'responSE idatprov');
    expect(others).toEqual([]);
    expect(scoped.detail).toBe('field of EventOfferResponse');
    expect(marked(scoped.detail, scoped.matches.detail)).toEqual(['Response']);
    // A schema's name alone does not list its fields.
    expect(searchReference(fixture, 'EventOfferResponse').map((result) => result.kind)).toEqual(['schema']);
  });

  it('ignores accents', () => {
    const results = searchReference(fixture, 'evenement cree');
    expect(summary(results)).toEqual(['field créé | field of Événement']);
    expect(marked(results[0].title, results[0].matches.title)).toEqual(['créé']);
    expect(marked(results[0].detail, results[0].matches.detail)).toEqual(['Événement']);
  });

  it('finds what the real document has: an operation by operationId, path and summary, schemas by a field', () => {
    const [byId] = searchReference(index, 'PostEventOffer');
    expect(byId).toMatchObject({
      kind: 'operation',
      title: 'Create an event offer',
      anchor: 'tag/Event-Offers/operation/PostEventOffer',
    });
    const collective = searchReference(index, '/v2/collective/offers', 50);
    const expected = operations.filter((operation) => operation.path.startsWith('/v2/collective/offers'));
    expect(collective.map((result) => result.anchor).sort()).toEqual(
      expected.map((operation) => operationAnchor(operation.tags![0], operation.operationId)).sort(),
    );
    expect(
      searchReference(index, 'countermark').every(
        (result) => result.kind === 'operation' && /countermark/i.test(result.title),
      ),
    ).toBe(true);
    const withField = searchReference(index, 'idAtProvider', 100);
    const expectedSchemas = index.s
      .filter(([, fields]) => fields.includes('idAtProvider'))
      .map(([name]) => `schema/${name}`);
    expect(expectedSchemas.length).toBeGreaterThan(3);
    expect(withField.filter((result) => result.title === 'idAtProvider').map((result) => result.anchor)).toEqual(
      expectedSchemas,
    );
    expect(withField.every((result) => result.kind === 'field')).toBe(true);
  });
});

describe('/rest-api/search.json', () => {
  const call = (headers: Record<string, string> = {}) =>
    loader({
      request: new Request('http://localhost/rest-api/search.json', { headers }),
      params: {},
      context: { portal: { openApiDocument: document } } as unknown as AppLoadContext,
    });

  it('is a resource route', () => {
    expect(handle.resource).toBe(true);
  });

  it('answers the index as JSON, cacheable, with an ETag', async () => {
    const response = call();
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=300');
    expect(response.headers.get('ETag')).toMatch(/^"[\w-]{20,}"$/);
    expect(await response.json()).toEqual(index);
    // Built once per document: the same ETag again.
    expect(call().headers.get('ETag')).toBe(response.headers.get('ETag'));
  });

  it('answers 304 without a body when If-None-Match names its ETag', async () => {
    const etag = call().headers.get('ETag')!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = call({ 'If-None-Match': ifNoneMatch });
      expect(response.status, ifNoneMatch).toBe(304);
      expect(response.headers.get('ETag')).toBe(etag);
      expect(response.headers.get('Cache-Control')).toBe('public, max-age=300');
      expect(await response.text()).toBe('');
    }
    expect(call({ 'If-None-Match': '"other"' }).status).toBe(200);
  });

  it('compares ETags weakly', () => {
    expect(matchesEtag(null, '"a"')).toBe(false);
    expect(matchesEtag('"a"', 'W/"a"')).toBe(true);
    expect(matchesEtag('"b" , W/"a"', '"a"')).toBe(true);
    expect(matchesEtag('"ab"', '"a"')).toBe(false);
  });
});

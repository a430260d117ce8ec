import { describe, expect, it } from 'vitest';
import type { ReferenceOperation } from '../../app/reference/model.js';
import {
  curlSample,
  exampleOf,
  fetchSample,
  parameterExample,
  pythonLiteral,
  pythonSample,
  responseSampleOf,
  sdkSample,
  sampleRequestOf,
  sampleUrl,
  type SampleRequest,
} from '../../app/reference/samples.js';
import type { JsonSchema } from '../../app/reference/schema.js';
import { tryItOperationOf } from '../../app/reference/tryItModel.js';

const schemas: Record<string, JsonSchema> = {
  Physical: {
    type: 'object',
    properties: { type: { type: 'string', enum: ['physical'] }, venueId: { type: 'integer', exclusiveMinimum: 0 } },
    required: ['type', 'venueId'],
  },
  Digital: {
    type: 'object',
    properties: { type: { type: 'string', enum: ['digital'] }, url: { type: 'string', format: 'uri' } },
    required: ['type', 'url'],
  },
  Status: { type: 'string', enum: ['ACTIVE', 'DRAFT'] },
  Stock: {
    type: ['object', 'null'],
    properties: {
      price: { type: 'integer', minimum: 0 },
      note: { type: 'string' },
      quantity: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', enum: ['unlimited'] }, { type: 'null' }] },
    },
    required: ['price', 'quantity'],
  },
  Offer: {
    type: 'object',
    properties: {
      id: { type: 'integer', readOnly: true },
      name: { type: 'string', minLength: 1, maxLength: 90 },
      status: { $ref: '#/components/schemas/Status' },
      location: {
        oneOf: [{ $ref: '#/components/schemas/Physical' }, { $ref: '#/components/schemas/Digital' }],
        discriminator: { propertyName: 'type' },
      },
      bookingContact: { type: ['string', 'null'], format: 'email' },
      beginning: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      enableDoubleBookings: { type: ['boolean', 'null'], default: false },
      label: { type: 'string', example: 'Orchestra' },
      stock: { $ref: '#/components/schemas/Stock' },
      tags: { type: 'array', items: { type: 'string', maxLength: 3 }, minItems: 2 },
      secret: { type: 'string', writeOnly: true },
      nothing: { type: 'null' },
      publication: { anyOf: [{ type: 'null' }, { type: 'string', enum: ['now'] }] },
    },
    required: ['name', 'location'],
  },
  Tree: { type: 'object', properties: { child: { $ref: '#/components/schemas/Tree' } }, required: ['child'] },
};

describe('example values built from a schema', () => {
  it('prefers example, then default, then the first enum value', () => {
    expect(exampleOf({ type: 'string', example: 'x', default: 'y', enum: ['z'] }, schemas)).toBe('x');
    expect(exampleOf({ type: 'string', examples: ['first', 'second'] }, schemas)).toBe('first');
    expect(exampleOf({ type: 'string', default: 'y', enum: ['z'] }, schemas)).toBe('y');
    expect(exampleOf({ $ref: '#/components/schemas/Status' }, schemas)).toBe('ACTIVE');
    expect(exampleOf({ const: 7 }, schemas)).toBe(7);
  });

  it('writes format-aware strings, numbers at their lower bounds and strings within their lengths', () => {
    expect(exampleOf({ type: 'string', format: 'date-time' }, schemas)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    expect(exampleOf({ type: 'string', format: 'date' }, schemas)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(exampleOf({ type: 'string', format: 'email' }, schemas)).toMatch(/^[^@]+@[^@]+\.[a-z]+$/);
    expect(exampleOf({ type: 'string', format: 'uri' }, schemas)).toMatch(/^https:\/\//);
    expect(exampleOf({ type: 'integer', minimum: 5 }, schemas)).toBe(5);
    expect(exampleOf({ type: 'integer', exclusiveMinimum: 0 }, schemas)).toBe(1);
    expect(exampleOf({ type: 'integer', maximum: -3 }, schemas)).toBe(-3);
    expect(exampleOf({ type: 'string', minLength: 10 }, schemas)).toHaveLength(10);
    expect(exampleOf({ type: 'string', maxLength: 3 }, schemas)).toHaveLength(3);
    expect(exampleOf({ type: 'array', items: { type: 'boolean' }, minItems: 2 }, schemas)).toEqual([true, true]);
  });

  it('takes the first variant of a oneOf (its discriminator value), a non-null type of a nullable, and null for null alone', () => {
    expect(exampleOf(schemas.Offer.properties!.location, schemas)).toEqual({ type: 'physical', venueId: 1 });
    expect(exampleOf({ type: ['string', 'null'], format: 'email' }, schemas)).toBe('contact@example.com');
    expect(exampleOf({ anyOf: [{ type: 'null' }, { type: 'string', enum: ['now'] }] }, schemas)).toBe('now');
    expect(exampleOf({ type: 'null' }, schemas)).toBeNull();
    expect(exampleOf({ $ref: '#/components/schemas/Stock' }, schemas)).toEqual({
      price: 0,
      note: 'string',
      quantity: 1,
    });
  });

  it('gives a request body every first-level field but read-only ones, and only required fields below', () => {
    const body = exampleOf({ $ref: '#/components/schemas/Offer' }, schemas, { direction: 'request' }) as Record<
      string,
      unknown
    >;
    expect(Object.keys(body)).toEqual([
      'name',
      'status',
      'location',
      'bookingContact',
      'beginning',
      'day',
      'enableDoubleBookings',
      'label',
      'stock',
      'tags',
      'secret',
      'nothing',
      'publication',
    ]);
    expect(body.stock).toEqual({ price: 0, quantity: 1 });
    expect(body.enableDoubleBookings).toBe(false);
    expect(body.label).toBe('Orchestra');
    const response = exampleOf({ $ref: '#/components/schemas/Offer' }, schemas, { direction: 'response' }) as Record<
      string,
      unknown
    >;
    expect(response).toHaveProperty('id', 1);
    expect(response).not.toHaveProperty('secret');
  });

  it('stops at a recursive reference', () => {
    expect(exampleOf({ $ref: '#/components/schemas/Tree' }, schemas)).toEqual({ child: null });
  });
});

const operation = (overrides: Partial<ReferenceOperation>): ReferenceOperation => ({
  anchor: 'tag/Offers/operation/Op',
  tag: 'Offers',
  operationId: 'Op',
  method: 'GET',
  path: '/offers',
  summary: 'Op',
  description: '',
  deprecated: false,
  security: ['ApiKeyAuth'],
  parameters: [],
  body: null,
  responses: [],
  ...overrides,
});

describe('request samples', () => {
  const getWithQuery: SampleRequest = {
    method: 'GET',
    baseUrl: 'https://api.example.com/',
    path: '/offers',
    pathParams: {},
    query: [
      ['limit', '50'],
      ['ids', 'a,b c'],
    ],
  };
  const postJson: SampleRequest = {
    method: 'POST',
    baseUrl: 'https://api.example.com',
    path: '/offers',
    pathParams: {},
    query: [],
    body: { mediaType: 'application/json', value: { name: "Rock'n roll", active: true, price: null } },
  };
  const withPath: SampleRequest = {
    method: 'DELETE',
    baseUrl: 'https://api.example.com',
    path: '/offers/{offer_id}/stocks/{stock_id}',
    pathParams: { offer_id: '12', stock_id: 'a/b' },
    query: [],
  };

  it('builds the URL: path parameters encoded, the query appended', () => {
    expect(sampleUrl(getWithQuery)).toBe('https://api.example.com/offers?limit=50&ids=a%2Cb+c');
    expect(sampleUrl(withPath)).toBe('https://api.example.com/offers/12/stocks/a%2Fb');
  });

  it('writes curl, JavaScript fetch and Python requests for a GET with a query', () => {
    expect(curlSample(getWithQuery)).toBe(
      "curl -X GET 'https://api.example.com/offers?limit=50&ids=a%2Cb+c' \\\n  -H 'Authorization: Bearer YOUR_API_KEY'",
    );
    expect(fetchSample(getWithQuery)).toContain(
      'await fetch("https://api.example.com/offers?limit=50&ids=a%2Cb+c", {\n  method: "GET",\n  headers: {\n    Authorization: "Bearer YOUR_API_KEY",\n  },\n});',
    );
    expect(fetchSample(getWithQuery)).not.toContain('body:');
    expect(pythonSample(getWithQuery)).toBe(
      'import requests\n\nresponse = requests.get(\n    "https://api.example.com/offers?limit=50&ids=a%2Cb+c",\n    headers={"Authorization": "Bearer YOUR_API_KEY"},\n)\nprint(response.status_code, response.text)',
    );
  });

  it('writes a POST with a JSON body: quoted for the shell, stringified for fetch, a Python literal for requests', () => {
    const curl = curlSample(postJson);
    expect(curl).toContain("-H 'Content-Type: application/json'");
    expect(curl).toContain(`--data '{\n  "name": "Rock'\\''n roll",\n  "active": true,\n  "price": null\n}'`);
    const js = fetchSample(postJson);
    expect(js).toContain('method: "POST"');
    expect(js).toContain('"Content-Type": "application/json"');
    expect(js).toContain(
      'body: JSON.stringify({\n    "name": "Rock\'n roll",\n    "active": true,\n    "price": null\n  }),',
    );
    const python = pythonSample(postJson);
    expect(python).toContain('requests.post(');
    expect(python).toContain(
      'json={\n        "name": "Rock\'n roll",\n        "active": True,\n        "price": None,\n    },',
    );
  });

  it('writes path parameters into all three, and a DELETE without a body', () => {
    for (const code of [curlSample(withPath), fetchSample(withPath), pythonSample(withPath)])
      expect(code).toContain('https://api.example.com/offers/12/stocks/a%2Fb');
    expect(curlSample(withPath)).toMatch(/^curl -X DELETE /);
    expect(pythonSample(withPath)).toContain('requests.delete(');
  });

  it('sends a multipart body as a form with the file', () => {
    const upload: SampleRequest = {
      method: 'POST',
      baseUrl: 'https://api.example.com',
      path: '/image',
      pathParams: {},
      query: [],
      body: { mediaType: 'multipart/form-data', value: { file: '<binary>', credit: 'Me' } },
    };
    expect(curlSample(upload)).toContain("-F 'file=@image.jpg' \\\n  -F 'credit=Me'");
    expect(fetchSample(upload)).toContain('form.append("file", file);');
    expect(pythonSample(upload)).toContain('files={"file": open("image.jpg", "rb")}');
    const sdk = sdkSample(upload);
    expect(sdk).toContain('import { createClient, formDataOf } from "@culture-pass/provider-api-client";');
    expect(sdk).toContain(
      '  body: {\n    file: new Blob([await readFile("image.jpg")], { type: "image/jpeg" }),\n    credit: "Me",\n  },\n  bodySerializer: formDataOf,',
    );
  });

  it('writes the SDK call by method and path template, numbers as numbers and the body as a literal', () => {
    expect(sdkSample({ ...withPath, numeric: ['offer_id'] })).toBe(
      [
        'import { createClient } from "@culture-pass/provider-api-client";',
        '',
        'const api = createClient({ baseUrl: "https://api.example.com", apiKey: "YOUR_API_KEY" });',
        'const { data, error, response } = await api.DELETE("/offers/{offer_id}/stocks/{stock_id}", {',
        '  params: {',
        '    path: {',
        '      offer_id: 12,',
        '      stock_id: "a/b",',
        '    },',
        '  },',
        '});',
        'console.log(response.status, data ?? error);',
      ].join('\n'),
    );
    expect(sdkSample(postJson)).toContain(
      '  body: {\n    name: "Rock\'n roll",\n    active: true,\n    price: null,\n  },\n});',
    );
    expect(sdkSample({ ...getWithQuery, query: [] })).toContain('await api.GET("/offers");');
  });

  it('writes Python literals', () => {
    expect(pythonLiteral({ a: [1, false], b: {} })).toBe(
      '{\n    "a": [\n        1,\n        False,\n    ],\n    "b": {},\n}',
    );
  });

  it("builds an operation's sample: its path parameters and required query parameters with their examples, and its body", () => {
    const op = operation({
      method: 'POST',
      path: '/offers/{offer_id}',
      parameters: [
        {
          name: 'offer_id',
          in: 'path',
          required: true,
          description: '',
          deprecated: false,
          schema: { type: 'integer', minimum: 1 },
        },
        {
          name: 'venueId',
          in: 'query',
          required: true,
          description: '',
          deprecated: false,
          schema: { type: 'integer' },
          example: 42,
        },
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: 'How many',
          deprecated: false,
          schema: { type: 'integer', default: 50 },
        },
      ],
      body: {
        mediaType: 'application/json',
        required: true,
        description: '',
        schema: { $ref: '#/components/schemas/Stock' },
      },
      responses: [
        {
          status: '200',
          description: 'OK',
          mediaType: 'application/json',
          schema: { $ref: '#/components/schemas/Status' },
          headers: [],
        },
        { status: '404', description: 'Not found', mediaType: null, schema: null, headers: [] },
      ],
    });
    const request = sampleRequestOf(op, schemas, 'https://api.example.com');
    expect(sampleUrl(request)).toBe('https://api.example.com/offers/1?venueId=42');
    expect(request.numeric).toEqual(['offer_id', 'venueId']);
    expect(request.body).toEqual({ mediaType: 'application/json', value: { price: 0, note: 'string', quantity: 1 } });
    expect(responseSampleOf(op, schemas)).toEqual({ status: '200', json: '"ACTIVE"' });
    expect(
      responseSampleOf(
        operation({ responses: [{ status: '204', description: 'Done', mediaType: null, schema: null, headers: [] }] }),
        schemas,
      ),
    ).toEqual({ status: '204', json: null });
    expect(parameterExample(op.parameters[2], schemas)).toBe('50');

    const tryIt = tryItOperationOf(op, schemas, request.body);
    expect(tryIt.parameters).toEqual([
      { name: 'offer_id', in: 'path', required: true, example: '1', description: '' },
      { name: 'venueId', in: 'query', required: true, example: '42', description: '' },
      { name: 'limit', in: 'query', required: false, example: '', description: 'How many' },
    ]);
    expect(JSON.parse(tryIt.body!.example)).toEqual({ price: 0, note: 'string', quantity: 1 });
  });
});

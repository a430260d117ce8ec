import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Address } from '../../graphql/providers/Address.js';
import { addressLookupKey } from '../../graphql/providers/addresses/lookupKey.js';
import {
  aBanFeature,
  aFeatureCollection,
  answerJson,
  dropConnection,
  startAddressServiceStub,
  type AddressServiceStub,
} from '../support/addressServiceStub.js';
import { anOfferWorld, type SuiteWorld, useOfferWorld } from '../support/offerWorld.js';

/** The contract's postal-code pattern, as a 422 reports it. */
const postalCodeIssue = {
  loc: ['postalCode'],
  msg: 'A French postal code: 5 digits, department 01 to 98',
  type: 'string_pattern_mismatch',
  ctx: { pattern: String(/^(?:0[1-9]|[1-8]\d|9[0-8])\d{3}$/) },
};
const needsCoordinates = 'Address not found: send its latitude and longitude to record it as given';
const noMunicipality = (city: string, postalCode: string) =>
  `No municipality named "${city}" has the postal code ${postalCode}`;

const paris4 = { city: 'Paris', postalCode: '75004' };
const lyon3 = { city: 'Lyon', postalCode: '69003' };
/** An address as sent: a street of a municipality, with coordinates when given. */
const anAddressBody = (
  street: string,
  municipality: { city: string; postalCode: string },
  coordinates?: [latitude: number, longitude: number],
) => ({ street, ...municipality, ...(coordinates && { latitude: coordinates[0], longitude: coordinates[1] }) });
/** The answer to an address recorded as sent: without a BAN id. */
const recordedAsGiven = (body: object) => ({ id: expect.any(Number), banId: null, ...body });

/** The address operations as the world's sandbox key calls them, and the rows they write. */
function addressesOf(world: SuiteWorld) {
  return {
    create: (body: unknown, key?: string | null) => world.api.call('CreateAddress', { body, key }),
    search: (query: Record<string, string | number>, key?: string | null) =>
      world.api.call('SearchAddresses', { query, key }),
    get: (id: number | string, key?: string | null) =>
      world.api.call('GetAddress', { params: { address_id: id }, key }),
    addressCount: () => world.em().count(Address, {}),
    stored: (id: number) => world.em().findOneOrFail(Address, id),
  };
}

describe('addresses, offline (no GEOCODER_URL)', () => {
  const world = useOfferWorld();
  const api = addressesOf(world);

  describe('POST /public/offers/v1/addresses', () => {
    it('records an address with its coordinates as given', async () => {
      const before = await api.addressCount();
      const body = anAddressBody('5 Rue des Blancs-Manteaux', paris4, [48.858, 2.3561]);
      const response = await api.create(body);

      expect(response.status).toBe(200);
      expect(response.body).toEqual(recordedAsGiven(body));
      expect(await api.addressCount()).toBe(before + 1);
      const stored = await api.stored(response.body.id);
      expect(stored).toMatchObject({
        banId: null,
        ...body,
        inseeCode: '75104',
        departmentCode: '75',
        isManualEdition: true,
        lookupKey: addressLookupKey('5 Rue des Blancs-Manteaux', {
          inseeCode: '75104',
          city: 'Paris',
          postalCode: '75004',
        }),
      });
    });

    it('records the coordinates to 5 decimals, and finds the address by the coordinates sent', async () => {
      const body = anAddressBody(
        '182 Rue Saint-Honoré',
        { city: 'Paris', postalCode: '75001' },
        [48.8669567, 2.310144],
      );
      const response = await api.create(body);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(recordedAsGiven({ ...body, latitude: 48.86696, longitude: 2.31014 }));
      expect(await api.stored(response.body.id)).toMatchObject({ latitude: 48.86696, longitude: 2.31014 });
      expect((await api.get(response.body.id)).body).toEqual(response.body);
      const searched = await api.search(body);
      expect(searched.status).toBe(200);
      expect(searched.body).toEqual({ addresses: [response.body] });
    });

    it('answers the same record for the same address spelled differently', async () => {
      const first = await api.create(anAddressBody('10 Rue Vieille du Temple', paris4, [48.8572, 2.3589]));
      expect(first.status).toBe(200);
      const count = await api.addressCount();

      for (const [street, city] of [
        ['10 Rue Vieille du Temple', 'PARIS'],
        ['10 rue vieille-du-temple', 'paris'],
        ['  10, R. Vieille du Temple ', 'Paris 4e Arrondissement'],
      ]) {
        // Other coordinates too: the recorded address wins, it is not edited.
        const again = await api.create({ street, city, postalCode: '75004', latitude: 48.9, longitude: 2.4 });
        expect(again.status, `${street} / ${city}`).toBe(200);
        expect(again.body).toEqual(first.body);
      }
      expect(await api.addressCount()).toBe(count);
    });

    it('answers the record the sandbox already holds for the same address', async () => {
      const count = await api.addressCount();
      const response = await api.create(anAddressBody('12 rue de Rivoli', { ...paris4, city: 'PARIS' }, [1, 1]));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: expect.any(Number),
        banId: '75104_4589_00012',
        ...anAddressBody('12 Rue de Rivoli', paris4, [48.85553, 2.35916]),
      });
      expect(await api.addressCount()).toBe(count);
    });

    it("answers the municipality's name as the city", async () => {
      const cases = [
        { city: 'PARIS', postalCode: '75011', expected: 'Paris', inseeCode: '75111' },
        { city: 'st etienne', postalCode: '42000', expected: 'Saint-Étienne', inseeCode: '42218' },
        { city: 'LYON 3E', postalCode: '69003', expected: 'Lyon', inseeCode: '69383' },
      ];
      for (const { city, postalCode, expected, inseeCode } of cases) {
        const response = await api.create({ street: '1 Place du Test', city, postalCode, latitude: 45, longitude: 4 });
        expect(response.status, city).toBe(200);
        expect(response.body).toMatchObject({ city: expected, postalCode });
        expect(await api.stored(response.body.id)).toMatchObject({ city: expected, postalCode, inseeCode });
      }
    });

    it('refuses an unknown municipality with 400 on postalCode and writes nothing', async () => {
      const before = await api.addressCount();
      for (const [city, postalCode] of [
        ['Paris', '98199'], // passes the pattern (department 98) but is no overseas postal code
        ['Lyon', '75004'], // a real postal code that does not serve this city
      ]) {
        const response = await api.create(anAddressBody('1 Rue du Nulle Part', { city, postalCode }, [45, 4]));
        expect(response.status, `${city} ${postalCode}`).toBe(400);
        expect(response.body).toEqual({ postalCode: [noMunicipality(city, postalCode)] });

        const withoutCoordinates = await api.create({ street: '1 Rue du Nulle Part', city, postalCode });
        expect(withoutCoordinates.status).toBe(400);
        expect(withoutCoordinates.body).toEqual({ postalCode: [noMunicipality(city, postalCode)] });
      }
      expect(await api.addressCount()).toBe(before);
    });

    it('asks for coordinates with 400 when there are none (the offline geocoder places no street)', async () => {
      const before = await api.addressCount();
      const response = await api.create(anAddressBody('3 Rue Saint-Merri', paris4));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ global: [needsCoordinates] });
      expect(response.body.global[0]).toMatch(/latitude/);
      expect(response.body.global[0]).toMatch(/longitude/);

      const nullCoordinates = await api.create({
        ...anAddressBody('3 Rue Saint-Merri', paris4),
        latitude: null,
        longitude: null,
      });
      expect(nullCoordinates.status).toBe(400);
      expect(nullCoordinates.body).toEqual({ global: [needsCoordinates] });
      expect(await api.addressCount()).toBe(before);
    });

    // Regression: a read-then-insert once answered 500 to all but one of these on PostgreSQL.
    it('answers one record to the same address sent concurrently', async () => {
      const body = anAddressBody('40 Rue de Turenne', { city: 'Paris', postalCode: '75003' }, [48.86, 2.36]);
      const before = await api.addressCount();
      const answers = await Promise.all([api.create(body), api.create({ ...body, city: 'PARIS' }), api.create(body)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
      expect(await api.addressCount()).toBe(before + 1);
    });

    it('ignores unknown fields in the body', async () => {
      const body = anAddressBody('7 Rue du Temple', paris4, [48.8575, 2.3542]);
      const response = await api.create({ ...body, banId: 'forged_ban_id', id: 1, label: 'Entrance B' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual(recordedAsGiven(body));
      expect(response.body.id).not.toBe(1);
      expect(await api.stored(response.body.id)).toMatchObject({ banId: null, isManualEdition: true });
    });

    it('records an address in New Caledonia, beyond the postal data, as given with its coordinates', async () => {
      const body = anAddressBody('1 Rue de Sébastopol', { city: 'Nouméa', postalCode: '98800' }, [-22.2758, 166.458]);
      const response = await api.create(body);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        banId: null,
        street: '1 Rue de Sébastopol',
        city: 'Nouméa',
        postalCode: '98800',
      });
      expect(await api.stored(response.body.id)).toMatchObject({ inseeCode: null, departmentCode: '988' });
      expect((await api.create({ ...body, city: 'NOUMEA' })).body.id).toBe(response.body.id);
    });

    it('keeps streets written in signs only apart', async () => {
      const base = { city: 'Paris', postalCode: '75003', latitude: 48.86, longitude: 2.36 };
      const dashes = await api.create({ ...base, street: '---' });
      const dots = await api.create({ ...base, street: '...', latitude: 48.87 });
      expect(dashes.status).toBe(200);
      expect(dots.status).toBe(200);
      expect(dots.body.id).not.toBe(dashes.body.id);
    });
  });

  describe('POST /public/offers/v1/addresses: 422', () => {
    const valid = anAddressBody('2 Rue de la Verrerie', paris4, [48.857, 2.353]);

    it.each([
      [
        'a missing street',
        { ...valid, street: undefined },
        { loc: ['street'], msg: 'Field required', type: 'missing' },
      ],
      [
        'a blank street',
        { ...valid, street: '   ' },
        { loc: ['street'], type: 'string_too_short', ctx: { limit_value: 1 } },
      ],
      [
        'a street of 201 characters',
        { ...valid, street: 'a'.repeat(201) },
        { loc: ['street'], type: 'string_too_long', ctx: { limit_value: 200 } },
      ],
      ['a missing city', { ...valid, city: undefined }, { loc: ['city'], msg: 'Field required', type: 'missing' }],
      ['an empty city', { ...valid, city: '' }, { loc: ['city'], type: 'string_too_short', ctx: { limit_value: 1 } }],
      [
        'a missing postal code',
        { ...valid, postalCode: undefined },
        { loc: ['postalCode'], msg: 'Field required', type: 'missing' },
      ],
      [
        'a city of 201 characters',
        { ...valid, city: 'b'.repeat(201) },
        { loc: ['city'], type: 'string_too_long', ctx: { limit_value: 200 } },
      ],
      ['a 4-digit postal code', { ...valid, postalCode: '9999' }, postalCodeIssue],
      ['department 99', { ...valid, postalCode: '99123' }, postalCodeIssue],
      ['department 00', { ...valid, postalCode: '00123' }, postalCodeIssue],
      ['a numeric postal code', { ...valid, postalCode: 75004 }, { loc: ['postalCode'], type: 'string_type' }],
      [
        'latitude 91',
        { ...valid, latitude: 91 },
        { loc: ['latitude'], type: 'less_than_equal', ctx: { limit_value: 90 } },
      ],
      [
        'latitude -90.5',
        { ...valid, latitude: -90.5 },
        { loc: ['latitude'], type: 'greater_than_equal', ctx: { limit_value: -90 } },
      ],
      [
        'longitude -181',
        { ...valid, longitude: -181 },
        { loc: ['longitude'], type: 'greater_than_equal', ctx: { limit_value: -180 } },
      ],
      [
        'longitude 180.1',
        { ...valid, longitude: 180.1 },
        { loc: ['longitude'], type: 'less_than_equal', ctx: { limit_value: 180 } },
      ],
      [
        'a latitude without longitude',
        { ...valid, longitude: undefined },
        { loc: ['longitude'], msg: 'Send latitude and longitude together', type: 'missing' },
      ],
      [
        'a longitude without latitude',
        { ...valid, latitude: null },
        { loc: ['latitude'], msg: 'Send latitude and longitude together', type: 'missing' },
      ],
      ['a latitude as text', { ...valid, latitude: 'abc' }, { loc: ['latitude'], type: 'float_parsing' }],
      ['a longitude as a boolean', { ...valid, longitude: true }, { loc: ['longitude'], type: 'float_type' }],
      ['a longitude as text', { ...valid, longitude: 'hey' }, { loc: ['longitude'], type: 'float_parsing' }],
      ['a street as a number', { ...valid, street: 12 }, { loc: ['street'], type: 'string_type' }],
      // NUL is stored by neither database: once a 500 on PostgreSQL (found by the fuzzer).
      [
        'a street holding NUL',
        { ...valid, street: '1 rue\u0000' },
        { loc: ['street'], type: 'string_pattern_mismatch' },
      ],
      ['a city holding NUL', { ...valid, city: 'Paris\u0000' }, { loc: ['city'], type: 'string_pattern_mismatch' }],
    ])('answers 422 naming the field for %s, and writes nothing', async (_case, body, issue) => {
      const before = await api.addressCount();
      const response = await api.create(body);
      expect(response.status).toBe(422);
      expect(response.body).toEqual([{ msg: expect.any(String), ...issue }]);
      expect(await api.addressCount()).toBe(before);
    });

    it('reports each wrong field', async () => {
      const response = await api.create({ city: '', postalCode: '9999', latitude: 91, longitude: -181 });
      expect(response.status).toBe(422);
      expect(response.body.map((issue: { loc: string[] }) => issue.loc)).toEqual(
        expect.arrayContaining([['street'], ['city'], ['postalCode'], ['latitude'], ['longitude']]),
      );
    });
  });

  describe('GET /public/offers/v1/addresses/search', () => {
    let created: Record<string, unknown>;

    beforeAll(async () => {
      const response = await api.create(anAddressBody('20 Avenue de la République', lyon3, [45.7596, 4.8445]));
      expect(response.status).toBe(200);
      created = response.body;
    });

    it('finds the recorded address by street, city and postal code', async () => {
      const response = await api.search({ street: '20 Avenue de la République', city: 'Lyon', postalCode: '69003' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ addresses: [created] });
    });

    it('finds it under another spelling, and with its coordinates', async () => {
      const spelled = await api.search({ street: '20 av. de la republique', city: 'LYON', postalCode: '69003' });
      expect(spelled.status).toBe(200);
      expect(spelled.body).toEqual({ addresses: [created] });

      const located = await api.search(anAddressBody('20 Avenue de la République', lyon3, [45.7596, 4.8445]));
      expect(located.status).toBe(200);
      expect(located.body).toEqual({ addresses: [created] });
    });

    it('finds nothing with other coordinates or another street', async () => {
      const elsewhere = await api.search(anAddressBody('20 Avenue de la République', lyon3, [45.1, 4.1]));
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.body).toEqual({ addresses: [] });

      const otherStreet = await api.search({ street: '21 Avenue de la République', city: 'Lyon', postalCode: '69003' });
      expect(otherStreet.status).toBe(200);
      expect(otherStreet.body).toEqual({ addresses: [] });
    });

    it('refuses an unknown municipality with 400', async () => {
      const response = await api.search({ street: '20 Avenue de la République', city: 'Paris', postalCode: '69003' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ postalCode: [noMunicipality('Paris', '69003')] });

      const unknownCode = await api.search({ street: '1 Rue X', city: 'Paris', postalCode: '98199' });
      expect(unknownCode.status).toBe(400);
      expect(unknownCode.body).toEqual({ postalCode: [noMunicipality('Paris', '98199')] });
    });

    it('answers 422 naming the field for each bad or missing search value', async () => {
      const valid = anAddressBody('20 Avenue de la République', lyon3, [45.7596, 4.8445]);
      const without = (field: keyof typeof valid) => {
        const query: Record<string, string | number> = { ...valid };
        delete query[field];
        return query;
      };
      const cases: [Record<string, string | number>, { loc: string[]; type: string }][] = [
        [
          { ...valid, postalCode: '6900' },
          { loc: ['postalCode'], type: 'string_pattern_mismatch' },
        ],
        [
          { ...valid, city: 'a'.repeat(201) },
          { loc: ['city'], type: 'string_too_long' },
        ],
        [
          { ...valid, street: 'a'.repeat(201) },
          { loc: ['street'], type: 'string_too_long' },
        ],
        [
          { ...valid, city: '' },
          { loc: ['city'], type: 'string_too_short' },
        ],
        [
          { ...valid, street: '' },
          { loc: ['street'], type: 'string_too_short' },
        ],
        [
          { ...valid, latitude: 91 },
          { loc: ['latitude'], type: 'less_than_equal' },
        ],
        [
          { ...valid, longitude: -183 },
          { loc: ['longitude'], type: 'greater_than_equal' },
        ],
        [
          { ...valid, latitude: -92 },
          { loc: ['latitude'], type: 'greater_than_equal' },
        ],
        [
          { ...valid, longitude: 190 },
          { loc: ['longitude'], type: 'less_than_equal' },
        ],
        [
          { ...valid, latitude: 'coucou' },
          { loc: ['latitude'], type: 'float_parsing' },
        ],
        [
          { ...valid, longitude: 'hey' },
          { loc: ['longitude'], type: 'float_parsing' },
        ],
        [without('postalCode'), { loc: ['postalCode'], type: 'missing' }],
        [without('city'), { loc: ['city'], type: 'missing' }],
        [without('street'), { loc: ['street'], type: 'missing' }],
        [without('latitude'), { loc: ['latitude'], type: 'missing' }],
        [without('longitude'), { loc: ['longitude'], type: 'missing' }],
      ];
      for (const [query, issue] of cases) {
        const response = await api.search(query);
        expect(response.status, JSON.stringify(query)).toBe(422);
        expect(response.body, JSON.stringify(query)).toEqual([expect.objectContaining(issue)]);
      }
    });

    it('answers 422 for a missing street', async () => {
      const response = await api.search({ city: 'Lyon', postalCode: '69003' });
      expect(response.status).toBe(422);
      expect(response.body).toEqual([{ loc: ['street'], msg: 'Field required', type: 'missing' }]);
    });

    it('answers 422 float_parsing for latitude=abc', async () => {
      const response = await api.search({ ...anAddressBody('20 Avenue de la République', lyon3), latitude: 'abc' });
      expect(response.status).toBe(422);
      expect(response.body).toEqual([{ loc: ['latitude'], msg: expect.any(String), type: 'float_parsing' }]);
    });

    it('answers 422 for an out-of-range longitude and a bad postal code', async () => {
      const response = await api.search({ street: '1 Rue X', city: 'Lyon', postalCode: '99123', longitude: 200 });
      expect(response.status).toBe(422);
      expect(response.body).toEqual(
        expect.arrayContaining([
          postalCodeIssue,
          expect.objectContaining({ loc: ['longitude'], type: 'less_than_equal', ctx: { limit_value: 180 } }),
        ]),
      );
    });
  });

  describe('GET /public/offers/v1/addresses/{address_id}', () => {
    it('answers a recorded address with the body its creation answered', async () => {
      const created = await api.create(anAddressBody('15 Rue des Archives', paris4, [48.8587, 2.3557]));
      expect(created.status).toBe(200);
      const response = await api.get(created.body.id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(created.body);
    });

    it('answers 404 for an unknown id', async () => {
      const response = await api.get(999_999);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ global: ['Address not found'] });
    });

    it('answers 422 naming address_id for an id that is not an integer', async () => {
      const response = await api.get('abc');
      expect(response.status).toBe(422);
      expect(response.body).toEqual([{ loc: ['address_id'], msg: expect.any(String), type: 'int_parsing' }]);
    });

    it('answers 422 for an id of 0', async () => {
      const response = await api.get(0);
      expect(response.status).toBe(422);
      expect(response.body).toEqual([
        { loc: ['address_id'], msg: expect.any(String), type: 'greater_than_equal', ctx: { limit_value: 1 } },
      ]);
    });
  });

  describe('without an API key', () => {
    it('answers 401 on each address operation and writes nothing', async () => {
      const before = await api.addressCount();
      const calls: [string, () => Promise<{ status: number; body: unknown }>][] = [
        [
          'CreateAddress',
          () => api.create({ street: '9 Rue X', city: 'Paris', postalCode: '75004', latitude: 48, longitude: 2 }, null),
        ],
        ['SearchAddresses', () => api.search({ street: '9 Rue X', city: 'Paris', postalCode: '75004' }, null)],
        ['GetAddress', () => api.get(1, null)],
      ];
      for (const [operation, call] of calls) {
        const response = await call();
        expect(response.status, operation).toBe(401);
        expect(response.body).toEqual({ auth: 'API key required' });
      }
      expect(await api.addressCount()).toBe(before);
    });
  });
});

describe('addresses, with the address service (GEOCODER_URL)', () => {
  let stub: AddressServiceStub;
  beforeAll(async () => {
    stub = await startAddressServiceStub();
  });
  afterEach(() => stub.reset());
  afterAll(() => stub?.close());
  const world = useOfferWorld(() => ({ env: { GEOCODER_URL: stub.baseUrl } }));
  const api = addressesOf(world);

  const paris1 = { city: 'Paris', postalCode: '75001' };
  /** The address service's feature for a number of the Rue de Rivoli, at [longitude, latitude]. */
  const aRivoliFeature = (number: number, score: number, coordinates: [number, number]) =>
    aBanFeature({
      id: `75101_8158_${String(number).padStart(5, '0')}`,
      name: `${number} Rue de Rivoli`,
      postcode: '75001',
      citycode: '75101',
      city: 'Paris',
      score,
      coordinates,
    });
  const rivoli = anAddressBody('1 rue de Rivoli', paris1);
  const rivoliFeature = aRivoliFeature(1, 0.97, [2.336849, 48.860442]);

  it("records the address the service finds, with its BAN id and the service's coordinates", async () => {
    stub.handler = answerJson(aFeatureCollection([rivoliFeature]));
    const before = await api.addressCount();

    const response = await api.create(rivoli);

    expect(response.status).toBe(200);
    // Recorded to 5 decimals, as pass Culture stores coordinates.
    const found = anAddressBody('1 Rue de Rivoli', paris1, [48.86044, 2.33685]);
    expect(response.body).toEqual({ id: expect.any(Number), banId: '75101_8158_00001', ...found });
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0].pathname).toBe('/search/');
    expect(stub.requests[0].searchParams.get('q')).toBe('1 rue de Rivoli Paris');
    expect(stub.requests[0].searchParams.get('postcode')).toBe('75001');
    expect(await api.addressCount()).toBe(before + 1);
    expect(await api.stored(response.body.id)).toMatchObject({
      banId: '75101_8158_00001',
      ...found,
      inseeCode: '75101',
      departmentCode: '75',
      isManualEdition: false,
      lookupKey: addressLookupKey('1 rue de Rivoli', { inseeCode: '75101', ...paris1 }),
    });

    // The same address again: the recorded one, without asking the service.
    stub.reset();
    for (const again of [
      rivoli,
      { ...rivoli, city: 'PARIS' },
      { ...rivoli, street: '1, Rue de Rivoli', city: 'paris 1er' },
    ]) {
      const second = await api.create(again);
      expect(second.status, JSON.stringify(again)).toBe(200);
      expect(second.body).toEqual(response.body);
    }
    expect(stub.requests).toHaveLength(0);
    expect(await api.addressCount()).toBe(before + 1);

    // Found by search and by id.
    const searched = await api.search(rivoli);
    expect(searched.status).toBe(200);
    expect(searched.body).toEqual({ addresses: [response.body] });
    const read = await api.get(response.body.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
  });

  it('answers the recorded address when the service places another spelling at the same BAN id', async () => {
    stub.handler = answerJson(aFeatureCollection([rivoliFeature]));
    const first = await api.create(rivoli);
    expect(first.status).toBe(200);
    const count = await api.addressCount();

    const other = await api.create({ ...rivoli, street: '1 rue de Rivoli, entrée principale' });
    expect(other.status).toBe(200);
    expect(other.body).toEqual(first.body);
    expect(await api.addressCount()).toBe(count);
  });

  it("prefers the service's address to the coordinates sent, as pass Culture does", async () => {
    stub.handler = answerJson(aFeatureCollection([aRivoliFeature(2, 0.97, [2.3367, 48.8604])]));
    const before = await api.addressCount();
    const response = await api.create(anAddressBody('2 rue de Rivoli', paris1, [48.1, 2.1]));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: expect.any(Number),
      banId: '75101_8158_00002',
      ...anAddressBody('2 Rue de Rivoli', paris1, [48.8604, 2.3367]),
    });
    expect(stub.requests).toHaveLength(1);
    expect(await api.addressCount()).toBe(before + 1);
    expect(await api.stored(response.body.id)).toMatchObject({
      banId: '75101_8158_00002',
      latitude: 48.8604,
      longitude: 2.3367,
      isManualEdition: false,
    });
  });

  it('records the coordinates sent as they are when the service cannot place the address', async () => {
    for (const [handler, number] of [
      [answerJson(aFeatureCollection([])), 3],
      [answerJson({ code: 500, message: 'Internal error' }, 500), 4],
    ] as const) {
      stub.handler = handler;
      const body = anAddressBody(`${number} Rue de Rivoli`, paris1, [48.8605, 2.337]);
      const response = await api.create(body);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(recordedAsGiven(body));
      expect(await api.stored(response.body.id)).toMatchObject({ banId: null, isManualEdition: true });
    }
    expect(stub.requests).toHaveLength(2);
  });

  it('never asks the service about an unknown municipality', async () => {
    stub.handler = answerJson(aFeatureCollection([rivoliFeature]));
    const before = await api.addressCount();
    const response = await api.create({ ...rivoli, city: 'Lyon' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ postalCode: [noMunicipality('Lyon', '75001')] });
    expect(stub.requests).toHaveLength(0);
    expect(await api.addressCount()).toBe(before);
  });

  describe('asks for coordinates with 400 when the service cannot place the address, and writes nothing', () => {
    const street = anAddressBody('5 Rue de Rivoli', paris1);
    const lowScore = aRivoliFeature(5, 0.3, [2.3365, 48.8603]);

    it.each([
      ['a low score', answerJson(aFeatureCollection([lowScore]))],
      ['no feature', answerJson(aFeatureCollection([]))],
      [
        'a feature in another postal code',
        answerJson(
          aFeatureCollection([
            { ...rivoliFeature, properties: { ...(rivoliFeature.properties as object), postcode: '75004' } },
          ]),
        ),
      ],
      ['a 500', answerJson({ code: 500, message: 'Internal error' }, 500)],
      [
        'a 503 in HTML',
        (_request: unknown, response: ServerResponse) => {
          response.writeHead(503, { 'content-type': 'text/html' });
          response.end('<html>maintenance</html>');
        },
      ],
      [
        'a body that is not JSON',
        (_request: unknown, response: ServerResponse) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end('{"features": [');
        },
      ],
      ['a dropped connection', dropConnection],
    ])('when the service answers %s', async (_case, handler) => {
      stub.handler = handler;
      const before = await api.addressCount();
      const response = await api.create(street);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ global: [needsCoordinates] });
      expect(stub.requests.length).toBeGreaterThanOrEqual(1);
      expect(await api.addressCount()).toBe(before);
    });
  });

  it('asks for coordinates with 400 when nothing listens at GEOCODER_URL', async () => {
    const closed = await startAddressServiceStub();
    const deadUrl = closed.baseUrl;
    await closed.close();
    const down = await anOfferWorld({ env: { GEOCODER_URL: deadUrl } });
    try {
      const response = await addressesOf(down).create({
        street: '6 Rue de Rivoli',
        city: 'Paris',
        postalCode: '75001',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ global: [needsCoordinates] });
      expect(await down.em().count(Address, { street: '6 Rue de Rivoli' })).toBe(0);
    } finally {
      await down.close();
    }
  });
});

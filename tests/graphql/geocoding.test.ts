import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BAN_MIN_SCORE,
  BanGeocoder,
  createGeocoder,
  findMunicipality,
  normalizeCityName,
  OfflineGeocoder,
  type AddressQuery,
  type GeocoderLogger,
} from '../../graphql/providers/geocoding/index.js';
import {
  aBanFeature,
  aFeatureCollection,
  answerJson,
  type AddressServiceStub,
  type BanFeatureOptions,
  startAddressServiceStub,
} from '../support/addressServiceStub.js';

describe('municipality lookup', () => {
  it.each(['Paris', 'paris', 'PARIS', 'Paris 1er', 'Paris 1er Arrondissement'])(
    'finds Paris 1er for %j in 75001',
    (city) => {
      expect(findMunicipality(city, '75001')).toEqual({
        inseeCode: '75101',
        name: 'Paris 1er Arrondissement',
        city: 'Paris',
        postalCode: '75001',
        departmentCode: '75',
      });
    },
  );

  it('finds the arrondissement of the postal code, whatever the postal label', () => {
    expect(findMunicipality('Paris', '75004')?.inseeCode).toBe('75104');
    // The postal label of 75116 is `PARIS 16`.
    expect(findMunicipality('Paris', '75116')?.inseeCode).toBe('75116');
    expect(findMunicipality('Lyon', '69002')).toMatchObject({ inseeCode: '69382', city: 'Lyon', departmentCode: '69' });
  });

  it.each(['Saint-Étienne', 'saint etienne', 'st etienne', 'ST-ETIENNE', '  Saint--Étienne  '])(
    'finds Saint-Étienne for %j in 42000',
    (city) => {
      expect(findMunicipality(city, '42000')).toMatchObject({ inseeCode: '42218', name: 'Saint-Étienne' });
    },
  );

  it('chooses among the municipalities a postal code serves, by name or postal label', () => {
    expect(findMunicipality('Lecci', '20000')?.inseeCode).toBe('2A139');
    expect(findMunicipality('Les Milles', '13290')?.name).toBe('Aix-en-Provence');
    expect(findMunicipality('Baux-de-Provence', '13520')?.name).toBe('Les Baux-de-Provence');
  });

  it('gives Corsican and overseas department codes', () => {
    expect(findMunicipality('Ajaccio', '20000')).toMatchObject({ inseeCode: '2A004', departmentCode: '2A' });
    expect(findMunicipality('Bastia', '20200')).toMatchObject({ departmentCode: '2B' });
    expect(findMunicipality('Saint-Denis', '97400')).toMatchObject({ inseeCode: '97411', departmentCode: '974' });
  });

  it('finds nothing for a city the postal code does not serve, or an unknown postal code', () => {
    expect(findMunicipality('Lyon', '75001')).toBeNull();
    expect(findMunicipality('Paris 4e Arrondissement', '75001')).toBeNull();
    expect(findMunicipality('Saint-Étienne', '42100')).not.toBeNull();
    expect(findMunicipality('Paris', '99999')).toBeNull();
    expect(findMunicipality('', '75001')).toBeNull();
    for (const postalCode of ['__proto__', 'constructor', '7500', 'abcde', '']) {
      expect(findMunicipality('Paris', postalCode)).toBeNull();
    }
  });

  it('normalizes names for comparison', () => {
    expect(normalizeCityName("  L'Isle-sur-la-Sorgue ")).toBe('l isle sur la sorgue');
    expect(normalizeCityName('BAUX-DE-PROVENCE (LES)')).toBe('les baux de provence');
    expect(normalizeCityName('Ste-Foy-lès-Lyon')).toBe('sainte foy les lyon');
    expect(normalizeCityName('Paris Cedex 01')).toBe('paris');
    expect(normalizeCityName('Œuilly')).toBe('oeuilly');
  });
});

describe('offline geocoder', () => {
  const geocoder = new OfflineGeocoder();

  it('answers addressNotFound for a known municipality: it has no street coordinates', async () => {
    await expect(geocoder.geocode({ street: '1 rue de Rivoli', city: 'Paris', postalCode: '75001' })).resolves.toEqual({
      kind: 'addressNotFound',
      municipality: expect.objectContaining({ inseeCode: '75101', departmentCode: '75' }),
    });
  });

  it('answers unknownMunicipality for an unknown postal code or a city it does not serve', async () => {
    await expect(geocoder.geocode({ street: '1 rue X', city: 'Paris', postalCode: '99999' })).resolves.toEqual({
      kind: 'unknownMunicipality',
    });
    await expect(geocoder.geocode({ street: '1 rue X', city: 'Lyon', postalCode: '75001' })).resolves.toEqual({
      kind: 'unknownMunicipality',
    });
  });

  it('is what createGeocoder gives without a URL', () => {
    expect(createGeocoder()).toBeInstanceOf(OfflineGeocoder);
    expect(createGeocoder({ geocoderUrl: 'http://127.0.0.1:1' })).toBeInstanceOf(BanGeocoder);
  });
});

describe('BAN geocoder against a local stub of the search API', () => {
  let stub: AddressServiceStub;
  const warnings: { details: object; message: string }[] = [];
  const logger: GeocoderLogger = { warn: (details, message) => warnings.push({ details, message }) };
  const rivoli: AddressQuery = { street: '1 rue de Rivoli', city: 'Paris', postalCode: '75001' };
  /** What the service finds for `rivoli`, with `changes`. */
  const rivoliFound = (changes: Partial<BanFeatureOptions> = {}) =>
    answerJson(
      aFeatureCollection([
        aBanFeature({
          id: '75101_8158_00001',
          name: '1 Rue de Rivoli',
          postcode: '75001',
          citycode: '75101',
          city: 'Paris',
          coordinates: [2.336849, 48.860442],
          ...changes,
        }),
      ]),
    );

  beforeAll(async () => {
    stub = await startAddressServiceStub();
  });
  afterEach(() => {
    stub.reset();
    warnings.length = 0;
  });
  afterAll(() => stub.close());

  const geocoder = (timeoutMs?: number) => new BanGeocoder({ baseUrl: stub.baseUrl, timeoutMs, logger });

  it('returns the address, its BAN id and coordinates when the best feature is good enough', async () => {
    stub.handler = rivoliFound();

    await expect(geocoder().geocode(rivoli)).resolves.toEqual({
      kind: 'found',
      municipality: expect.objectContaining({ inseeCode: '75101', postalCode: '75001' }),
      banId: '75101_8158_00001',
      street: '1 Rue de Rivoli',
      latitude: 48.860442,
      longitude: 2.336849,
    });
    expect(stub.requests).toHaveLength(1);
    const [request] = stub.requests;
    expect(request.pathname).toBe('/search/');
    expect(Object.fromEntries(request.searchParams)).toEqual({
      q: '1 rue de Rivoli Paris',
      postcode: '75001',
      limit: '1',
      type: 'housenumber',
    });
    expect(warnings).toEqual([]);
  });

  it('answers addressNotFound when the score is below the threshold', async () => {
    stub.handler = rivoliFound({ score: BAN_MIN_SCORE - 0.01 });
    await expect(geocoder().geocode(rivoli)).resolves.toMatchObject({ kind: 'addressNotFound' });
    expect(stub.requests).toHaveLength(1);
  });

  it('answers addressNotFound when the feature is in another postal code', async () => {
    stub.handler = rivoliFound({ postcode: '75004' });
    await expect(geocoder().geocode(rivoli)).resolves.toMatchObject({
      kind: 'addressNotFound',
      municipality: { inseeCode: '75101' },
    });
  });

  it('answers addressNotFound when there is no feature', async () => {
    stub.handler = answerJson(aFeatureCollection([]));
    await expect(geocoder().geocode(rivoli)).resolves.toMatchObject({ kind: 'addressNotFound' });
  });

  it('never calls the service for an unknown municipality', async () => {
    stub.handler = rivoliFound();
    await expect(geocoder().geocode({ ...rivoli, postalCode: '99999' })).resolves.toEqual({
      kind: 'unknownMunicipality',
    });
    await expect(geocoder().geocode({ ...rivoli, city: 'Lyon' })).resolves.toEqual({ kind: 'unknownMunicipality' });
    expect(stub.requests).toHaveLength(0);
  });

  it('answers addressNotFound and warns when the service fails', async () => {
    stub.handler = answerJson({ code: 500, message: 'Internal error' }, 500);
    await expect(geocoder().geocode(rivoli)).resolves.toMatchObject({ kind: 'addressNotFound' });
    expect(warnings).toEqual([{ details: expect.objectContaining({ status: 500 }), message: expect.any(String) }]);
  });

  it('answers addressNotFound and warns when the body is not JSON', async () => {
    stub.handler = (_request, response) => response.end('<html>maintenance</html>');
    await expect(geocoder().geocode(rivoli)).resolves.toMatchObject({ kind: 'addressNotFound' });
    expect(warnings).toHaveLength(1);
  });

  it('gives up after its timeout when the service never answers', async () => {
    stub.handler = () => {}; // keeps the request open
    const started = performance.now();
    await expect(geocoder(150).geocode(rivoli)).resolves.toMatchObject({ kind: 'addressNotFound' });
    expect(performance.now() - started).toBeLessThan(2_000);
    // Never sent again. Whether the one request reached the stub before the timeout depends on how
    // busy the machine is (they share this process's event loop): CI saw it not arrive in 150 ms.
    expect(stub.requests.length).toBeLessThanOrEqual(1);
    expect(warnings).toEqual([
      { details: expect.objectContaining({ timeoutMs: 150 }), message: 'address service timed out' },
    ]);
  });

  it('answers addressNotFound when nothing listens', async () => {
    const closed = new BanGeocoder({ baseUrl: 'http://127.0.0.1:1', logger });
    await expect(closed.geocode(rivoli)).resolves.toMatchObject({ kind: 'addressNotFound' });
    expect(warnings).toHaveLength(1);
  });
});

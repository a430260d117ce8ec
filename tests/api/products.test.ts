import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Category, productCategories, showTypes } from '../../graphql/offers/catalogue/index.js';
import { withEanCheckDigit } from '../../graphql/offers/eanCatalogue/ean.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { ForbiddenError } from '../../graphql/shared/errors.js';
import { Job } from '../../graphql/shared/Job.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectMatchesContract } from '../support/contract.js';
import { anEvent, aProvider, createSandbox } from '../support/fixtures.js';
import { aPng } from '../support/images.js';

const COLLECTION = '/public/offers/v1/products';
const ONE = '/public/offers/v1/products/{product_id}';
const HOUR = 3_600_000;
const START = new Date('2026-11-22T10:00:00Z');

const creatable = productCategories();
// The categories the tests lean on, checked against the catalogue rather than assumed.
const instrumentRental = creatable.find((category) => category.id === 'LOCATION_INSTRUMENT')!;
const musicDownload = creatable.find((category) => category.id === 'TELECHARGEMENT_MUSIQUE')!;
const filmSupport = creatable.find((category) => category.id === 'SUPPORT_PHYSIQUE_FILM')!;

let eanCounter = 0;
/** A valid EAN-13 never used before in this file. */
const nextEan = () => withEanCheckDigit(`97800${String((eanCounter += 1)).padStart(7, '0')}`);
/** The same twelve digits with a wrong check digit. */
const withWrongCheckDigit = (ean: string) => `${ean.slice(0, 12)}${(Number(ean[12]) + 1) % 10}`;

describe('Product Offers', () => {
  let testApp: TestApp;
  let imageDirectory: string;
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  let other: Awaited<ReturnType<typeof aProvider>>;
  /** A fresh key of the sandbox provider per test: the rate limit (200 a minute per key) runs on real time. */
  let key: string;
  /** Handlers of the domain events refuse (after writing their row) while this names the event. */
  let refuseIn: string | null = null;

  const theatre = () => sandbox.venues[0].id;
  const bookshop = () => sandbox.venues[1].id;
  const online = () => sandbox.venues[2].id;
  const accessibility = {
    audioDisabilityCompliant: true,
    mentalDisabilityCompliant: false,
    motorDisabilityCompliant: true,
    visualDisabilityCompliant: false,
  };
  const aProductBody = (overrides: Record<string, unknown> = {}) => ({
    name: 'Cello rental',
    accessibility,
    categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean: nextEan() },
    location: { type: 'physical', venueId: bookshop() },
    stock: { price: 1500, quantity: 10 },
    ...overrides,
  });
  const aDownloadBody = (overrides: Record<string, unknown> = {}) =>
    aProductBody({
      name: 'Album download',
      categoryRelatedFields: { category: 'TELECHARGEMENT_MUSIQUE', musicType: 'ROCK', performer: 'The Demos' },
      location: { type: 'digital', venueId: online(), url: 'https://download.example.com/album?token={token}' },
      ...overrides,
    });

  const post = async (body: unknown, apiKey = key) => {
    const response = await request(testApp.app)
      .post(COLLECTION)
      .set('Authorization', `Bearer ${apiKey}`)
      .send(body as object);
    expectMatchesContract(response, 'post', COLLECTION);
    return response;
  };
  const patch = async (body: unknown, apiKey = key) => {
    const response = await request(testApp.app)
      .patch(COLLECTION)
      .set('Authorization', `Bearer ${apiKey}`)
      .send(body as object);
    expectMatchesContract(response, 'patch', COLLECTION);
    return response;
  };
  const getOne = async (id: number | string, apiKey = key) => {
    const response = await request(testApp.app).get(`${COLLECTION}/${id}`).set('Authorization', `Bearer ${apiKey}`);
    expectMatchesContract(response, 'get', ONE);
    return response;
  };
  const list = async (query = '', apiKey = key) => {
    const response = await request(testApp.app).get(`${COLLECTION}${query}`).set('Authorization', `Bearer ${apiKey}`);
    expectMatchesContract(response, 'get', COLLECTION);
    return response;
  };
  /** A request whose answer is checked against the contract only after the test looked at its status. */
  const raw = (method: 'get' | 'post' | 'patch', path: string, body?: unknown, apiKey = key) => {
    const call = request(testApp.app)[method](path).set('Authorization', `Bearer ${apiKey}`);
    return body === undefined ? call : call.send(body as object);
  };
  const created = async (overrides: Record<string, unknown> = {}) => {
    const response = await post(aProductBody(overrides));
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body;
  };

  const em = () => testApp.database.orm.em.fork();
  const offerCount = () => em().count(Offer, {});
  const stored = (id: number) => em().findOneOrFail(Offer, id);
  /** Every stock row of the offer, deleted ones included, in id order. */
  const storedStocks = (offerId: number) => em().find(Stock, { offer: offerId }, { orderBy: { id: 'asc' } });
  const jobs = (type: string) => em().find(Job, { type }, { orderBy: { id: 'asc' } });
  const stockDeletedFor = async (offerId: number) =>
    (await jobs('test.stockDeleted')).filter((job) => job.payload.offerId === offerId);
  const approveAll = async () => {
    while ((await testApp.runtime.worker.runDueJobs()).claimed > 0);
  };
  /** Another key of the sandbox provider and offerer. */
  const sandboxKey = async () => {
    const fork = em();
    const issued = issueApiKey(fork, testApp.clock, {
      env: 'test',
      provider: fork.getReference(Provider, sandbox.provider.id),
      offerer: fork.getReference(Offerer, sandbox.offerer.id),
    });
    await fork.flush();
    return issued.key;
  };
  let streetNumber = 0;
  /** A new address (the same street twice would be the same address). */
  /** The key of a new provider linked to one of the sandbox venues (with the sandbox offerer). */
  const anotherProviderAt = async (venueId: number) => {
    const fork = em();
    const added = await aProvider(fork, testApp.clock, { name: 'Second Ticketing' });
    fork.create(VenueProvider, {
      venue: venueId,
      provider: added.provider.id,
      isActive: true,
      createdAt: testApp.clock.now(),
    });
    const { key: addedKey } = issueApiKey(fork, testApp.clock, {
      env: 'test',
      provider: fork.getReference(Provider, added.provider.id),
      offerer: fork.getReference(Offerer, sandbox.offerer.id),
    });
    await fork.flush();
    return { providerId: added.provider.id, key: addedKey };
  };
  const anAddress = async () => {
    const response = await request(testApp.app)
      .post('/public/offers/v1/addresses')
      .set('Authorization', `Bearer ${key}`)
      .send({
        street: `${(streetNumber += 1)} Rue des Archives`,
        city: 'Paris',
        postalCode: '75004',
        latitude: 48.858,
        longitude: 2.356,
      });
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return response.body.id as number;
  };

  beforeAll(async () => {
    imageDirectory = await mkdtemp(join(tmpdir(), 'product-images-'));
    testApp = await createTestApp({ env: { IMAGE_DIRECTORY: imageDirectory, PUBLIC_URL: 'http://api.test' } });
    sandbox = await createSandbox(em(), testApp.clock, 'test');
    other = await aProvider(em(), testApp.clock);
    // A stand-in for the bookings subgraph: it writes a row in the publisher's transaction.
    const recordIn = (type: string) => async (tx: EntityManager, payload: object) => {
      await tx.insert(Job, {
        type,
        payload: JSON.parse(JSON.stringify(payload)),
        status: 'done',
        attempts: 0,
        maxAttempts: 1,
        runAt: testApp.clock.now(),
        createdAt: testApp.clock.now(),
      });
      if (refuseIn === type) throw new ForbiddenError(`${type} refused by a handler`);
    };
    testApp.runtime.events.on('offers.stockDeleted', recordIn('test.stockDeleted'));
  });
  beforeEach(async () => {
    key = await sandboxKey();
  });
  afterAll(async () => {
    await testApp.close();
    await rm(imageDirectory, { recursive: true, force: true });
  });

  it('leans on categories that the catalogue describes as the rules say', () => {
    expect(instrumentRental).toMatchObject({
      kind: 'product',
      locationType: 'OFFLINE',
      requiredOnCreate: ['ean'],
      canBeDuo: false,
    });
    expect(musicDownload).toMatchObject({
      kind: 'product',
      locationType: 'ONLINE',
      requiredOnCreate: ['musicType'],
      canBeDuo: false,
    });
    expect(filmSupport).toMatchObject({ kind: 'product', requiredOnCreate: ['ean'] });
    expect(creatable.map((category) => category.id)).not.toContain('LIVRE_PAPIER');
    expect(sandbox.venues[2].isVirtual).toBe(true);
  });

  describe('creation', () => {
    it('creates a pending product published now, with its stock (201), and stores the stock and the EAN', async () => {
      const ean = nextEan();
      const response = await post(
        aProductBody({
          categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean },
          idAtProvider: 'cello-1',
          description: 'A 4/4 cello, bow included.',
          bookingEmail: 'rentals@example.com',
          itemCollectionDetails: 'At the counter',
          stock: { price: 1500, quantity: 10, bookingLimitDatetime: '2026-12-24T18:00:00+01:00' },
        }),
      );
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.any(Number),
        name: 'Cello rental',
        status: 'PENDING',
        accessibility,
        bookingAllowedDatetime: null,
        bookingContact: null,
        bookingEmail: 'rentals@example.com',
        categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean },
        description: 'A 4/4 cello, bow included.',
        enableDoubleBookings: false,
        externalTicketOfficeUrl: null,
        idAtProvider: 'cello-1',
        image: null,
        itemCollectionDetails: 'At the counter',
        location: { type: 'physical', venueId: bookshop() },
        publicationDatetime: '2026-11-22T10:00:00.000Z',
        stock: { price: 1500, bookedQuantity: 0, bookingLimitDatetime: '2026-12-24T17:00:00.000Z', quantity: 10 },
      });
      const row = await stored(response.body.id);
      expect(row).toMatchObject({
        validation: 'PENDING',
        isEvent: false,
        isActive: true,
        category: 'LOCATION_INSTRUMENT',
        ean,
        provider: { id: sandbox.provider.id },
      });
      expect(row.publishedAt?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
      const stocks = await storedStocks(response.body.id);
      expect(
        stocks.map((stock) => [
          stock.price,
          stock.quantity,
          stock.bookedQuantity,
          stock.beginningDatetime,
          stock.bookingLimitDatetime?.toISOString(),
          stock.isDeleted,
        ]),
      ).toEqual([[1500, 10, 0, null, '2026-12-24T17:00:00.000Z', false]]);
      expect((await getOne(response.body.id)).body).toEqual(response.body);
    });

    it('makes a stock without quantity (or "unlimited", or null) unlimited, and no stock at all without one', async () => {
      for (const stock of [{ price: 0 }, { price: 30000, quantity: 'unlimited' }, { price: 100, quantity: null }]) {
        const response = await post(aProductBody({ stock }));
        expect(response.status, JSON.stringify(stock)).toBe(201);
        expect(response.body.stock).toEqual({
          price: stock.price,
          bookedQuantity: 0,
          bookingLimitDatetime: null,
          quantity: 'unlimited',
        });
        expect((await storedStocks(response.body.id)).map((row) => row.quantity)).toEqual([null]);
      }
      for (const body of [{ ...aProductBody(), stock: undefined }, aProductBody({ stock: null })]) {
        const response = await post(body);
        expect(response.status).toBe(201);
        expect(response.body.stock).toBeNull();
        expect(await storedStocks(response.body.id)).toEqual([]);
      }
    });

    it('is approved automatically outside production', async () => {
      const product = await created();
      // One job per offer ({offerId}) or per group of offers created together ({offerIds}).
      const queued = (await jobs('offers.autoApprove')).flatMap((job) =>
        Array.isArray(job.payload.offerIds) ? job.payload.offerIds : [job.payload.offerId],
      );
      expect(queued).toContain(product.id);
      await approveAll();
      expect((await stored(product.id)).validation).toBe('APPROVED');
      expect((await getOne(product.id)).body.status).toBe('ACTIVE');
    });

    it('validates the shape (422): lengths, the stock, unknown fields, and writes nothing', async () => {
      const before = await offerCount();
      const cases: [Record<string, unknown>, string[], string][] = [
        [aProductBody({ name: 'x'.repeat(91) }), ['name'], 'string_too_long'],
        [aProductBody({ name: '' }), ['name'], 'string_too_short'],
        [{ ...aProductBody(), name: undefined }, ['name'], 'missing'],
        [{ ...aProductBody(), accessibility: undefined }, ['accessibility'], 'missing'],
        [aProductBody({ description: 'x'.repeat(10001) }), ['description'], 'string_too_long'],
        [aProductBody({ idAtProvider: 'x'.repeat(71) }), ['idAtProvider'], 'string_too_long'],
        [aProductBody({ stock: { price: -1 } }), ['stock', 'price'], 'greater_than_equal'],
        [aProductBody({ stock: { price: 30001 } }), ['stock', 'price'], 'less_than_equal'],
        [aProductBody({ stock: { price: 12.5 } }), ['stock', 'price'], 'int_type'],
        [aProductBody({ stock: { quantity: 5 } }), ['stock', 'price'], 'missing'],
        [aProductBody({ stock: { price: 100, quantity: 0 } }), ['stock', 'quantity'], 'union_tag_invalid'],
        [aProductBody({ stock: { price: 100, quantity: -3 } }), ['stock', 'quantity'], 'union_tag_invalid'],
        [aProductBody({ stock: { price: 100, quantity: 2.5 } }), ['stock', 'quantity'], 'union_tag_invalid'],
        [aProductBody({ stock: { price: 100, quantity: 'lots' } }), ['stock', 'quantity'], 'union_tag_invalid'],
        [
          aProductBody({ stock: { price: 100, bookingLimitDatetime: '2026-12-24T18:00:00' } }),
          ['stock', 'bookingLimitDatetime'],
          'timezone_aware',
        ],
      ];
      for (const [body, loc, type] of cases) {
        const response = await post(body);
        expect(response.status, JSON.stringify(loc)).toBe(422);
        const issue = response.body.find((entry: { loc: string[] }) => entry.loc.join('.') === loc.join('.'));
        expect(issue, JSON.stringify(response.body)).toBeDefined();
        expect(issue).toEqual({
          loc,
          msg: expect.any(String),
          type: expect.any(String),
          ...(issue.ctx ? { ctx: issue.ctx } : {}),
        });
        // Union errors name the branch they failed in; only the place matters for them.
        if (type !== 'union_tag_invalid') expect(issue.type, JSON.stringify(issue)).toBe(type);
      }
      expect(
        (
          await post(
            aProductBody({ name: 'x'.repeat(90), description: 'x'.repeat(10000), idAtProvider: 'x'.repeat(70) }),
          )
        ).status,
      ).toBe(201);
      expect(await offerCount()).toBe(before + 1);
    });

    it('is strict: an unknown field, offerId included, is 422 extra_forbidden', async () => {
      const before = await offerCount();
      const top = await post(aProductBody({ surprise: true }));
      expect(top.status).toBe(422);
      expect(top.body).toEqual([{ loc: ['surprise'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
      const withOfferId = await post(aProductBody({ offerId: 1 }));
      expect(withOfferId.status).toBe(422);
      expect(withOfferId.body).toEqual([
        { loc: ['offerId'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
      ]);
      expect(await offerCount()).toBe(before);
    });

    it('checks the category and its fields (422): creatable product categories only, required fields, EAN digits and check digit', async () => {
      const before = await offerCount();
      const ean = nextEan();
      const cases: [Record<string, unknown>, string[], string | null][] = [
        [{ category: 'LIVRE_PAPIER', ean }, ['categoryRelatedFields', 'category'], 'union_tag_invalid'],
        [{ category: 'CONCERT', musicType: 'ROCK' }, ['categoryRelatedFields', 'category'], 'union_tag_invalid'],
        [{ category: 'NOT_A_CATEGORY' }, ['categoryRelatedFields', 'category'], 'union_tag_invalid'],
        [{ category: 'LOCATION_INSTRUMENT' }, ['categoryRelatedFields', 'ean'], 'missing'],
        [{ category: 'SUPPORT_PHYSIQUE_FILM' }, ['categoryRelatedFields', 'ean'], 'missing'],
        [
          { category: 'LOCATION_INSTRUMENT', ean: ean.slice(0, 12) },
          ['categoryRelatedFields', 'ean'],
          'string_pattern_mismatch',
        ],
        [
          { category: 'LOCATION_INSTRUMENT', ean: `${ean.slice(0, 12)}X` },
          ['categoryRelatedFields', 'ean'],
          'string_pattern_mismatch',
        ],
      ];
      for (const [categoryRelatedFields, loc, type] of cases) {
        const response = await post(aProductBody({ categoryRelatedFields }));
        expect(response.status, JSON.stringify(categoryRelatedFields)).toBe(422);
        const issue = response.body.find((entry: { loc: string[] }) => entry.loc.join('.') === loc.join('.'));
        expect(issue, JSON.stringify(response.body)).toBeDefined();
        expect(issue.type, JSON.stringify(issue)).toBe(type);
      }
      const download = await post(aDownloadBody({ categoryRelatedFields: { category: 'TELECHARGEMENT_MUSIQUE' } }));
      expect(download.status).toBe(422);
      expect(download.body).toEqual([
        expect.objectContaining({ loc: ['categoryRelatedFields', 'musicType'], type: 'missing' }),
      ]);

      const wrongCheckDigit = await post(
        aProductBody({ categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean: withWrongCheckDigit(ean) } }),
      );
      expect(wrongCheckDigit.status).toBe(422);
      expect(wrongCheckDigit.body).toEqual([
        {
          loc: ['categoryRelatedFields', 'ean'],
          msg: 'The last digit of this EAN is not its check digit',
          type: 'ean_check_digit',
        },
      ]);
      expect(await offerCount()).toBe(before);

      const film = await post(
        aProductBody({ name: 'A DVD', categoryRelatedFields: { category: 'SUPPORT_PHYSIQUE_FILM', ean } }),
      );
      expect(film.status).toBe(201);
      expect(film.body.categoryRelatedFields).toEqual({ category: 'SUPPORT_PHYSIQUE_FILM', ean });
    });

    it('takes a physical location, a digital one for an online category, or an address', async () => {
      const physical = await post(aProductBody());
      expect(physical.status).toBe(201);
      expect(physical.body.location).toEqual({ type: 'physical', venueId: bookshop() });

      const digital = await post(aDownloadBody());
      expect(digital.status).toBe(201);
      expect(digital.body).toMatchObject({
        categoryRelatedFields: { category: 'TELECHARGEMENT_MUSIQUE', musicType: 'ROCK', performer: 'The Demos' },
        location: { type: 'digital', venueId: online(), url: 'https://download.example.com/album?token={token}' },
        enableDoubleBookings: false,
      });
      expect(await stored(digital.body.id)).toMatchObject({
        locationType: 'digital',
        url: 'https://download.example.com/album?token={token}',
      });

      const addressId = await anAddress();
      const atAddress = await post(
        aProductBody({ location: { type: 'address', venueId: theatre(), addressId, addressLabel: 'Music school' } }),
      );
      expect(atAddress.status).toBe(201);
      expect(atAddress.body.location).toEqual({
        type: 'address',
        venueId: theatre(),
        addressId,
        addressLabel: 'Music school',
      });
      expect(await stored(atAddress.body.id)).toMatchObject({
        locationType: 'address',
        address: { id: addressId },
        addressLabel: 'Music school',
      });
    });

    it('refuses a location that does not fit the category (400), an unknown address or a venue out of reach (404)', async () => {
      const before = await offerCount();
      const digitalRental = await post(
        aProductBody({ location: { type: 'digital', venueId: online(), url: 'https://rent.example.com/' } }),
      );
      expect(digitalRental.status).toBe(400);
      expect(digitalRental.body).toEqual({
        location: ['The category LOCATION_INSTRUMENT takes place at a venue or an address, not online'],
      });
      const physicalDownload = await post(aDownloadBody({ location: { type: 'physical', venueId: bookshop() } }));
      expect(physicalDownload.status).toBe(400);
      expect(physicalDownload.body).toEqual({
        location: ['The category TELECHARGEMENT_MUSIQUE is online only: give a digital location'],
      });
      const unknownAddress = await post(
        aProductBody({ location: { type: 'address', venueId: theatre(), addressId: 999999 } }),
      );
      expect(unknownAddress.status).toBe(404);
      expect(unknownAddress.body).toEqual({ global: ['Address not found'] });
      const foreignVenue = await post(aProductBody(), other.apiKey);
      expect(foreignVenue.status).toBe(404);
      expect(foreignVenue.body).toEqual({ global: ['Venue not found'] });
      const unknownVenue = await post(aProductBody({ location: { type: 'physical', venueId: 999999 } }));
      expect(unknownVenue.status).toBe(404);
      expect(await offerCount()).toBe(before);
    });

    it('creates in every creatable product category, with duo bookings off by default and refused (400) where the category forbids them', async () => {
      /** A valid body for the category: its required fields, and the location it takes. */
      const bodyFor = (category: Category) => {
        const values: Record<string, string> = { ean: nextEan(), musicType: 'ROCK', showType: showTypes[0] };
        const fields = Object.fromEntries(category.requiredOnCreate.map((field) => [field, values[field]]));
        return aProductBody({
          name: `A ${category.id} product`,
          categoryRelatedFields: { category: category.id, ...fields },
          location:
            category.locationType === 'ONLINE'
              ? { type: 'digital', venueId: online(), url: 'https://access.example.com/{token}' }
              : { type: 'physical', venueId: bookshop() },
        });
      };
      const answers: Record<string, unknown> = {};
      const expected: Record<string, unknown> = {};
      for (const category of creatable) {
        const duo = await post({ ...bodyFor(category), enableDoubleBookings: true });
        const byDefault = await post(bodyFor(category));
        answers[category.id] = [duo.status, duo.body, byDefault.status, byDefault.body.enableDoubleBookings];
        expected[category.id] = category.canBeDuo
          ? [201, expect.objectContaining({ enableDoubleBookings: true }), 201, false]
          : [400, { enableDoubleBookings: [`The category ${category.id} does not allow duo bookings`] }, 201, false];
      }
      expect(answers).toEqual(expected);
      const off = await post(aProductBody({ enableDoubleBookings: false }));
      expect(off.status).toBe(201);
      expect(off.body.enableDoubleBookings).toBe(false);
    });

    it('keeps idAtProvider unique per venue (400)', async () => {
      await created({ idAtProvider: 'unique-1' });
      const again = await post(aProductBody({ idAtProvider: 'unique-1' }));
      expect(again.status).toBe(400);
      expect(again.body).toEqual({
        idAtProvider: ['Another offer of this venue already has the idAtProvider unique-1'],
      });
      const otherVenue = await post(
        aProductBody({ idAtProvider: 'unique-1', location: { type: 'physical', venueId: theatre() } }),
      );
      expect(otherVenue.status).toBe(201);
    });

    it('refuses a second product with the same EAN at the same venue for the same provider (400)', async () => {
      const ean = nextEan();
      const first = await created({ categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean } });
      const before = await offerCount();
      const again = await post(aProductBody({ categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean } }));
      expect(again.status).toBe(400);
      expect(again.body).toEqual({
        'categoryRelatedFields.ean': [`Your offer ${first.id} already sells the EAN ${ean} at this venue`],
      });
      const otherCategory = await post(
        aProductBody({ categoryRelatedFields: { category: 'SUPPORT_PHYSIQUE_FILM', ean } }),
      );
      expect(otherCategory.status).toBe(400);
      expect(Object.keys(otherCategory.body)).toEqual(['categoryRelatedFields.ean']);
      expect(await offerCount()).toBe(before);

      const otherVenue = await post(
        aProductBody({
          categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean },
          location: { type: 'physical', venueId: theatre() },
        }),
      );
      expect(otherVenue.status).toBe(201);

      // Another provider linked to the same venue may sell the same EAN there.
      const second = await anotherProviderAt(bookshop());
      const otherProvider = await post(
        aProductBody({ categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean } }),
        second.key,
      );
      expect(otherProvider.status, JSON.stringify(otherProvider.body)).toBe(201);
      expect(await stored(otherProvider.body.id)).toMatchObject({
        provider: { id: second.providerId },
        venue: { id: bookshop() },
        ean,
      });
    });

    it('keeps the EAN and idAtProvider rules under concurrent creations: one 201, the others 400', async () => {
      const ean = nextEan();
      const sameEan = await Promise.all(
        [1, 2, 3, 4].map(() =>
          raw('post', COLLECTION, aProductBody({ categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean } })),
        ),
      );
      expect(sameEan.map((response) => response.status).sort()).toEqual([201, 400, 400, 400]);
      expect(await em().count(Offer, { venue: bookshop(), provider: sandbox.provider.id, ean })).toBe(1);

      const sameId = await Promise.all(
        [1, 2, 3, 4].map(() => raw('post', COLLECTION, aProductBody({ idAtProvider: 'raced-id' }))),
      );
      expect(sameId.map((response) => response.status).sort()).toEqual([201, 400, 400, 400]);
      for (const response of [...sameEan, ...sameId]) expectMatchesContract(response, 'post', COLLECTION);
      expect(await em().count(Offer, { venue: bookshop(), idAtProvider: 'raced-id' })).toBe(1);
    });

    it('stores a valid image sent in the body, served at the URL it answers; refuses a bad one (422)', async () => {
      const file = aPng(400, 600).toString('base64');
      const withImage = await post(aProductBody({ image: { file, credit: 'Photo: A. Demo' } }));
      expect(withImage.status).toBe(201);
      expect(withImage.body.image).toEqual({
        url: expect.stringMatching(/^http:\/\/api\.test\/images\/[\w-]+\.png$/),
        credit: 'Photo: A. Demo',
      });
      const served = await request(testApp.app).get(new URL(withImage.body.image.url).pathname);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(served.body as Buffer, aPng(400, 600))).toBe(0);
      expect((await stored(withImage.body.id)).imageCredit).toBe('Photo: A. Demo');

      const before = await offerCount();
      const tooSmall = await post(aProductBody({ image: { file: aPng(300, 450).toString('base64') } }));
      expect(tooSmall.status).toBe(422);
      expect(tooSmall.body).toEqual([expect.objectContaining({ loc: ['image', 'file'], type: 'image_too_small' })]);
      expect(await offerCount()).toBe(before);
    });

    it('answers 403 to a provider whose right to manage individual offers was withdrawn', async () => {
      const setRight = (value: boolean) =>
        em().nativeUpdate(Provider, sandbox.provider.id, { canManageIndividualOffers: value });
      const product = await created();
      const before = await offerCount();
      await setRight(false);
      try {
        for (const response of [
          await post(aProductBody()),
          await patch({ offerId: product.id, name: 'Changed' }),
          await getOne(product.id),
          await list(),
        ]) {
          expect(response.status).toBe(403);
          expect(response.body).toEqual({ global: ['Your provider is not allowed to manage individual offers'] });
        }
      } finally {
        await setRight(true);
      }
      expect(await offerCount()).toBe(before);
      expect((await stored(product.id)).name).toBe('Cello rental');
    });
  });

  describe('reading', () => {
    it("reads one product; another provider's, an event and an unknown id are 404", async () => {
      const product = await created();
      const read = await getOne(product.id);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(product);

      const notFound = { global: ['Product offer not found'] };
      const byOther = await getOne(product.id, other.apiKey);
      expect([byOther.status, byOther.body]).toEqual([404, notFound]);
      const event = await anEvent(em(), testApp.clock, { providerId: sandbox.provider.id, venueId: theatre() });
      const anEventRead = await getOne(event.id);
      expect([anEventRead.status, anEventRead.body]).toEqual([404, notFound]);
      const unknown = await getOne(999999);
      expect([unknown.status, unknown.body]).toEqual([404, notFound]);
      const notAnId = await getOne('abc');
      expect(notAnId.status).toBe(422);
      expect(notAnId.body[0].loc).toEqual(['product_id']);
    });

    it('lists only the products of the key, a page at a time (50 by default), in id order', async () => {
      // Enough products for more than one default page, straight into the database.
      const fork = em();
      for (let index = 0; index < 55; index += 1) {
        fork.create(Offer, {
          name: `Bulk pass ${index}`,
          venue: theatre(),
          provider: sandbox.provider.id,
          category: 'CARTE_JEUNES',
          isEvent: false,
          audioDisabilityCompliant: false,
          mentalDisabilityCompliant: false,
          motorDisabilityCompliant: false,
          visualDisabilityCompliant: false,
          categoryRelatedFields: {},
          enableDoubleBookings: false,
          hasTicket: false,
          locationType: 'physical',
          idAtProvider: `bulk-${index}`,
          createdAt: testApp.clock.now(),
          updatedAt: testApp.clock.now(),
        });
      }
      await fork.flush();
      const event = await anEvent(em(), testApp.clock, { providerId: sandbox.provider.id, venueId: theatre() });
      await created({ idAtProvider: 'listed-1' });
      // A product of another provider, at a venue of the same offerer.
      const second = await anotherProviderAt(bookshop());
      const othersProduct = await post(aProductBody(), second.key);
      expect(othersProduct.status).toBe(201);

      const expected = (
        await em().find(Offer, { provider: sandbox.provider.id, isEvent: false }, { orderBy: { id: 'asc' } })
      ).map((offer) => offer.id);
      expect(expected.length).toBeGreaterThan(55);
      const idsOf = (response: { body: { products: { id: number }[] } }) =>
        response.body.products.map((product) => product.id);

      const firstPage = await list();
      expect(firstPage.status).toBe(200);
      expect(idsOf(firstPage)).toEqual(expected.slice(0, 50));
      const secondPage = await list(`?firstIndex=${expected[49] + 1}`);
      expect(idsOf(secondPage)).toEqual(expected.slice(50, 100));
      expect(idsOf(await list('?limit=2'))).toEqual(expected.slice(0, 2));
      expect(idsOf(await list(`?limit=3&firstIndex=${expected[1] + 1}`))).toEqual(expected.slice(2, 5));
      expect(idsOf(await list(`?firstIndex=${expected[4]}&limit=1`))).toEqual([expected[4]]);
      expect(idsOf(await list('?firstIndex=2147483647'))).toEqual([]);
      expect(idsOf(await list('?limit=50&firstIndex=1'))).not.toContain(othersProduct.body.id);
      const everything = [...idsOf(firstPage), ...idsOf(secondPage)];
      expect(everything).not.toContain(othersProduct.body.id);
      expect(everything).not.toContain(event.id);
      expect(idsOf(await list(`?firstIndex=${event.id}&limit=1`))).not.toContain(event.id);
      expect(idsOf(await list('', second.key))).toEqual([othersProduct.body.id]);
      expect(idsOf(await list('', other.apiKey))).toEqual([]);
    });

    it('filters by venue, address and idsAtProvider', async () => {
      const addressId = await anAddress();
      const atAddress = await created({
        idAtProvider: 'filter-address',
        location: { type: 'address', venueId: theatre(), addressId },
      });
      const atTheatre = await created({
        idAtProvider: 'filter-theatre',
        location: { type: 'physical', venueId: theatre() },
      });
      const atBookshop = await created({ idAtProvider: 'filter-bookshop' });
      const download = await post(aDownloadBody({ idAtProvider: 'filter-online' }));

      const all = async (query: string) => {
        const ids: number[] = [];
        let firstIndex = 1;
        for (;;) {
          const page = await list(`?limit=50&firstIndex=${firstIndex}${query}`);
          expect(page.status, query).toBe(200);
          ids.push(...page.body.products.map((product: { id: number }) => product.id));
          if (page.body.products.length < 50) return { ids, products: page.body.products };
          firstIndex = ids[ids.length - 1] + 1;
        }
      };
      const byTheatre = await all(`&venueId=${theatre()}`);
      expect(byTheatre.ids).toEqual(expect.arrayContaining([atAddress.id, atTheatre.id]));
      expect(byTheatre.ids).not.toContain(atBookshop.id);
      expect(byTheatre.ids).not.toContain(download.body.id);
      const expectedAtTheatre = (
        await em().find(
          Offer,
          { provider: sandbox.provider.id, isEvent: false, venue: theatre() },
          { orderBy: { id: 'asc' } },
        )
      ).map((offer) => offer.id);
      expect(byTheatre.ids).toEqual(expectedAtTheatre);
      expect((await all(`&venueId=${online()}`)).ids).toContain(download.body.id);

      const byAddress = await list(`?addressId=${addressId}`);
      expect(byAddress.body.products.map((product: { id: number }) => product.id)).toEqual([atAddress.id]);
      expect(byAddress.body.products[0].location).toEqual({
        type: 'address',
        venueId: theatre(),
        addressId,
        addressLabel: null,
      });

      const byIds = await list('?idsAtProvider=filter-online,filter-theatre,nope');
      expect(byIds.body.products.map((product: { id: number }) => product.id)).toEqual([
        atTheatre.id,
        download.body.id,
      ]);
      const combined = await list(`?idsAtProvider=filter-theatre,filter-bookshop&venueId=${bookshop()}`);
      expect(combined.body.products.map((product: { id: number }) => product.id)).toEqual([atBookshop.id]);
      expect((await list('?venueId=999999')).body.products).toEqual([]);
    });

    it('refuses bad pagination and filters (422)', async () => {
      for (const [query, loc, type] of [
        ['?limit=0', 'limit', 'greater_than'],
        ['?limit=51', 'limit', 'less_than_equal'],
        ['?firstIndex=0', 'firstIndex', 'greater_than_equal'],
        ['?venueId=0', 'venueId', 'greater_than'],
        ['?venueId=abc', 'venueId', null],
        [`?idsAtProvider=${Array.from({ length: 101 }, (_, index) => `id${index}`).join(',')}`, 'idsAtProvider', null],
      ] as const) {
        const response = await list(query);
        expect(response.status, query).toBe(422);
        expect(response.body, query).toEqual([expect.objectContaining({ loc: [loc] })]);
        if (type) expect(response.body[0].type, query).toBe(type);
      }
      expect((await list('?limit=50')).status).toBe(200);
    });
    it('answers 422, never 500, to ids beyond a 32-bit integer, in the body or the query', async () => {
      const product = await created();
      const beyond = 2_147_483_648;
      const cases: ['get' | 'post' | 'patch', string, unknown, string[]][] = [
        ['patch', COLLECTION, { offerId: beyond, name: 'Too far' }, ['offerId']],
        [
          'patch',
          COLLECTION,
          { offerId: product.id, location: { type: 'physical', venueId: beyond } },
          ['location', 'venueId'],
        ],
        [
          'post',
          COLLECTION,
          aProductBody({ location: { type: 'physical', venueId: beyond } }),
          ['location', 'venueId'],
        ],
        [
          'post',
          COLLECTION,
          aProductBody({ location: { type: 'address', venueId: theatre(), addressId: beyond } }),
          ['location', 'addressId'],
        ],
        ['get', `${COLLECTION}?venueId=${beyond}`, undefined, ['venueId']],
        ['get', `${COLLECTION}?addressId=${beyond}`, undefined, ['addressId']],
      ];
      const answers = [];
      for (const [method, path, body] of cases) {
        const response = await raw(method, path, body);
        answers.push([
          response.status,
          response.status === 422 ? response.body.map((issue: { loc: string[] }) => issue.loc) : response.body,
        ]);
      }
      expect(answers).toEqual(cases.map(([, , , loc]) => [422, [loc]]));
      expect((await getOne(beyond)).status).toBe(422);
    });
  });

  describe('edition', () => {
    it('changes only the fields sent (200)', async () => {
      const product = await created({ description: 'Before', idAtProvider: 'edit-1', bookingEmail: 'a@example.com' });
      const edited = await patch({
        offerId: product.id,
        name: 'Cello rental, by the month',
        accessibility: { visualDisabilityCompliant: true },
      });
      expect(edited.status).toBe(200);
      expect(edited.body).toEqual({
        ...product,
        name: 'Cello rental, by the month',
        accessibility: { ...accessibility, visualDisabilityCompliant: true },
      });
      expect((await getOne(product.id)).body).toEqual(edited.body);
      const row = await stored(product.id);
      expect([
        row.name,
        row.description,
        row.idAtProvider,
        row.bookingEmail,
        row.visualDisabilityCompliant,
        row.audioDisabilityCompliant,
      ]).toEqual(['Cello rental, by the month', 'Before', 'edit-1', 'a@example.com', true, true]);
      const stocks = await storedStocks(product.id);
      expect(stocks.map((stock) => [stock.price, stock.quantity, stock.isDeleted])).toEqual([[1500, 10, false]]);

      const nothing = await patch({ offerId: product.id });
      expect(nothing.status).toBe(200);
      expect(nothing.body).toEqual(edited.body);
    });

    it('clears clearable fields with null, refuses null on the others (422)', async () => {
      const product = await created({
        description: 'Before',
        idAtProvider: 'edit-2',
        bookingEmail: 'a@example.com',
        itemCollectionDetails: 'Counter',
      });
      const cleared = await patch({
        offerId: product.id,
        description: null,
        idAtProvider: null,
        bookingEmail: null,
        itemCollectionDetails: null,
      });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({
        description: null,
        idAtProvider: null,
        bookingEmail: null,
        itemCollectionDetails: null,
        name: 'Cello rental',
      });
      expect(await stored(product.id)).toMatchObject({
        description: null,
        idAtProvider: null,
        bookingEmail: null,
        itemCollectionDetails: null,
      });
      for (const field of [
        'name',
        'accessibility',
        'categoryRelatedFields',
        'location',
        'isActive',
        'enableDoubleBookings',
      ]) {
        const response = await patch({ offerId: product.id, [field]: null });
        expect(response.status, field).toBe(422);
        expect(response.body, field).toEqual([
          { loc: [field], msg: 'This field cannot be null', type: 'not_nullable' },
        ]);
      }
    });

    it('checks the name: 1 to 140 characters on edition (422 otherwise)', async () => {
      const product = await created();
      const tooLong = await patch({ offerId: product.id, name: 'x'.repeat(141) });
      expect(tooLong.status).toBe(422);
      expect(tooLong.body).toEqual([expect.objectContaining({ loc: ['name'], type: 'string_too_long' })]);
      const empty = await patch({ offerId: product.id, name: '' });
      expect(empty.status).toBe(422);
      expect(empty.body).toEqual([expect.objectContaining({ loc: ['name'], type: 'string_too_short' })]);
      expect((await stored(product.id)).name).toBe('Cello rental');
      const longest = await patch({ offerId: product.id, name: 'x'.repeat(140) });
      expect(longest.status).toBe(200);
      expect(longest.body.name).toBe('x'.repeat(140));
    });

    it('checks the description (10000) and idAtProvider (70) lengths on edition (422)', async () => {
      const product = await created();
      for (const [field, value] of [
        ['description', 'x'.repeat(10001)],
        ['idAtProvider', 'x'.repeat(71)],
      ] as const) {
        const response = await patch({ offerId: product.id, [field]: value });
        expect(response.status, field).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc: [field], type: 'string_too_long' })]);
      }
      const longest = await patch({
        offerId: product.id,
        description: 'x'.repeat(10000),
        idAtProvider: 'long-'.padEnd(70, 'z'),
      });
      expect(longest.status).toBe(200);
      expect(await stored(product.id)).toMatchObject({
        description: 'x'.repeat(10000),
        idAtProvider: 'long-'.padEnd(70, 'z'),
      });
    });

    it('requires offerId, and is strict (422)', async () => {
      const product = await created();
      const missing = await patch({ name: 'No id' });
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual([{ loc: ['offerId'], msg: 'Field required', type: 'missing' }]);
      for (const offerId of [0, -1, 'abc', 1.5]) {
        const response = await patch({ offerId, name: 'Bad id' });
        expect(response.status, String(offerId)).toBe(422);
        expect(response.body, String(offerId)).toEqual([expect.objectContaining({ loc: ['offerId'] })]);
      }
      const unknownField = await patch({ offerId: product.id, surprise: 1 });
      expect(unknownField.status).toBe(422);
      expect(unknownField.body).toEqual([
        { loc: ['surprise'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
      ]);
      const unknownStockField = await patch({
        offerId: product.id,
        stock: { price: 100, beginningDatetime: '2026-12-24T18:00:00Z' },
      });
      expect(unknownStockField.status).toBe(422);
      expect(unknownStockField.body).toEqual([
        { loc: ['stock', 'beginningDatetime'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
      ]);
      const notEditable = await patch({ offerId: product.id, externalTicketOfficeUrl: 'https://tickets.example.com' });
      expect(notEditable.status).toBe(422);
      expect(notEditable.body).toEqual([
        { loc: ['externalTicketOfficeUrl'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
      ]);
      expect((await stored(product.id)).name).toBe('Cello rental');
    });

    it('never changes the category (400), but changes its fields', async () => {
      const product = await created();
      const newCategory = await patch({
        offerId: product.id,
        name: 'Now a DVD',
        categoryRelatedFields: { category: 'SUPPORT_PHYSIQUE_FILM', ean: nextEan() },
      });
      expect(newCategory.status).toBe(400);
      expect(newCategory.body).toEqual({
        'categoryRelatedFields.category': ['The category of an offer cannot change'],
      });
      const notAProduct = await patch({
        offerId: product.id,
        categoryRelatedFields: { category: 'CONCERT', musicType: 'ROCK' },
      });
      expect(notAProduct.status).toBe(422);
      expect(notAProduct.body[0].loc).toEqual(['categoryRelatedFields', 'category']);
      expect(await stored(product.id)).toMatchObject({
        name: 'Cello rental',
        category: 'LOCATION_INSTRUMENT',
        ean: product.categoryRelatedFields.ean,
      });

      const ean = nextEan();
      const newEan = await patch({
        offerId: product.id,
        categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean },
      });
      expect(newEan.status).toBe(200);
      expect(newEan.body.categoryRelatedFields).toEqual({ category: 'LOCATION_INSTRUMENT', ean });
      expect(await stored(product.id)).toMatchObject({ ean, categoryRelatedFields: { ean } });

      const wrongCheckDigit = await patch({
        offerId: product.id,
        categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean: withWrongCheckDigit(nextEan()) },
      });
      expect(wrongCheckDigit.status).toBe(422);
      expect(wrongCheckDigit.body).toEqual([
        {
          loc: ['categoryRelatedFields', 'ean'],
          msg: 'The last digit of this EAN is not its check digit',
          type: 'ean_check_digit',
        },
      ]);
      expect((await stored(product.id)).ean).toBe(ean);
    });

    it("refuses an EAN, or a move to a venue, that another of the provider's products sells at that venue (400)", async () => {
      const taken = await created();
      const takenAtTheatre = await created({ location: { type: 'physical', venueId: theatre() } });
      const product = await created();
      const sameEan = await patch({
        offerId: product.id,
        categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean: taken.categoryRelatedFields.ean },
      });
      expect(sameEan.status).toBe(400);
      expect(sameEan.body).toEqual({
        'categoryRelatedFields.ean': [
          `Your offer ${taken.id} already sells the EAN ${taken.categoryRelatedFields.ean} at this venue`,
        ],
      });
      const sameEanHere = await created({
        categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean: takenAtTheatre.categoryRelatedFields.ean },
      });
      const moved = await patch({ offerId: sameEanHere.id, location: { type: 'physical', venueId: theatre() } });
      expect(moved.status).toBe(400);
      expect(Object.keys(moved.body)).toEqual(['categoryRelatedFields.ean']);
      expect((await stored(sameEanHere.id)).venue.id).toBe(bookshop());
      expect((await stored(product.id)).ean).toBe(product.categoryRelatedFields.ean);
      // Its own EAN is no conflict.
      const own = await patch({
        offerId: product.id,
        categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean: product.categoryRelatedFields.ean },
        name: 'Same EAN',
      });
      expect(own.status).toBe(200);
    });

    it('refuses duo bookings, a location that does not fit, a taken idAtProvider (400), and changes nothing', async () => {
      await created({ idAtProvider: 'taken-id' });
      const product = await created({ idAtProvider: 'mine' });
      const cases: [Record<string, unknown>, Record<string, string[]>][] = [
        [
          { enableDoubleBookings: true },
          { enableDoubleBookings: ['The category LOCATION_INSTRUMENT does not allow duo bookings'] },
        ],
        [
          { location: { type: 'digital', venueId: online(), url: 'https://rent.example.com/' } },
          { location: ['The category LOCATION_INSTRUMENT takes place at a venue or an address, not online'] },
        ],
        [
          { idAtProvider: 'taken-id' },
          { idAtProvider: ['Another offer of this venue already has the idAtProvider taken-id'] },
        ],
      ];
      for (const [change, body] of cases) {
        const response = await patch({ offerId: product.id, name: 'Changed', ...change });
        expect(response.status, JSON.stringify(change)).toBe(400);
        expect(response.body).toEqual(body);
      }
      expect(await stored(product.id)).toMatchObject({
        name: 'Cello rental',
        idAtProvider: 'mine',
        enableDoubleBookings: false,
        locationType: 'physical',
      });
      const download = (await post(aDownloadBody())).body;
      const physicalDownload = await patch({
        offerId: download.id,
        location: { type: 'physical', venueId: bookshop() },
      });
      expect(physicalDownload.status).toBe(400);
      expect(physicalDownload.body).toEqual({
        location: ['The category TELECHARGEMENT_MUSIQUE is online only: give a digital location'],
      });
      expect((await patch({ offerId: product.id, enableDoubleBookings: false, idAtProvider: 'mine' })).status).toBe(
        200,
      );
    });

    it('refuses moving a product to a venue where another offer has its idAtProvider (400)', async () => {
      await created({ idAtProvider: 'moving-id' });
      const product = await created({ idAtProvider: 'moving-id', location: { type: 'physical', venueId: theatre() } });
      const moved = await raw('patch', COLLECTION, {
        offerId: product.id,
        location: { type: 'physical', venueId: bookshop() },
      });
      expect([moved.status, moved.body]).toEqual([
        400,
        { idAtProvider: ['Another offer of this venue already has the idAtProvider moving-id'] },
      ]);
      expectMatchesContract(moved, 'patch', COLLECTION);
      expect((await stored(product.id)).venue.id).toBe(theatre());
    });

    it('moves a product to an address, and sets an image', async () => {
      const product = await created();
      const addressId = await anAddress();
      const moved = await patch({
        offerId: product.id,
        location: { type: 'address', venueId: theatre(), addressId, addressLabel: 'Annex' },
      });
      expect(moved.status).toBe(200);
      expect(moved.body.location).toEqual({ type: 'address', venueId: theatre(), addressId, addressLabel: 'Annex' });
      const withImage = await patch({
        offerId: product.id,
        image: { file: aPng(400, 600).toString('base64'), credit: 'Me' },
      });
      expect(withImage.status).toBe(200);
      expect(withImage.body.image).toEqual({
        url: expect.stringMatching(/^http:\/\/api\.test\/images\/[\w-]+\.png$/),
        credit: 'Me',
      });
      const withoutImage = await patch({ offerId: product.id, image: null });
      expect(withoutImage.body.image).toBeNull();
    });

    it("answers 404 for another provider's product, an event and an unknown id, and changes nothing", async () => {
      const product = await created();
      const notFound = { global: ['Product offer not found'] };
      const byOther = await patch({ offerId: product.id, name: 'Stolen', stock: null }, other.apiKey);
      expect([byOther.status, byOther.body]).toEqual([404, notFound]);
      expect((await stored(product.id)).name).toBe('Cello rental');
      expect((await storedStocks(product.id)).map((stock) => stock.isDeleted)).toEqual([false]);
      const event = await anEvent(em(), testApp.clock, { providerId: sandbox.provider.id, venueId: theatre() });
      const anEventPatch = await patch({ offerId: event.id, name: 'Not a product' });
      expect([anEventPatch.status, anEventPatch.body]).toEqual([404, notFound]);
      expect((await stored(event.id)).name).toBe('Concert at the demo theatre');
      const unknown = await patch({ offerId: 999999, name: 'Nobody' });
      expect([unknown.status, unknown.body]).toEqual([404, notFound]);
    });
  });

  describe('stock', () => {
    it('shows the items still on sale and stores the total: a quantity sent adds the booked items', async () => {
      const product = await created({ stock: { price: 1500, quantity: 10 } });
      const [stock] = await storedStocks(product.id);
      await em().nativeUpdate(Stock, stock.id, { bookedQuantity: 2 });
      expect((await getOne(product.id)).body.stock).toEqual({
        price: 1500,
        bookedQuantity: 2,
        bookingLimitDatetime: null,
        quantity: 8,
      });

      const response = await patch({ offerId: product.id, stock: { quantity: 5 } });
      expect(response.status).toBe(200);
      expect(response.body.stock).toEqual({ price: 1500, bookedQuantity: 2, bookingLimitDatetime: null, quantity: 5 });
      expect(await storedStocks(product.id)).toEqual([
        expect.objectContaining({ id: stock.id, quantity: 7, bookedQuantity: 2, price: 1500, isDeleted: false }),
      ]);
      expect((await getOne(product.id)).body.stock.quantity).toBe(5);

      const zero = await patch({ offerId: product.id, stock: { quantity: 0 } });
      expect(zero.body.stock).toMatchObject({ quantity: 0, bookedQuantity: 2 });
      expect((await storedStocks(product.id))[0].quantity).toBe(2);
      const unlimited = await patch({ offerId: product.id, stock: { quantity: 'unlimited' } });
      expect(unlimited.body.stock).toMatchObject({ quantity: 'unlimited', bookedQuantity: 2 });
      expect((await storedStocks(product.id))[0].quantity).toBeNull();
      const kept = await patch({ offerId: product.id, stock: { quantity: null, price: 900 } });
      expect(kept.body.stock).toEqual({
        price: 900,
        bookedQuantity: 2,
        bookingLimitDatetime: null,
        quantity: 'unlimited',
      });
      expect(await storedStocks(product.id)).toHaveLength(1);
    });

    it('changes only the stock fields sent', async () => {
      const product = await created({
        stock: { price: 1500, quantity: 10, bookingLimitDatetime: '2026-12-24T18:00:00Z' },
      });
      const price = await patch({ offerId: product.id, stock: { price: 30000 } });
      expect(price.status).toBe(200);
      expect(price.body.stock).toEqual({
        price: 30000,
        bookedQuantity: 0,
        bookingLimitDatetime: '2026-12-24T18:00:00.000Z',
        quantity: 10,
      });
      const limit = await patch({ offerId: product.id, stock: { bookingLimitDatetime: '2026-12-31T23:00:00+01:00' } });
      expect(limit.body.stock).toEqual({
        price: 30000,
        bookedQuantity: 0,
        bookingLimitDatetime: '2026-12-31T22:00:00.000Z',
        quantity: 10,
      });
      const keptLimit = await patch({ offerId: product.id, stock: { bookingLimitDatetime: null, price: 0 } });
      expect(keptLimit.body.stock).toEqual({
        price: 0,
        bookedQuantity: 0,
        bookingLimitDatetime: '2026-12-31T22:00:00.000Z',
        quantity: 10,
      });
      const empty = await patch({ offerId: product.id, stock: {} });
      expect(empty.body.stock).toEqual(keptLimit.body.stock);
      const stocks = await storedStocks(product.id);
      expect(
        stocks.map((stock) => [
          stock.price,
          stock.quantity,
          stock.bookingLimitDatetime?.toISOString(),
          stock.isDeleted,
        ]),
      ).toEqual([[0, 10, '2026-12-31T22:00:00.000Z', false]]);
    });

    it('refuses bad stock fields on edition (422) and changes nothing', async () => {
      const product = await created();
      for (const [stock, loc, type] of [
        [{ quantity: -1 }, 'quantity', null],
        [{ quantity: 1.5 }, 'quantity', null],
        [{ quantity: 'all' }, 'quantity', null],
        [{ price: -1 }, 'price', 'greater_than_equal'],
        [{ price: 30001 }, 'price', 'less_than_equal'],
        [{ bookingLimitDatetime: '2026-12-24T18:00:00' }, 'bookingLimitDatetime', 'timezone_aware'],
      ] as const) {
        const response = await patch({ offerId: product.id, name: 'Changed', stock });
        expect(response.status, JSON.stringify(stock)).toBe(422);
        expect(response.body, JSON.stringify(stock)).toEqual([expect.objectContaining({ loc: ['stock', loc] })]);
        if (type) expect(response.body[0].type).toBe(type);
      }
      expect((await stored(product.id)).name).toBe('Cello rental');
      expect((await storedStocks(product.id)).map((stock) => [stock.price, stock.quantity])).toEqual([[1500, 10]]);
    });

    it('creates the stock of a product without one: a price is required (400)', async () => {
      const product = await created({ stock: null });
      const noPrice = await patch({ offerId: product.id, name: 'With stock', stock: { quantity: 4 } });
      expect(noPrice.status).toBe(400);
      expect(noPrice.body).toEqual({ 'stock.price': ['A price is required to create the stock of a product'] });
      expect(await storedStocks(product.id)).toEqual([]);
      expect((await stored(product.id)).name).toBe('Cello rental');

      const withPrice = await patch({ offerId: product.id, stock: { price: 700, quantity: 4 } });
      expect(withPrice.status).toBe(200);
      expect(withPrice.body.stock).toEqual({ price: 700, bookedQuantity: 0, bookingLimitDatetime: null, quantity: 4 });
      const unlimited = await created({ stock: null });
      const noQuantity = await patch({ offerId: unlimited.id, stock: { price: 0 } });
      expect(noQuantity.body.stock).toEqual({
        price: 0,
        bookedQuantity: 0,
        bookingLimitDatetime: null,
        quantity: 'unlimited',
      });
      expect((await storedStocks(unlimited.id)).map((stock) => stock.quantity)).toEqual([null]);
    });

    it('soft-deletes the stock with stock: null, publishing offers.stockDeleted in the transaction', async () => {
      const product = await created();
      const [stock] = await storedStocks(product.id);
      const response = await patch({ offerId: product.id, stock: null });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...product, stock: null });
      expect(await storedStocks(product.id)).toEqual([
        expect.objectContaining({ id: stock.id, isDeleted: true, quantity: 10 }),
      ]);
      expect((await stockDeletedFor(product.id)).map((job) => job.payload)).toEqual([
        { stockId: stock.id, offerId: product.id },
      ]);
      expect((await getOne(product.id)).body.stock).toBeNull();

      // No stock left: nothing to delete, nothing published.
      const again = await patch({ offerId: product.id, stock: null });
      expect(again.status).toBe(200);
      expect(await stockDeletedFor(product.id)).toHaveLength(1);

      // A new stock is a new row; the deleted one stays deleted.
      const recreated = await patch({ offerId: product.id, stock: { price: 2000 } });
      expect(recreated.body.stock).toEqual({
        price: 2000,
        bookedQuantity: 0,
        bookingLimitDatetime: null,
        quantity: 'unlimited',
      });
      const rows = await storedStocks(product.id);
      expect(rows.map((row) => [row.id === stock.id, row.isDeleted, row.price])).toEqual([
        [true, true, 1500],
        [false, false, 2000],
      ]);
    });

    it('deletes nothing, and changes nothing else, when a handler of offers.stockDeleted refuses', async () => {
      const product = await created();
      const [stock] = await storedStocks(product.id);
      refuseIn = 'test.stockDeleted';
      try {
        const response = await patch({ offerId: product.id, name: 'Renamed with the deletion', stock: null });
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ global: ['test.stockDeleted refused by a handler'] });
      } finally {
        refuseIn = null;
      }
      expect(await storedStocks(product.id)).toEqual([
        expect.objectContaining({ id: stock.id, isDeleted: false, quantity: 10, price: 1500 }),
      ]);
      expect(await stockDeletedFor(product.id)).toEqual([]);
      expect((await stored(product.id)).name).toBe('Cello rental');
      expect((await getOne(product.id)).body).toEqual(product);
    });
  });

  describe('status', () => {
    it('is ACTIVE with items left, SOLD_OUT without stock or with none left, EXPIRED past the booking limit, INACTIVE when deactivated', async () => {
      const active = await created({ stock: { price: 1000, quantity: 3 } });
      const unlimited = await created({ stock: { price: 1000 } });
      const noStock = await created({ stock: null });
      const bookedOut = await created({ stock: { price: 1000, quantity: 3 } });
      const zeroLeft = await created({ stock: { price: 1000, quantity: 3 } });
      const expiring = await created({
        stock: { price: 1000, quantity: 3, bookingLimitDatetime: '2026-11-22T11:00:00Z' },
      });
      const deactivated = await created({ stock: { price: 1000, quantity: 3 } });
      const deleted = await created({ stock: { price: 1000, quantity: 3 } });
      expect((await getOne(active.id)).body.status).toBe('PENDING');
      await approveAll();

      const [bookedOutStock] = await storedStocks(bookedOut.id);
      await em().nativeUpdate(Stock, bookedOutStock.id, { bookedQuantity: 3 });
      expect((await patch({ offerId: zeroLeft.id, stock: { quantity: 0 } })).body.status).toBe('SOLD_OUT');
      expect((await patch({ offerId: deleted.id, stock: null })).body.status).toBe('SOLD_OUT');

      const statusOf = async (id: number) => (await getOne(id)).body.status;
      expect(await statusOf(active.id)).toBe('ACTIVE');
      expect(await statusOf(unlimited.id)).toBe('ACTIVE');
      expect(await statusOf(noStock.id)).toBe('SOLD_OUT');
      expect(await statusOf(bookedOut.id)).toBe('SOLD_OUT');
      expect((await getOne(bookedOut.id)).body.stock).toMatchObject({ quantity: 0, bookedQuantity: 3 });
      expect(await statusOf(zeroLeft.id)).toBe('SOLD_OUT');
      expect(await statusOf(expiring.id)).toBe('ACTIVE');
      expect(await statusOf(deleted.id)).toBe('SOLD_OUT');

      const [deactivatedStock] = await storedStocks(deactivated.id);
      const inactive = await patch({ offerId: deactivated.id, isActive: false });
      expect(inactive.status).toBe(200);
      expect(inactive.body).toMatchObject({
        status: 'INACTIVE',
        stock: { price: 1000, bookedQuantity: 0, bookingLimitDatetime: null, quantity: 3 },
      });
      expect(await statusOf(deactivated.id)).toBe('INACTIVE');
      expect((await stored(deactivated.id)).isActive).toBe(false);
      expect(await storedStocks(deactivated.id)).toEqual([
        expect.objectContaining({
          id: deactivatedStock.id,
          isDeleted: false,
          quantity: 3,
          price: 1000,
          updatedAt: deactivatedStock.updatedAt,
        }),
      ]);
      expect(await stockDeletedFor(deactivated.id)).toEqual([]);
      expect((await patch({ offerId: deactivated.id, isActive: true })).body.status).toBe('ACTIVE');

      testApp.clock.advance(2 * HOUR);
      try {
        expect(await statusOf(expiring.id)).toBe('EXPIRED');
        expect(await statusOf(active.id)).toBe('ACTIVE');
        const reopened = await patch({ offerId: expiring.id, stock: { bookingLimitDatetime: '2026-12-01T00:00:00Z' } });
        expect(reopened.body.status).toBe('ACTIVE');
      } finally {
        testApp.clock.set(START);
      }
    });

    it('stays PENDING until approved, whatever its stock, and INACTIVE when never published', async () => {
      const pending = await created();
      expect((await patch({ offerId: pending.id, stock: { quantity: 0 } })).body.status).toBe('PENDING');
      const never = await created({ publicationDatetime: null });
      expect(never.publicationDatetime).toBeNull();
      await approveAll();
      expect((await getOne(pending.id)).body.status).toBe('SOLD_OUT');
      expect((await getOne(never.id)).body.status).toBe('INACTIVE');
    });
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { catalogueEntries, type CatalogueEntry } from '../../graphql/offers/eanCatalogue/catalogueData.js';
import { withEanCheckDigit } from '../../graphql/offers/eanCatalogue/ean.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { ProductImport } from '../../graphql/offers/products/ProductImport.js';
import { PRODUCT_IMPORT_JOB } from '../../graphql/offers/products/productImportJob.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import type { DomainEventName } from '../../graphql/shared/domainEvents.js';
import { ForbiddenError } from '../../graphql/shared/errors.js';
import { Job } from '../../platform/jobs/Job.js';
import { type ApiClient, apiClient, expectStatus } from './api.js';
import { createTestApp, type TestApp, type TestAppOptions } from './app.js';
import { drainJobs } from './builders.js';
import { aProvider, createSandbox } from './fixtures.js';

/**
 * The ground the suites of individual offers stand on: an app with the sandbox and a stranger,
 * the bodies they send, and stand-ins for the subgraphs that handle the offers' domain events.
 */

export type Sandbox = Awaited<ReturnType<typeof createSandbox>>;
export type AnotherProvider = Awaited<ReturnType<typeof aProvider>>;

export interface OfferWorld {
  testApp: TestApp;
  /** The sandbox: a provider, its offerer and three venues (theatre, bookshop, digital). */
  sandbox: Sandbox;
  /** A provider of another offerer, with no access to the sandbox's venues. */
  other: AnotherProvider;
  /** The API as the sandbox's key calls it. */
  api: ApiClient;
  /** Where the app stores images, when asked for one. */
  imageDirectory: string | null;
  em(): EntityManager;
  close(): Promise<void>;
}

export interface OfferWorldOptions {
  /** Stores images in a directory of their own, served at http://api.test/images/... */
  images?: boolean;
  env?: Record<string, string>;
  outbound?: TestAppOptions['outbound'];
}

/** An app on a database of its own, with the sandbox and another provider. */
export async function anOfferWorld(options: OfferWorldOptions = {}): Promise<OfferWorld> {
  const imageDirectory = options.images ? await mkdtemp(join(tmpdir(), 'offer-images-')) : null;
  const testApp = await createTestApp({
    env: {
      ...(imageDirectory ? { IMAGE_DIRECTORY: imageDirectory, PUBLIC_URL: 'http://api.test' } : {}),
      ...options.env,
    },
    outbound: options.outbound,
  });
  const em = () => testApp.database.orm.em.fork();
  const sandbox = await createSandbox(em(), testApp.clock, 'test');
  const other = await aProvider(em(), testApp.clock);
  return {
    testApp,
    sandbox,
    other,
    api: apiClient(testApp.app, sandbox.apiKey),
    imageDirectory,
    em,
    async close() {
      await testApp.close();
      if (imageDirectory) await rm(imageDirectory, { recursive: true, force: true });
    },
  };
}

/** The world of a suite, built before its tests and closed after them. */
export type SuiteWorld = Omit<OfferWorld, 'close'>;

/**
 * An offer world for the suite (the describe) it is called in: registers the hooks that build it
 * before the suite's tests and close it after them. Read its fields inside tests and hooks only.
 */
export function useOfferWorld(options: OfferWorldOptions | (() => OfferWorldOptions) = {}): SuiteWorld {
  let built: OfferWorld | undefined;
  const world = () => {
    if (!built) throw new Error('The world is built in beforeAll: read it inside a test or a hook');
    return built;
  };
  beforeAll(async () => {
    built = await anOfferWorld(typeof options === 'function' ? options() : options);
  });
  afterAll(() => built?.close());
  return {
    get testApp() {
      return world().testApp;
    },
    get sandbox() {
      return world().sandbox;
    },
    get other() {
      return world().other;
    },
    get api() {
      return world().api;
    },
    get imageDirectory() {
      return world().imageDirectory;
    },
    em: () => world().em(),
  };
}

/**
 * An offer list filtered by a venue its key does not reach (`foreignKey` on `venueId`), or by
 * no venue at all, answers 404, not an empty page.
 */
export async function expectVenueOutOfReach(
  list: (query: { venueId: number }, key?: string) => Promise<{ status: number; body: unknown }>,
  venueId: number,
  foreignKey: string,
): Promise<void> {
  const notFound = { global: ['Venue not found'] };
  const foreign = await list({ venueId }, foreignKey);
  expect([foreign.status, foreign.body]).toEqual([404, notFound]);
  const unknown = await list({ venueId: 999999 });
  expect([unknown.status, unknown.body]).toEqual([404, notFound]);
}

/** Another key of the sandbox's provider and offerer: a budget of its own under the rate limit. */
export async function anotherSandboxKey(world: Pick<OfferWorld, 'testApp' | 'sandbox' | 'em'>): Promise<string> {
  const fork = world.em();
  const { key } = issueApiKey(fork, world.testApp.clock, {
    env: 'test',
    provider: fork.getReference(Provider, world.sandbox.provider.id),
    offerer: fork.getReference(Offerer, world.sandbox.offerer.id),
  });
  await fork.flush();
  return key;
}

/** A new provider linked to one of the sandbox's venues, with a key on the sandbox's offerer. */
export async function anotherProviderAt(
  world: Pick<OfferWorld, 'testApp' | 'sandbox' | 'em'>,
  venueId: number,
): Promise<{ providerId: number; key: string }> {
  const fork = world.em();
  const added = await aProvider(fork, world.testApp.clock, { name: 'Second Ticketing' });
  fork.create(VenueProvider, {
    venue: venueId,
    provider: added.provider.id,
    isActive: true,
    createdAt: world.testApp.clock.now(),
  });
  const { key } = issueApiKey(fork, world.testApp.clock, {
    env: 'test',
    provider: fork.getReference(Provider, added.provider.id),
    offerer: fork.getReference(Offerer, world.sandbox.offerer.id),
  });
  await fork.flush();
  return { providerId: added.provider.id, key };
}

/** Runs `during` while the provider may not manage individual offers, and gives the right back. */
export async function withoutIndividualOffersRight<T>(
  testApp: TestApp,
  providerId: number,
  during: () => Promise<T>,
): Promise<T> {
  // Through the entity, as the CLI changes it, so that the processes' key caches hear of it.
  const setRight = async (value: boolean) => {
    const em = testApp.database.orm.em.fork();
    const provider = await em.findOneOrFail(Provider, providerId);
    provider.canManageIndividualOffers = value;
    await em.flush();
  };
  await setRight(false);
  try {
    return await during();
  } finally {
    await setRight(true);
  }
}

export const NOT_ALLOWED_INDIVIDUAL_OFFERS = { global: ['Your provider is not allowed to manage individual offers'] };

/**
 * Stand-ins for the subgraphs that handle the offers' domain events (bookings): each handler
 * writes a row `{ type, payload }` in the publisher's transaction, and throws after writing it
 * while `refusing` names its row type.
 */
export function standInHandlers(testApp: TestApp, rowTypes: Partial<Record<DomainEventName, string>>) {
  let refused: string | null = null;
  for (const [name, type] of Object.entries(rowTypes) as [DomainEventName, string][]) {
    testApp.runtime.events.on(name, async (tx: EntityManager, payload: object) => {
      await tx.insert(Job, {
        type,
        payload: JSON.parse(JSON.stringify(payload)),
        status: 'done',
        attempts: 0,
        maxAttempts: 1,
        runAt: testApp.clock.now(),
        createdAt: testApp.clock.now(),
      });
      if (refused === type) throw new ForbiddenError(`${type} refused by a handler`);
    });
  }
  return {
    /** Runs `during` while the handler writing `type` refuses. */
    async refusing<T>(type: string, during: () => Promise<T>): Promise<T> {
      refused = type;
      try {
        return await during();
      } finally {
        refused = null;
      }
    },
    /** The payloads the handler writing `type` received, in order. */
    async payloads(type: string): Promise<Record<string, unknown>[]> {
      const rows = await testApp.database.orm.em.fork().find(Job, { type }, { orderBy: { id: 'asc' } });
      return rows.map((row) => row.payload);
    },
  };
}

export const accessibility = {
  audioDisabilityCompliant: true,
  mentalDisabilityCompliant: false,
  motorDisabilityCompliant: true,
  visualDisabilityCompliant: false,
};

/** A valid body of an event offer (a rock concert) at the venue. */
export const anEventBody = (venueId: number, overrides: Record<string, unknown> = {}) => ({
  name: 'Rock night',
  accessibility,
  categoryRelatedFields: { category: 'CONCERT', musicType: 'ROCK', performer: 'The Demos' },
  location: { type: 'physical', venueId },
  hasTicket: false,
  ...overrides,
});

/** A valid body of a collective offer (a theatre workshop at the school) at the venue. */
export const aCollectiveOfferBody = (venueId: number, overrides: Record<string, unknown> = {}) => ({
  venueId,
  name: 'Atelier théâtre',
  description: 'Une semaine de pratique théâtrale avec une troupe.',
  formats: ['Atelier de pratique'],
  bookingEmails: ['booking@example.com'],
  contactEmail: 'contact@example.com',
  contactPhone: '+33199006328',
  domains: [1],
  students: ['COLLEGE6'],
  location: { type: 'SCHOOL' },
  startDatetime: '2027-01-15T09:00:00.000Z',
  bookingLimitDatetime: '2027-01-05T18:00:00.000Z',
  totalPrice: 650.5,
  numberOfTickets: 30,
  ...overrides,
});

let eanCounter = 0;
/** A valid EAN-13 that no other call of this process made. */
export const nextEan = () => withEanCheckDigit(`97800${String((eanCounter += 1)).padStart(7, '0')}`);
/** The same twelve digits with another last digit: never a valid EAN. */
export const withWrongCheckDigit = (ean: string) => `${ean.slice(0, 12)}${(Number(ean[12]) + 1) % 10}`;

/** A valid body of a product offer (an instrument rental, with a stock) at the venue. */
export const aProductBody = (venueId: number, overrides: Record<string, unknown> = {}) => ({
  name: 'Cello rental',
  accessibility,
  categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean: nextEan() },
  location: { type: 'physical', venueId },
  stock: { price: 1500, quantity: 10 },
  ...overrides,
});

/** An offer's image as it answers it: a PNG with this credit, that the app serves at its URL with these bytes. */
export async function expectServedPng(testApp: TestApp, image: unknown, credit: string | null, bytes: Buffer) {
  expect(image).toEqual({ url: expect.stringMatching(/^http:\/\/api\.test\/images\/[\w-]+\.png$/), credit });
  const served = await request(testApp.app).get(new URL((image as { url: string }).url).pathname);
  expect(served.status).toBe(200);
  expect(served.headers['content-type']).toBe('image/png');
  expect(Buffer.compare(served.body as Buffer, bytes)).toBe(0);
}

let streetNumber = 0;
/** Expects a 422 answer with an issue at `loc`, of `type` when one is given. */
export function expectIssueAt(
  answer: { status: number; body: unknown },
  loc: string[],
  type: string | null,
  label = JSON.stringify(loc),
) {
  expect(answer.status, label).toBe(422);
  const issue = (answer.body as { loc: string[]; type: string }[]).find(
    (entry) => entry.loc.join('.') === loc.join('.'),
  );
  expect(issue, `${label}: ${JSON.stringify(answer.body)}`).toBeDefined();
  if (type) expect(issue!.type, label).toBe(type);
}

/** A new address (the same street twice would be the same address), as the API records it. */
export async function anAddress(api: ApiClient, label = 'Rue des Archives') {
  const answer = await api.call('CreateAddress', {
    body: {
      street: `${(streetNumber += 1)} ${label}`,
      city: 'Paris',
      postalCode: '75004',
      latitude: 48.858,
      longitude: 2.356,
    },
  });
  expectStatus(answer, 200);
  return answer.body;
}

/**
 * The suites of product offers (tests/api/product*.test.ts): a world with images, the stand-in
 * handler of offers.stockDeleted, a fresh key of the sandbox per test (the rate limit runs on
 * real time), and the calls and reads they make. Registers its hooks; read it inside tests.
 */
export function useProductWorld(options: Pick<OfferWorldOptions, 'env'> = {}) {
  const world = useOfferWorld({ images: true, ...options });
  let api: ApiClient;
  let handlers: ReturnType<typeof standInHandlers>;
  beforeAll(() => {
    handlers = standInHandlers(world.testApp, { 'offers.stockDeleted': 'test.stockDeleted' });
  });
  beforeEach(async () => {
    api = apiClient(world.testApp.app, await anotherSandboxKey(world));
  });

  const em = () => world.em();
  const theatre = () => world.sandbox.venues[0].id;
  const bookshop = () => world.sandbox.venues[1].id;
  const online = () => world.sandbox.venues[2].id;
  const post = (body: unknown, key?: string) => api.call('PostProductOffer', { body, key });
  return {
    get testApp() {
      return world.testApp;
    },
    get sandbox() {
      return world.sandbox;
    },
    get other() {
      return world.other;
    },
    get handlers() {
      return handlers;
    },
    em,
    theatre,
    bookshop,
    online,
    /** An instrument rental at the bookshop. */
    aProductBody: (overrides: Record<string, unknown> = {}) => aProductBody(bookshop(), overrides),
    /** A music download, online. */
    aDownloadBody: (overrides: Record<string, unknown> = {}) =>
      aProductBody(bookshop(), {
        name: 'Album download',
        categoryRelatedFields: { category: 'TELECHARGEMENT_MUSIQUE', musicType: 'ROCK', performer: 'The Demos' },
        location: { type: 'digital', venueId: online(), url: 'https://download.example.com/album?token={token}' },
        ...overrides,
      }),
    post,
    patch: (body: unknown, key?: string) => api.call('EditProduct', { body, key }),
    getOne: (id: number | string, key?: string) => api.call('GetProduct', { params: { product_id: id }, key }),
    list: (query: Record<string, string | number> = {}, key?: string) => api.call('GetProducts', { query, key }),
    /** The body of a product created from the instrument rental's body with these changes. */
    created: async (overrides: Record<string, unknown> = {}) => {
      const answer = await post(aProductBody(bookshop(), overrides));
      expectStatus(answer, 201);
      return answer.body;
    },
    anAddress: async () => (await anAddress(api)).id,
    offerCount: () => em().count(Offer, {}),
    stored: (id: number) => em().findOneOrFail(Offer, id),
    /** Every stock row of the offer, deleted ones included, in id order. */
    storedStocks: (offerId: number) => em().find(Stock, { offer: offerId }, { orderBy: { id: 'asc' } }),
    /** The payloads of offers.stockDeleted published for the offer. */
    stockDeletedFor: async (offerId: number) =>
      (await handlers.payloads('test.stockDeleted')).filter((payload) => payload.offerId === offerId),
  };
}

// The sandbox catalogue, sorted by what the EAN operations make of each entry.
const SALEABLE = new Set(['LIVRE_PAPIER', 'SUPPORT_PHYSIQUE_MUSIQUE_CD', 'SUPPORT_PHYSIQUE_MUSIQUE_VINYLE']);
const knownEans = new Set(catalogueEntries.map((entry) => entry.ean));
export const catalogue = {
  books: catalogueEntries.filter((entry) => entry.category === 'LIVRE_PAPIER' && entry.compliant),
  cds: catalogueEntries.filter(
    (entry) =>
      entry.category === 'SUPPORT_PHYSIQUE_MUSIQUE_CD' && entry.compliant && entry.performer && entry.musicType,
  ),
  vinyls: catalogueEntries.filter((entry) => entry.category === 'SUPPORT_PHYSIQUE_MUSIQUE_VINYLE' && entry.compliant),
  /** Entries of a category sold by EAN, and compliant. */
  saleable: catalogueEntries.filter((entry) => SALEABLE.has(entry.category) && entry.compliant),
  /** Entries of a category not sold by EAN. */
  notAllowed: catalogueEntries.filter((entry) => !SALEABLE.has(entry.category)),
  notCompliant: catalogueEntries.filter((entry) => SALEABLE.has(entry.category) && !entry.compliant),
  /** Valid EAN-13s (right check digit) that the catalogue does not know. */
  unknownEans: Array.from({ length: 200 }, (_, index) =>
    withEanCheckDigit(`20${String(index).padStart(10, '0')}`),
  ).filter((ean) => !knownEans.has(ean)),
  isSaleableCategory: (category: string) => SALEABLE.has(category),
};

export interface SentProduct {
  ean: string;
  stock: { price: number; quantity?: number | string | null; bookingLimitDatetime?: string | null };
  publicationDatetime?: string | null;
  bookingAllowedDatetime?: string | null;
}

/** An item of a bulk upsert by EAN: 10 items at 15 euros unless told otherwise. */
export const anItem = (
  entry: CatalogueEntry | string,
  stock: SentProduct['stock'] = { price: 1500, quantity: 10 },
  extra: Partial<SentProduct> = {},
): SentProduct => ({ ean: typeof entry === 'string' ? entry : entry.ean, stock, ...extra });

/**
 * The suites of product offers by EAN (tests/api/productsByEan*.test.ts): a world with the
 * stand-in handler of offers.stockDeleted, a venue of the other provider, fresh venues for each
 * test, and the calls and reads they make. Registers its hooks; read it inside tests.
 */
export function useByEanWorld() {
  const world = useOfferWorld();
  let handlers: ReturnType<typeof standInHandlers>;
  let venueCounter = 0;
  const em = () => world.em();
  const sandboxProvider = () => world.sandbox.provider.id;

  /** A physical venue of an offerer, linked to a provider unless told otherwise: each test gets fresh ground. */
  async function aVenue(
    owner: { offererId: number; providerId: number | null } = {
      offererId: world.sandbox.offerer.id,
      providerId: world.sandbox.provider.id,
    },
  ) {
    const fork = em();
    venueCounter += 1;
    const venue = fork.create(Venue, {
      offerer: owner.offererId,
      legalName: `Test Bookshop ${venueCounter}`,
      publicName: null,
      siret: null,
      siretComment: 'A test venue',
      activityDomain: 'BOOKSTORE',
      isVirtual: false,
      address: null,
      audioDisabilityCompliant: true,
      mentalDisabilityCompliant: false,
      motorDisabilityCompliant: null,
      visualDisabilityCompliant: true,
      createdDatetime: world.testApp.clock.now(),
    });
    if (owner.providerId !== null) {
      fork.create(VenueProvider, {
        venue,
        provider: owner.providerId,
        isActive: true,
        createdAt: world.testApp.clock.now(),
      });
    }
    await fork.flush();
    return venue;
  }

  let otherVenue: Venue;
  beforeAll(async () => {
    otherVenue = await aVenue({ offererId: world.other.offerer.id, providerId: world.other.provider.id });
    handlers = standInHandlers(world.testApp, { 'offers.stockDeleted': 'test.stockDeleted' });
  });

  const imports = (providerId = sandboxProvider()) =>
    em().find(ProductImport, { provider: providerId }, { orderBy: { id: 'asc' } });
  return {
    world,
    ...catalogue,
    /** A venue of the other provider, out of the sandbox's reach. */
    get otherVenue() {
      return otherVenue;
    },
    aVenue,
    em,
    checkAvailability: (eans: string[] | string, key?: string) =>
      world.api.call('CheckEansAvailability', { query: { eans: Array.isArray(eans) ? eans.join(',') : eans }, key }),
    getByEan: (query: Record<string, string | number>, key?: string) =>
      world.api.call('GetProductByEan', { query, key }),
    getProduct: (id: number, key?: string) => world.api.call('GetProduct', { params: { product_id: id }, key }),
    postByEan: (body: unknown) => world.api.call('PostProductOfferByEan', { body }),
    /** A bulk upsert at a physical location. */
    upsert: (venueId: number, products: SentProduct[], key?: string) =>
      world.api.call('PostProductOfferByEan', { body: { location: { type: 'physical', venueId }, products }, key }),
    /** Runs every due job (the imports, then the automatic approvals they schedule). */
    runAllJobs: () => drainJobs(world.testApp),
    imports,
    lastImport: async (providerId = sandboxProvider()) => (await imports(providerId)).at(-1)!,
    importCount: () => em().count(ProductImport, {}),
    importJobOf: async (importId: number) =>
      (await em().find(Job, { type: PRODUCT_IMPORT_JOB }, { orderBy: { id: 'asc' } })).filter(
        (job) => job.payload.importId === importId,
      ),
    offersAt: (venueId: number, providerId = sandboxProvider()) =>
      em().find(Offer, { venue: venueId, provider: providerId }, { orderBy: { id: 'asc' } }),
    offerOf: (venueId: number, ean: string, providerId = sandboxProvider()) =>
      em().findOne(Offer, { venue: venueId, provider: providerId, ean }),
    stocksOf: (offerId: number) => em().find(Stock, { offer: offerId }, { orderBy: { id: 'asc' } }),
    /** The payloads of offers.stockDeleted, in order. */
    deletionEvents: () => handlers.payloads('test.stockDeleted'),
  };
}

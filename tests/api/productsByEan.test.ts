import { beforeAll, describe, expect, it } from 'vitest';
import { catalogueEntries, type CatalogueEntry } from '../../graphql/offers/eanCatalogue/catalogueData.js';
import { withEanCheckDigit } from '../../graphql/offers/eanCatalogue/ean.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { ProductImport } from '../../graphql/offers/products/ProductImport.js';
import { applyProductImportStep, PRODUCT_IMPORT_JOB } from '../../graphql/offers/products/productImportJob.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { Job } from '../../graphql/shared/Job.js';
import { drainJobs } from '../support/builders.js';
import { anEvent } from '../support/fixtures.js';
import {
  anAddress,
  NOT_ALLOWED_INDIVIDUAL_OFFERS,
  standInHandlers,
  useOfferWorld,
  withoutIndividualOffersRight,
  withWrongCheckDigit as wrongCheckDigit,
} from '../support/offerWorld.js';

// The sandbox catalogue, sorted by what the EAN operations make of each entry.
const SALEABLE = new Set(['LIVRE_PAPIER', 'SUPPORT_PHYSIQUE_MUSIQUE_CD', 'SUPPORT_PHYSIQUE_MUSIQUE_VINYLE']);
const books = catalogueEntries.filter((entry) => entry.category === 'LIVRE_PAPIER' && entry.compliant);
const cds = catalogueEntries.filter(
  (entry) => entry.category === 'SUPPORT_PHYSIQUE_MUSIQUE_CD' && entry.compliant && entry.performer && entry.musicType,
);
const vinyls = catalogueEntries.filter(
  (entry) => entry.category === 'SUPPORT_PHYSIQUE_MUSIQUE_VINYLE' && entry.compliant,
);
const saleable = catalogueEntries.filter((entry) => SALEABLE.has(entry.category) && entry.compliant);
const notAllowed = catalogueEntries.filter((entry) => !SALEABLE.has(entry.category));
const notCompliant = catalogueEntries.filter((entry) => SALEABLE.has(entry.category) && !entry.compliant);
const known = new Set(catalogueEntries.map((entry) => entry.ean));
/** Valid EAN-13s (right check digit) that the catalogue does not know. */
const unknownEans = Array.from({ length: 200 }, (_, index) =>
  withEanCheckDigit(`20${String(index).padStart(10, '0')}`),
).filter((ean) => !known.has(ean));

interface SentProduct {
  ean: string;
  stock: { price: number; quantity?: number | string | null; bookingLimitDatetime?: string | null };
  publicationDatetime?: string | null;
  bookingAllowedDatetime?: string | null;
}

describe('Product offers by EAN', () => {
  const world = useOfferWorld();
  let handlers: ReturnType<typeof standInHandlers>;
  let otherVenue: Venue;

  const em = () => world.em();
  const checkAvailability = (eans: string[] | string, key?: string) =>
    world.api.call('CheckEansAvailability', { query: { eans: Array.isArray(eans) ? eans.join(',') : eans }, key });
  const getByEan = (query: Record<string, string | number>, key?: string) =>
    world.api.call('GetProductByEan', { query, key });
  const getProduct = (id: number, key?: string) => world.api.call('GetProduct', { params: { product_id: id }, key });
  const postByEan = (body: unknown) => world.api.call('PostProductOfferByEan', { body });
  const upsert = (venueId: number, products: SentProduct[], key?: string) =>
    world.api.call('PostProductOfferByEan', { body: { location: { type: 'physical', venueId }, products }, key });
  /** Runs every due job (the imports, then the automatic approvals they schedule). */
  const runAllJobs = () => drainJobs(world.testApp);

  const imports = (providerId = world.sandbox.provider.id) =>
    em().find(ProductImport, { provider: providerId }, { orderBy: { id: 'asc' } });
  const lastImport = async (providerId = world.sandbox.provider.id) => (await imports(providerId)).at(-1)!;
  const importCount = () => em().count(ProductImport, {});
  const importJobOf = async (importId: number) =>
    (await em().find(Job, { type: PRODUCT_IMPORT_JOB }, { orderBy: { id: 'asc' } })).filter(
      (job) => job.payload.importId === importId,
    );
  const offersAt = (venueId: number, providerId = world.sandbox.provider.id) =>
    em().find(Offer, { venue: venueId, provider: providerId }, { orderBy: { id: 'asc' } });
  const offerOf = (venueId: number, ean: string, providerId = world.sandbox.provider.id) =>
    em().findOne(Offer, { venue: venueId, provider: providerId, ean });
  const stocksOf = (offerId: number) => em().find(Stock, { offer: offerId }, { orderBy: { id: 'asc' } });
  const deletionEvents = () => handlers.payloads('test.stockDeleted');
  const item = (
    entry: CatalogueEntry | string,
    stock: SentProduct['stock'] = { price: 1500, quantity: 10 },
    extra: Partial<SentProduct> = {},
  ): SentProduct => ({
    ean: typeof entry === 'string' ? entry : entry.ean,
    stock,
    ...extra,
  });

  let venueCounter = 0;
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
    if (owner.providerId !== null)
      fork.create(VenueProvider, {
        venue,
        provider: owner.providerId,
        isActive: true,
        createdAt: world.testApp.clock.now(),
      });
    await fork.flush();
    return venue;
  }

  beforeAll(async () => {
    otherVenue = await aVenue({ offererId: world.other.offerer.id, providerId: world.other.provider.id });
    handlers = standInHandlers(world.testApp, { 'offers.stockDeleted': 'test.stockDeleted' });
  });

  it('uses a catalogue with every kind of entry', () => {
    expect(books.length).toBeGreaterThan(3);
    expect(cds.length).toBeGreaterThan(3);
    expect(vinyls.length).toBeGreaterThan(1);
    expect(notAllowed.length).toBeGreaterThan(1);
    expect(notCompliant.length).toBeGreaterThan(1);
    expect(unknownEans.length).toBeGreaterThan(150);
  });

  describe('GET check_availability', () => {
    it('sorts EANs into available and rejected by reason, each once, in the order given', async () => {
      const wrong = wrongCheckDigit(books[0].ean);
      const eans = [
        books[0].ean,
        notAllowed[0].ean,
        cds[0].ean,
        unknownEans[0],
        notCompliant[0].ean,
        vinyls[0].ean,
        wrong,
        books[0].ean,
        notAllowed[1].ean,
      ];
      const response = await checkAvailability(eans);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        available: [books[0].ean, cds[0].ean, vinyls[0].ean],
        rejected: {
          notFound: [unknownEans[0], wrong],
          subcategoryNotAllowed: [notAllowed[0].ean, notAllowed[1].ean],
          notCompliantWithCgu: [notCompliant[0].ean],
        },
      });
    });

    it('sorts every entry of the catalogue by its category and compliance', async () => {
      const entries = [...catalogueEntries];
      for (let start = 0; start < entries.length; start += 100) {
        const page = entries.slice(start, start + 100);
        const response = await checkAvailability(page.map((entry) => entry.ean));
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          available: page.filter((entry) => SALEABLE.has(entry.category) && entry.compliant).map((entry) => entry.ean),
          rejected: {
            notFound: [],
            subcategoryNotAllowed: page.filter((entry) => !SALEABLE.has(entry.category)).map((entry) => entry.ean),
            notCompliantWithCgu: page
              .filter((entry) => SALEABLE.has(entry.category) && !entry.compliant)
              .map((entry) => entry.ean),
          },
        });
      }
    });

    it('takes 100 EANs, refuses 101, an EAN that is not 13 characters, or none (422)', async () => {
      const hundred = saleable.slice(0, 100).map((entry) => entry.ean);
      const ok = await checkAvailability(hundred);
      expect(ok.status).toBe(200);
      expect(ok.body.available).toEqual(hundred);

      for (const eans of [
        [...hundred, saleable[100].ean],
        [books[0].ean, books[1].ean.slice(0, 12)],
        [`${books[0].ean}0`],
        ['abcdefghijkl'],
        '',
      ]) {
        const response = await checkAvailability(eans);
        expect(response.status, JSON.stringify(eans)).toBe(422);
        expect(response.body[0].loc).toEqual(['eans']);
      }
      const missing = await world.api.call('CheckEansAvailability');
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual([expect.objectContaining({ loc: ['eans'], type: 'missing' })]);
    });

    it('calls 13 characters that are not digits not found', async () => {
      const response = await checkAvailability(['ABCDEFGHIJKLM', books[0].ean]);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        available: [books[0].ean],
        rejected: { notFound: ['ABCDEFGHIJKLM'], subcategoryNotAllowed: [], notCompliantWithCgu: [] },
      });
    });
  });

  describe('POST (bulk upsert)', () => {
    it('records the upsert and its job in one go (204), and the job creates the offers with their stocks', async () => {
      const venue = await aVenue();
      const [book, cd, vinyl] = [books[0], cds[0], vinyls[0]];
      const response = await upsert(venue.id, [
        item(book, { price: 1250, quantity: 5, bookingLimitDatetime: '2026-12-24T18:00:00+01:00' }),
        item(cd, { price: 1999 }),
        item(vinyl, { price: 3000, quantity: null }),
      ]);
      expect(response.status).toBe(204);
      // No body: the contract check of the call holds a 204 to an empty one.
      expect(response.body).toEqual({});

      const recorded = await lastImport();
      expect(recorded).toMatchObject({
        status: 'QUEUED',
        nextIndex: 0,
        createdCount: 0,
        updatedCount: 0,
        stocksDeletedCount: 0,
        rejected: [],
        location: { type: 'physical', venueId: venue.id },
      });
      expect(recorded.items.map((entry) => entry.ean)).toEqual([book.ean, cd.ean, vinyl.ean]);
      const [job] = await importJobOf(recorded.id);
      expect(job).toMatchObject({ status: 'pending', payload: { importId: recorded.id } });
      expect(await offersAt(venue.id)).toEqual([]);

      // One run of the worker claims the import and applies it: the offers wait for review.
      expect((await world.testApp.runtime.worker.runDueJobs()).claimed).toBeGreaterThanOrEqual(1);
      const offers = await offersAt(venue.id);
      expect(offers.map((offer) => offer.ean)).toEqual([book.ean, cd.ean, vinyl.ean]);
      for (const offer of offers) {
        expect(offer).toMatchObject({
          isEvent: false,
          validation: 'PENDING',
          locationType: 'physical',
          enableDoubleBookings: false,
          audioDisabilityCompliant: true,
          mentalDisabilityCompliant: false,
          motorDisabilityCompliant: false,
          visualDisabilityCompliant: true,
          provider: { id: world.sandbox.provider.id },
        });
        expect(offer.publishedAt?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
      }
      expect(offers[0]).toMatchObject({
        name: book.title,
        category: 'LIVRE_PAPIER',
        categoryRelatedFields: { ean: book.ean, author: book.author },
      });
      expect(Object.keys(offers[0].categoryRelatedFields).sort()).toEqual(['author', 'ean']);
      expect(offers[1]).toMatchObject({
        name: cd.title,
        category: 'SUPPORT_PHYSIQUE_MUSIQUE_CD',
        categoryRelatedFields: { ean: cd.ean, author: cd.author, performer: cd.performer, musicType: cd.musicType },
      });
      expect(offers[2]).toMatchObject({ name: vinyl.title, category: 'SUPPORT_PHYSIQUE_MUSIQUE_VINYLE' });

      const stocks = await Promise.all(offers.map((offer) => stocksOf(offer.id)));
      expect(
        stocks.map((list) =>
          list.map((stock) => [
            stock.price,
            stock.quantity,
            stock.bookedQuantity,
            stock.isDeleted,
            stock.bookingLimitDatetime?.toISOString() ?? null,
          ]),
        ),
      ).toEqual([
        [[1250, 5, 0, false, '2026-12-24T17:00:00.000Z']],
        [[1999, null, 0, false, null]],
        [[3000, null, 0, false, null]],
      ]);

      const done = await lastImport();
      expect(done).toMatchObject({
        id: recorded.id,
        status: 'DONE',
        nextIndex: 3,
        createdCount: 3,
        updatedCount: 0,
        stocksDeletedCount: 0,
        rejected: [],
      });
      expect(done.finishedAt?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
      expect((await importJobOf(recorded.id))[0].status).toBe('done');

      // The sandbox approves them automatically; the API then shows them on sale.
      await runAllJobs();
      const read = await getProduct(offers[0].id);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        id: offers[0].id,
        name: book.title,
        status: 'ACTIVE',
        location: { type: 'physical', venueId: venue.id },
        categoryRelatedFields: { category: 'LIVRE_PAPIER', ean: book.ean, author: book.author },
        accessibility: {
          audioDisabilityCompliant: true,
          mentalDisabilityCompliant: false,
          motorDisabilityCompliant: false,
          visualDisabilityCompliant: true,
        },
        publicationDatetime: '2026-11-22T10:00:00.000Z',
        stock: { price: 1250, quantity: 5, bookedQuantity: 0, bookingLimitDatetime: '2026-12-24T17:00:00.000Z' },
      });
      expect((await getProduct(offers[1].id)).body.stock).toEqual({
        price: 1999,
        quantity: 'unlimited',
        bookedQuantity: 0,
        bookingLimitDatetime: null,
      });
    });

    it('schedules a new offer for a future publication datetime', async () => {
      const venue = await aVenue();
      expect(
        (await upsert(venue.id, [item(books[1], undefined, { publicationDatetime: '2026-12-01T09:00:00+01:00' })]))
          .status,
      ).toBe(204);
      await runAllJobs();
      const offer = (await offerOf(venue.id, books[1].ean))!;
      expect(offer.publishedAt).toBeNull();
      expect(offer.publicationDatetime?.toISOString()).toBe('2026-12-01T08:00:00.000Z');
      expect((await getProduct(offer.id)).body.status).toBe('SCHEDULED');
    });

    it('skips and records the items the catalogue rejects, and applies the others', async () => {
      const venue = await aVenue();
      const wrong = wrongCheckDigit(books[2].ean);
      const response = await upsert(venue.id, [
        item(wrong),
        item(books[2]),
        item(unknownEans[1]),
        item(notAllowed[0]),
        item(notCompliant[0]),
        item(cds[1]),
        item('ABCDEFGHIJKLM'),
      ]);
      expect(response.status).toBe(204);
      await runAllJobs();
      expect(await lastImport()).toMatchObject({
        status: 'DONE',
        nextIndex: 7,
        createdCount: 2,
        updatedCount: 0,
        rejected: [
          { ean: wrong, reason: 'invalidEan' },
          { ean: unknownEans[1], reason: 'notFound' },
          { ean: notAllowed[0].ean, reason: 'subcategoryNotAllowed' },
          { ean: notCompliant[0].ean, reason: 'notCompliantWithCgu' },
          { ean: 'ABCDEFGHIJKLM', reason: 'invalidEan' },
        ],
      });
      expect((await offersAt(venue.id)).map((offer) => offer.ean)).toEqual([books[2].ean, cds[1].ean]);
    });

    it('applies 500 items in steps of 100, each committed with its progress, and resumes after a step', async () => {
      const venue = await aVenue();
      // 500 distinct EANs: every saleable product of the catalogue, then rejected ones.
      const rejectedEans = [
        ...notAllowed.map((entry) => entry.ean),
        ...notCompliant.map((entry) => entry.ean),
        ...saleable.slice(0, 50).map((entry) => wrongCheckDigit(entry.ean)),
        ...unknownEans,
      ];
      const eans = [...saleable.map((entry) => entry.ean), ...rejectedEans].slice(0, 500);
      expect(new Set(eans).size).toBe(500);
      const tooMany = await upsert(
        venue.id,
        [...eans, unknownEans[unknownEans.length - 1]].map((ean) => item(ean, { price: 800, quantity: 2 })),
      );
      expect(tooMany.status).toBe(422);
      expect(tooMany.body).toEqual([expect.objectContaining({ loc: ['products'], type: 'too_long' })]);

      const response = await upsert(
        venue.id,
        eans.map((ean) => item(ean, { price: 800, quantity: 2 })),
      );
      expect(response.status).toBe(204);
      const recorded = await lastImport();
      expect(recorded.items).toHaveLength(500);

      // One step, as the worker runs it: the first 100 items in one transaction, with the progress.
      const fork = em();
      const more = await fork.transactional((tx) =>
        applyProductImportStep(
          { em: tx, clock: world.testApp.clock, events: world.testApp.runtime.events, autoApprovalDelayMs: 0 },
          recorded.id,
        ),
      );
      expect(more).toBe(true);
      const afterOneStep = await lastImport();
      expect(afterOneStep).toMatchObject({ status: 'RUNNING', nextIndex: 100, createdCount: 100, updatedCount: 0 });
      expect(await em().count(Offer, { venue: venue.id })).toBe(100);

      // The worker takes the job up where that step stopped, and runs the four steps left.
      await world.testApp.runtime.worker.runDueJobs();
      const done = await lastImport();
      const firstRejected = saleable.length;
      expect(done).toMatchObject({
        status: 'DONE',
        nextIndex: 500,
        createdCount: saleable.length,
        updatedCount: 0,
        stocksDeletedCount: 0,
      });
      expect(done.rejected).toHaveLength(500 - saleable.length);
      expect(done.rejected.slice(0, notAllowed.length)).toEqual(
        notAllowed.map((entry) => ({ ean: entry.ean, reason: 'subcategoryNotAllowed' })),
      );
      expect(done.rejected.map((rejection) => rejection.ean)).toEqual(eans.slice(firstRejected));
      expect(new Set(done.rejected.map((rejection) => rejection.reason))).toEqual(
        new Set(['subcategoryNotAllowed', 'notCompliantWithCgu', 'invalidEan', 'notFound']),
      );
      const jobs = await importJobOf(recorded.id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ status: 'done', lastError: null });

      expect(await em().count(Offer, { venue: venue.id })).toBe(saleable.length);
      expect(await em().count(Stock, { offer: { venue: venue.id }, isDeleted: false, price: 800, quantity: 2 })).toBe(
        saleable.length,
      );
      const stored = await offersAt(venue.id);
      expect(stored.map((offer) => offer.ean).sort()).toEqual(saleable.map((entry) => entry.ean).sort());
      // The automatic approvals the steps scheduled, one per created offer.
      await runAllJobs();
      expect(await em().count(Offer, { venue: venue.id, validation: 'APPROVED' })).toBe(saleable.length);
    }, 60_000);

    it('updates an existing offer and its stock: the quantity sent is what is still on sale, booked items come on top', async () => {
      const venue = await aVenue();
      await upsert(venue.id, [
        item(books[3], { price: 1000, quantity: 10 }),
        item(cds[2], { price: 1500, quantity: 4 }),
      ]);
      await runAllJobs();
      const offer = (await offerOf(venue.id, books[3].ean))!;
      const [stock] = await stocksOf(offer.id);
      await em().nativeUpdate(Stock, stock.id, { bookedQuantity: 3 });
      expect((await getProduct(offer.id)).body.stock).toMatchObject({ quantity: 7, bookedQuantity: 3 });

      world.testApp.clock.advance(60_000);
      try {
        const response = await upsert(venue.id, [
          item(books[3], { price: 1200, quantity: 10, bookingLimitDatetime: '2026-12-31T23:00:00Z' }),
        ]);
        expect(response.status).toBe(204);
        await runAllJobs();
      } finally {
        world.testApp.clock.advance(-60_000);
      }
      expect(await lastImport()).toMatchObject({ status: 'DONE', createdCount: 0, updatedCount: 1 });
      const offers = await offersAt(venue.id);
      expect(offers.map((entry) => entry.id)).toContain(offer.id);
      expect(offers).toHaveLength(2);
      const updated = await em().findOneOrFail(Offer, offer.id);
      expect(updated.updatedAt.toISOString()).toBe('2026-11-22T10:01:00.000Z');
      expect(updated.publishedAt?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
      const stocks = await stocksOf(offer.id);
      expect(
        stocks.map((entry) => [entry.id, entry.price, entry.quantity, entry.bookedQuantity, entry.isDeleted]),
      ).toEqual([[stock.id, 1200, 13, 3, false]]);
      expect((await getProduct(offer.id)).body.stock).toEqual({
        price: 1200,
        quantity: 10,
        bookedQuantity: 3,
        bookingLimitDatetime: '2026-12-31T23:00:00.000Z',
      });

      await upsert(venue.id, [item(books[3], { price: 1200, quantity: 'unlimited' })]);
      await runAllJobs();
      expect((await stocksOf(offer.id)).map((entry) => entry.quantity)).toEqual([null]);
      expect((await getProduct(offer.id)).body.stock).toMatchObject({ quantity: 'unlimited', bookedQuantity: 3 });
    });

    it('deletes the stock with a quantity of 0 and publishes offers.stockDeleted in the step; a later quantity puts a new stock on sale', async () => {
      const venue = await aVenue();
      await upsert(venue.id, [item(books[4]), item(books[5])]);
      await runAllJobs();
      const offer = (await offerOf(venue.id, books[4].ean))!;
      const kept = (await offerOf(venue.id, books[5].ean))!;
      const [stock] = await stocksOf(offer.id);

      expect(
        (await upsert(venue.id, [item(books[4], { price: 1500, quantity: 0 }), item(books[5], { price: 900 })])).status,
      ).toBe(204);
      await runAllJobs();
      expect(await lastImport()).toMatchObject({
        status: 'DONE',
        createdCount: 0,
        updatedCount: 2,
        stocksDeletedCount: 1,
      });
      expect((await stocksOf(offer.id)).map((entry) => [entry.id, entry.isDeleted])).toEqual([[stock.id, true]]);
      expect((await stocksOf(kept.id)).map((entry) => [entry.price, entry.isDeleted])).toEqual([[900, false]]);
      expect((await deletionEvents()).filter((payload) => payload.offerId === offer.id)).toEqual([
        { stockId: stock.id, offerId: offer.id },
      ]);
      const read = await getProduct(offer.id);
      expect(read.body.stock).toBeNull();
      expect(read.body.status).toBe('SOLD_OUT');

      // Deleting again deletes nothing and publishes nothing.
      await upsert(venue.id, [item(books[4], { price: 1500, quantity: 0 })]);
      await runAllJobs();
      expect(await lastImport()).toMatchObject({ updatedCount: 1, stocksDeletedCount: 0 });
      expect((await deletionEvents()).filter((payload) => payload.offerId === offer.id)).toHaveLength(1);

      await upsert(venue.id, [item(books[4], { price: 1700, quantity: 3 })]);
      await runAllJobs();
      const stocks = await stocksOf(offer.id);
      expect(stocks.map((entry) => [entry.price, entry.quantity, entry.isDeleted])).toEqual([
        [1500, 10, true],
        [1700, 3, false],
      ]);
      expect((await getProduct(offer.id)).body.stock).toMatchObject({ price: 1700, quantity: 3, bookedQuantity: 0 });
    });

    it('makes one offer of an EAN given twice in one request, with the later stock', async () => {
      const venue = await aVenue();
      const response = await upsert(venue.id, [
        item(cds[3], { price: 1000, quantity: 5 }),
        item(books[6]),
        item(cds[3], { price: 2000, quantity: 8 }),
      ]);
      expect(response.status).toBe(204);
      await runAllJobs();
      const offers = (await offersAt(venue.id)).filter((offer) => offer.ean === cds[3].ean);
      expect(offers).toHaveLength(1);
      expect(await lastImport()).toMatchObject({ status: 'DONE', createdCount: 2 });
      const live = (await stocksOf(offers[0].id)).filter((stock) => !stock.isDeleted);
      expect(live.map((stock) => [stock.price, stock.quantity])).toEqual([[2000, 8]]);
      expect((await getProduct(offers[0].id)).body.stock).toMatchObject({ price: 2000, quantity: 8 });
    });

    it('leaves nothing on sale when a new EAN is given twice in one request, the later with a quantity of 0', async () => {
      const venue = await aVenue();
      expect(
        (
          await upsert(venue.id, [
            item(cds[6], { price: 1000, quantity: 5 }),
            item(cds[6], { price: 1000, quantity: 0 }),
          ])
        ).status,
      ).toBe(204);
      await runAllJobs();
      const offers = (await offersAt(venue.id)).filter((offer) => offer.ean === cds[6].ean);
      expect(offers).toHaveLength(1);
      expect((await stocksOf(offers[0].id)).filter((stock) => !stock.isDeleted)).toEqual([]);
      expect((await getProduct(offers[0].id)).body.stock).toBeNull();
    });

    it('makes one offer of an existing EAN given twice in one request, with the later stock', async () => {
      const venue = await aVenue();
      await upsert(venue.id, [item(cds[4], { price: 1000, quantity: 5 })]);
      await runAllJobs();
      const offer = (await offerOf(venue.id, cds[4].ean))!;
      await upsert(venue.id, [item(cds[4], { price: 1100, quantity: 6 }), item(cds[4], { price: 1200, quantity: 7 })]);
      await runAllJobs();
      expect((await offersAt(venue.id)).map((entry) => entry.id)).toEqual([offer.id]);
      const live = (await stocksOf(offer.id)).filter((stock) => !stock.isDeleted);
      expect(live.map((stock) => [stock.price, stock.quantity])).toEqual([[1200, 7]]);
    });

    it('creates the offers at an address location', async () => {
      const venue = await aVenue();
      const address = await anAddress(world.api);
      const location = {
        type: 'address',
        venueId: venue.id,
        addressId: address.id,
        addressLabel: 'Book fair stand',
      };
      expect((await postByEan({ location, products: [item(books[11])] })).status).toBe(204);
      await runAllJobs();
      const offer = (await offerOf(venue.id, books[11].ean))!;
      expect((await getProduct(offer.id)).body.location).toEqual(location);

      const before = await importCount();
      const unknown = await postByEan({
        location: { ...location, addressId: 999999 },
        products: [item(books[11])],
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ global: ['Address not found'] });
      expect(await importCount()).toBe(before);
    });

    it('answers 404 for a venue the key cannot reach, and records nothing', async () => {
      const before = await importCount();
      const notLinked = await aVenue({ offererId: world.sandbox.offerer.id, providerId: null });
      for (const venueId of [otherVenue.id, notLinked.id, 999999]) {
        const response = await upsert(venueId, [item(books[0])]);
        expect(response.status, String(venueId)).toBe(404);
        expect(response.body).toEqual({ global: ['Venue not found'] });
      }
      expect(await importCount()).toBe(before);
    });

    it('refuses a digital location with 400, and records nothing', async () => {
      const before = await importCount();
      const response = await postByEan({
        location: { type: 'digital', venueId: world.sandbox.venues[2].id, url: 'https://shop.example.com/book' },
        products: [item(books[0])],
      });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['location']);
      expect(response.body.location[0]).toMatch(/not online/);
      expect(await importCount()).toBe(before);
    });

    it('refuses a physical location at a digital venue with 400, and records nothing', async () => {
      const before = await importCount();
      const response = await postByEan({
        location: { type: 'physical', venueId: world.sandbox.venues[2].id },
        products: [item(books[0])],
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        location: [`The venue ${world.sandbox.venues[2].id} is digital: it only takes digital locations`],
      });
      expect(await importCount()).toBe(before);
    });

    it('refuses a bad body with 422 (strict, EAN length, price, quantity), and records nothing', async () => {
      const before = await importCount();
      const venueId = world.sandbox.venues[1].id;
      const good = item(books[0]);
      const cases: [unknown, string[], string | null][] = [
        [{ location: { type: 'physical', venueId }, products: [good], surprise: 1 }, ['surprise'], 'extra_forbidden'],
        [
          { location: { type: 'physical', venueId }, products: [good, { ...good, idAtProvider: 'x' }] },
          ['products', '1', 'idAtProvider'],
          'extra_forbidden',
        ],
        [
          { location: { type: 'physical', venueId }, products: [item(books[0].ean.slice(0, 12))] },
          ['products', '0', 'ean'],
          null,
        ],
        [
          { location: { type: 'physical', venueId }, products: [item(`${books[0].ean}1`)] },
          ['products', '0', 'ean'],
          null,
        ],
        [
          { location: { type: 'physical', venueId }, products: [item(books[0], { price: -1 })] },
          ['products', '0', 'stock', 'price'],
          null,
        ],
        [
          { location: { type: 'physical', venueId }, products: [item(books[0], { price: 30001 })] },
          ['products', '0', 'stock', 'price'],
          null,
        ],
        [
          { location: { type: 'physical', venueId }, products: [item(books[0], { price: 10.5 })] },
          ['products', '0', 'stock', 'price'],
          null,
        ],
        [
          { location: { type: 'physical', venueId }, products: [good, item(books[0], { price: 100, quantity: -1 })] },
          ['products', '1', 'stock', 'quantity'],
          null,
        ],
        [
          { location: { type: 'physical', venueId }, products: [item(books[0], { price: 100, quantity: 'lots' })] },
          ['products', '0', 'stock', 'quantity'],
          null,
        ],
        [
          { location: { type: 'physical', venueId }, products: [{ ean: books[0].ean }] },
          ['products', '0', 'stock'],
          'missing',
        ],
        [
          { location: { type: 'physical', venueId }, products: [{ ean: books[0].ean, stock: { quantity: 1 } }] },
          ['products', '0', 'stock', 'price'],
          'missing',
        ],
        [
          {
            location: { type: 'physical', venueId },
            products: [item(books[0], { price: 100, bookingLimitDatetime: '2026-12-24T18:00:00' })],
          },
          ['products', '0', 'stock', 'bookingLimitDatetime'],
          null,
        ],
        [
          {
            location: { type: 'physical', venueId },
            products: [item(books[0], undefined, { publicationDatetime: '2026-11-01T10:00:00Z' })],
          },
          ['products', '0', 'publicationDatetime'],
          'datetime_future',
        ],
        [
          {
            location: { type: 'physical', venueId },
            products: [item(books[0], undefined, { bookingAllowedDatetime: '2026-11-22T09:59:00Z' })],
          },
          ['products', '0', 'bookingAllowedDatetime'],
          'datetime_future',
        ],
        [{ products: [good] }, ['location'], null],
        [{ location: { type: 'physical', venueId } }, ['products'], 'missing'],
      ];
      for (const [body, loc, type] of cases) {
        const response = await postByEan(body);
        expect(response.status, JSON.stringify(loc)).toBe(422);
        const issue = response.body.find((entry: { loc: string[] }) => entry.loc.join('.') === loc.join('.'));
        expect(issue, `${JSON.stringify(loc)}: ${JSON.stringify(response.body)}`).toBeDefined();
        if (type) expect(issue.type).toBe(type);
      }
      expect(await importCount()).toBe(before);

      // The edges are fine: price 0 and 30000, quantity 0, an empty list of products.
      for (const products of [[item(books[0], { price: 0 }), item(books[1], { price: 30000, quantity: 0 })], []]) {
        expect((await upsert(venueId, products)).status).toBe(204);
      }
      expect(await importCount()).toBe(before + 2);
      await runAllJobs();
    });

    it("keeps providers apart: another provider's upsert of the same EAN at its own venue creates its own offer", async () => {
      const venue = await aVenue();
      const ean = books[7].ean;
      await upsert(venue.id, [item(ean, { price: 1000, quantity: 5 })]);
      await runAllJobs();
      const mine = (await offerOf(venue.id, ean))!;

      expect((await upsert(otherVenue.id, [item(ean, { price: 2500, quantity: 1 })], world.other.apiKey)).status).toBe(
        204,
      );
      await runAllJobs();
      expect(await lastImport(world.other.provider.id)).toMatchObject({
        status: 'DONE',
        createdCount: 1,
        updatedCount: 0,
      });
      const theirs = (await offerOf(otherVenue.id, ean, world.other.provider.id))!;
      expect(theirs.id).not.toBe(mine.id);
      expect(theirs).toMatchObject({
        name: books[7].title,
        provider: { id: world.other.provider.id },
        venue: { id: otherVenue.id },
      });
      expect((await stocksOf(theirs.id)).map((stock) => [stock.price, stock.quantity])).toEqual([[2500, 1]]);
      expect((await stocksOf(mine.id)).map((stock) => [stock.price, stock.quantity])).toEqual([[1000, 5]]);

      // Neither sees the other's offer, nor its venue.
      expect(
        (await getByEan({ eans: ean, venueId: otherVenue.id }, world.other.apiKey)).body.products.map(
          (p: { id: number }) => p.id,
        ),
      ).toEqual([theirs.id]);
      expect((await getByEan({ eans: ean, venueId: venue.id })).body.products.map((p: { id: number }) => p.id)).toEqual(
        [mine.id],
      );
      expect((await getByEan({ eans: ean, venueId: venue.id }, world.other.apiKey)).status).toBe(404);
      expect((await getProduct(theirs.id)).status).toBe(404);
      expect((await getProduct(mine.id, world.other.apiKey)).status).toBe(404);
    });
  });

  describe('GET by EAN', () => {
    it("lists the key's provider's product offers at the venue with these EANs, in id order", async () => {
      const venue = await aVenue();
      const elsewhere = await aVenue();
      const wanted = [cds[5], books[8], vinyls[1]];
      await upsert(venue.id, [...wanted.map((entry) => item(entry, { price: 1100, quantity: 2 })), item(books[9])]);
      await upsert(elsewhere.id, [item(books[8])]);
      await runAllJobs();
      // An event at the venue is never a product, even with an EAN that the query names.
      await anEvent(
        em(),
        world.testApp.clock,
        { providerId: world.sandbox.provider.id, venueId: venue.id },
        { ean: books[10].ean },
      );
      const ids = (await offersAt(venue.id))
        .filter((offer) => offer.ean !== books[9].ean && !offer.isEvent)
        .map((offer) => offer.id);
      expect(ids).toHaveLength(3);

      const query = [vinyls[1].ean, books[8].ean, unknownEans[2], cds[5].ean, books[10].ean, books[8].ean].join(',');
      const response = await getByEan({ eans: query, venueId: venue.id });
      expect(response.status).toBe(200);
      expect(response.body.products.map((product: { id: number }) => product.id)).toEqual(ids);
      expect(response.body.products[0]).toMatchObject({
        name: cds[5].title,
        categoryRelatedFields: { category: 'SUPPORT_PHYSIQUE_MUSIQUE_CD', ean: cds[5].ean },
        location: { type: 'physical', venueId: venue.id },
        stock: { price: 1100, quantity: 2, bookedQuantity: 0, bookingLimitDatetime: null },
      });
      const read = await getProduct(ids[0]);
      expect(response.body.products[0]).toEqual(read.body);

      expect((await getByEan({ eans: unknownEans[2], venueId: venue.id })).body).toEqual({ products: [] });
      expect((await getByEan({ eans: books[8].ean, venueId: world.sandbox.venues[0].id })).body).toEqual({
        products: [],
      });
    });

    it('refuses a missing parameter, 101 EANs, a wrong length or a wrong check digit (422)', async () => {
      const venueId = world.sandbox.venues[1].id;
      const hundred = saleable
        .slice(0, 100)
        .map((entry) => entry.ean)
        .join(',');
      expect((await getByEan({ eans: hundred, venueId: venueId })).status).toBe(200);
      const cases: [Record<string, string | number>, string[], string | null][] = [
        [{ venueId }, ['eans'], 'missing'],
        [{ eans: books[0].ean }, ['venueId'], 'missing'],
        [{ eans: books[0].ean, venueId: 'abc' }, ['venueId'], null],
        [{ eans: books[0].ean, venueId: 0 }, ['venueId'], null],
        [{ eans: `${hundred},${saleable[100].ean}`, venueId }, ['eans'], null],
        [{ eans: `${books[0].ean},123`, venueId }, ['eans'], null],
        [{ eans: `${books[0].ean},${wrongCheckDigit(books[1].ean)}`, venueId }, ['eans', '1'], 'ean_check_digit'],
        [{ eans: 'ABCDEFGHIJKLM', venueId }, ['eans', '0'], 'ean_check_digit'],
      ];
      for (const [query, loc, type] of cases) {
        const response = await getByEan(query);
        expect(response.status, JSON.stringify(query)).toBe(422);
        const issue = response.body.find((entry: { loc: string[] }) => entry.loc.join('.') === loc.join('.'));
        expect(issue, `${JSON.stringify(query)}: ${JSON.stringify(response.body)}`).toBeDefined();
        if (type) expect(issue.type).toBe(type);
      }
    });

    it('answers 404 for a venue the key cannot reach', async () => {
      const notLinked = await aVenue({ offererId: world.sandbox.offerer.id, providerId: null });
      for (const venueId of [otherVenue.id, notLinked.id, 999999]) {
        const response = await getByEan({ eans: books[0].ean, venueId: venueId });
        expect(response.status, String(venueId)).toBe(404);
        expect(response.body).toEqual({ global: ['Venue not found'] });
      }
    });
  });

  it('answers 403 on all three to a provider that may no longer manage individual offers, and records nothing', async () => {
    const before = await importCount();
    await withoutIndividualOffersRight(world.testApp, world.sandbox.provider.id, async () => {
      for (const response of [
        await checkAvailability([books[0].ean]),
        await getByEan({ eans: books[0].ean, venueId: world.sandbox.venues[1].id }),
        await upsert(world.sandbox.venues[1].id, [item(books[0])]),
      ]) {
        expect(response.status).toBe(403);
        expect(response.body).toEqual(NOT_ALLOWED_INDIVIDUAL_OFFERS);
      }
    });
    expect(await importCount()).toBe(before);
  });
});

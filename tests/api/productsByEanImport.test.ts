import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { Offer } from '../../graphql/offers/Offer.js';
import { applyProductImportStep } from '../../graphql/offers/products/productImportJob.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { anAddress, anItem, expectIssueAt, useByEanWorld, withWrongCheckDigit } from '../support/offerWorld.js';

describe('Product offers by EAN: the bulk upsert (POST)', () => {
  const byEan = useByEanWorld();
  const { books, cds, vinyls, saleable, notAllowed, notCompliant, unknownEans } = byEan;
  const {
    world,
    aVenue,
    em,
    getByEan,
    getProduct,
    postByEan,
    upsert,
    runAllJobs,
    lastImport,
    importCount,
    importJobOf,
    offersAt,
    offerOf,
    stocksOf,
    deletionEvents,
  } = byEan;

  it('records the upsert and its job in one go (204), and the job creates the offers with their stocks', async () => {
    const venue = await aVenue();
    const [book, cd, vinyl] = [books[0], cds[0], vinyls[0]];
    const response = await upsert(venue.id, [
      anItem(book, { price: 1250, quantity: 5, bookingLimitDatetime: '2026-12-24T18:00:00+01:00' }),
      anItem(cd, { price: 1999 }),
      anItem(vinyl, { price: 3000, quantity: null }),
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

    // One run of the worker claims the import and applies it: with no approval delay, the step approves its offers.
    expect((await world.testApp.runtime.worker.runDueJobs()).claimed).toBeGreaterThanOrEqual(1);
    const offers = await offersAt(venue.id);
    expect(offers.map((offer) => offer.ean)).toEqual([book.ean, cd.ean, vinyl.ean]);
    for (const offer of offers) {
      expect(offer).toMatchObject({
        isEvent: false,
        validation: 'APPROVED',
        validationReason: 'Approved automatically outside production',
        locationType: 'physical',
        enableDoubleBookings: false,
        // The venue's flags, copied as they are: its motor accessibility is unknown.
        audioDisabilityCompliant: true,
        mentalDisabilityCompliant: false,
        motorDisabilityCompliant: null,
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
        motorDisabilityCompliant: null,
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
      (await upsert(venue.id, [anItem(books[1], undefined, { publicationDatetime: '2026-12-01T09:00:00+01:00' })]))
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
    const wrong = withWrongCheckDigit(books[2].ean);
    const response = await upsert(venue.id, [
      anItem(wrong),
      anItem(books[2]),
      anItem(unknownEans[1]),
      anItem(notAllowed[0]),
      anItem(notCompliant[0]),
      anItem(cds[1]),
      anItem('ABCDEFGHIJKLM'),
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
      ...saleable.slice(0, 50).map((entry) => withWrongCheckDigit(entry.ean)),
      ...unknownEans,
    ];
    const eans = [...saleable.map((entry) => entry.ean), ...rejectedEans].slice(0, 500);
    expect(new Set(eans).size).toBe(500);
    const tooMany = await upsert(
      venue.id,
      [...eans, unknownEans[unknownEans.length - 1]].map((ean) => anItem(ean, { price: 800, quantity: 2 })),
    );
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toEqual([expect.objectContaining({ loc: ['products'], type: 'too_long' })]);

    const response = await upsert(
      venue.id,
      eans.map((ean) => anItem(ean, { price: 800, quantity: 2 })),
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
    expect(await em().count(Offer, { venue: venue.id, validation: 'APPROVED' })).toBe(100);

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
      anItem(books[3], { price: 1000, quantity: 10 }),
      anItem(cds[2], { price: 1500, quantity: 4 }),
    ]);
    await runAllJobs();
    const offer = (await offerOf(venue.id, books[3].ean))!;
    const [stock] = await stocksOf(offer.id);
    await em().nativeUpdate(Stock, stock.id, { bookedQuantity: 3 });
    expect((await getProduct(offer.id)).body.stock).toMatchObject({ quantity: 10, bookedQuantity: 3 });

    world.testApp.clock.advance(60_000);
    try {
      const response = await upsert(venue.id, [
        anItem(books[3], { price: 1200, quantity: 10, bookingLimitDatetime: '2026-12-31T23:00:00Z' }),
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
      quantity: 13,
      bookedQuantity: 3,
      bookingLimitDatetime: '2026-12-31T23:00:00.000Z',
    });

    // An upsert replaces the stock's fields: a booking limit left out is removed.
    await upsert(venue.id, [anItem(books[3], { price: 1200, quantity: 'unlimited' })]);
    await runAllJobs();
    expect((await stocksOf(offer.id)).map((entry) => [entry.quantity, entry.bookingLimitDatetime])).toEqual([
      [null, null],
    ]);
    expect((await getProduct(offer.id)).body.stock).toEqual({
      price: 1200,
      quantity: 'unlimited',
      bookedQuantity: 3,
      bookingLimitDatetime: null,
    });
  });

  it('deletes the stock with a quantity of 0 and publishes offers.stockDeleted in the step; a later quantity puts a new stock on sale', async () => {
    const venue = await aVenue();
    await upsert(venue.id, [anItem(books[4]), anItem(books[5])]);
    await runAllJobs();
    const offer = (await offerOf(venue.id, books[4].ean))!;
    const kept = (await offerOf(venue.id, books[5].ean))!;
    const [stock] = await stocksOf(offer.id);

    expect(
      (await upsert(venue.id, [anItem(books[4], { price: 1500, quantity: 0 }), anItem(books[5], { price: 900 })]))
        .status,
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
      { stockId: stock.id, offerId: offer.id, at: world.testApp.clock.now().toISOString() },
    ]);
    const read = await getProduct(offer.id);
    expect(read.body.stock).toBeNull();
    expect(read.body.status).toBe('SOLD_OUT');

    // Deleting again deletes nothing and publishes nothing.
    await upsert(venue.id, [anItem(books[4], { price: 1500, quantity: 0 })]);
    await runAllJobs();
    expect(await lastImport()).toMatchObject({ updatedCount: 1, stocksDeletedCount: 0 });
    expect((await deletionEvents()).filter((payload) => payload.offerId === offer.id)).toHaveLength(1);

    await upsert(venue.id, [anItem(books[4], { price: 1700, quantity: 3 })]);
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
      anItem(cds[3], { price: 1000, quantity: 5 }),
      anItem(books[6]),
      anItem(cds[3], { price: 2000, quantity: 8 }),
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
          anItem(cds[6], { price: 1000, quantity: 5 }),
          anItem(cds[6], { price: 1000, quantity: 0 }),
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
    await upsert(venue.id, [anItem(cds[4], { price: 1000, quantity: 5 })]);
    await runAllJobs();
    const offer = (await offerOf(venue.id, cds[4].ean))!;
    await upsert(venue.id, [
      anItem(cds[4], { price: 1100, quantity: 6 }),
      anItem(cds[4], { price: 1200, quantity: 7 }),
    ]);
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
    expect((await postByEan({ location, products: [anItem(books[11])] })).status).toBe(204);
    await runAllJobs();
    const offer = (await offerOf(venue.id, books[11].ean))!;
    expect((await getProduct(offer.id)).body.location).toEqual(location);

    const before = await importCount();
    const unknown = await postByEan({
      location: { ...location, addressId: 999999 },
      products: [anItem(books[11])],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ global: ['Address not found'] });
    expect(await importCount()).toBe(before);
  });

  it('answers 404 for a venue the key cannot reach, and records nothing', async () => {
    const before = await importCount();
    const notLinked = await aVenue({ offererId: world.sandbox.offerer.id, providerId: null });
    // A venue whose link to the provider is no longer active is out of reach too.
    const inactiveLink = await aVenue();
    await em().nativeUpdate(VenueProvider, { venue: inactiveLink.id }, { isActive: false });
    for (const venueId of [byEan.otherVenue.id, notLinked.id, inactiveLink.id, 999999]) {
      const response = await upsert(venueId, [anItem(books[0])]);
      expect(response.status, String(venueId)).toBe(404);
      expect(response.body).toEqual({ global: ['Venue not found'] });
    }
    expect(await importCount()).toBe(before);
  });

  it('refuses a digital location with 400, and records nothing', async () => {
    const before = await importCount();
    const response = await postByEan({
      location: { type: 'digital', venueId: world.sandbox.venues[2].id, url: 'https://shop.example.com/book' },
      products: [anItem(books[0])],
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
      products: [anItem(books[0])],
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
    const good = anItem(books[0]);
    const cases: [unknown, string[], string | null][] = [
      [{ location: { type: 'physical', venueId }, products: [good], surprise: 1 }, ['surprise'], 'extra_forbidden'],
      [
        { location: { type: 'physical', venueId }, products: [good, { ...good, idAtProvider: 'x' }] },
        ['products', '1', 'idAtProvider'],
        'extra_forbidden',
      ],
      [
        { location: { type: 'physical', venueId }, products: [anItem(books[0].ean.slice(0, 12))] },
        ['products', '0', 'ean'],
        null,
      ],
      [
        { location: { type: 'physical', venueId }, products: [anItem(`${books[0].ean}1`)] },
        ['products', '0', 'ean'],
        null,
      ],
      [
        { location: { type: 'physical', venueId }, products: [anItem(books[0], { price: -1 })] },
        ['products', '0', 'stock', 'price'],
        null,
      ],
      [
        { location: { type: 'physical', venueId }, products: [anItem(books[0], { price: 30001 })] },
        ['products', '0', 'stock', 'price'],
        null,
      ],
      [
        { location: { type: 'physical', venueId }, products: [anItem(books[0], { price: 10.5 })] },
        ['products', '0', 'stock', 'price'],
        null,
      ],
      [
        { location: { type: 'physical', venueId }, products: [good, anItem(books[0], { price: 100, quantity: -1 })] },
        ['products', '1', 'stock', 'quantity'],
        null,
      ],
      [
        { location: { type: 'physical', venueId }, products: [anItem(books[0], { price: 100, quantity: 'lots' })] },
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
          products: [{ ean: books[0].ean, stock: { quantity: 1, price: null } }],
        },
        ['products', '0', 'stock', 'price'],
        null,
      ],
      [
        { location: { type: 'physical', venueId }, products: [anItem(books[0], { price: 100, quantity: 1_000_001 })] },
        ['products', '0', 'stock', 'quantity'],
        null,
      ],
      [
        {
          location: { type: 'physical', venueId },
          products: [anItem(books[0], undefined, { publicationDatetime: '2026-12-01T10:00:00' })],
        },
        ['products', '0', 'publicationDatetime'],
        null,
      ],
      [
        {
          location: { type: 'physical', venueId },
          products: [anItem(books[0], undefined, { bookingAllowedDatetime: '2026-12-01T10:00:00' })],
        },
        ['products', '0', 'bookingAllowedDatetime'],
        null,
      ],
      [
        {
          location: { type: 'physical', venueId },
          products: [anItem(books[0], { price: 100, bookingLimitDatetime: '2026-12-24T18:00:00' })],
        },
        ['products', '0', 'stock', 'bookingLimitDatetime'],
        null,
      ],
      [
        {
          location: { type: 'physical', venueId },
          products: [anItem(books[0], undefined, { publicationDatetime: '2026-11-01T10:00:00Z' })],
        },
        ['products', '0', 'publicationDatetime'],
        'datetime_future',
      ],
      [
        {
          location: { type: 'physical', venueId },
          products: [anItem(books[0], undefined, { bookingAllowedDatetime: '2026-11-22T09:59:00Z' })],
        },
        ['products', '0', 'bookingAllowedDatetime'],
        'datetime_future',
      ],
      [
        {
          location: { type: 'physical', venueId },
          products: [good, anItem(books[1], { price: 100, bookingLimitDatetime: '2026-11-22T09:00:00Z' })],
        },
        ['products', '1', 'stock', 'bookingLimitDatetime'],
        'datetime_future',
      ],
      [{ products: [good] }, ['location'], null],
      [
        { location: { type: 'physical', venueId }, products: Array.from({ length: 501 }, () => good) },
        ['products'],
        'too_long',
      ],
      [{ location: { type: 'physical', venueId } }, ['products'], 'missing'],
    ];
    for (const [body, loc, type] of cases) expectIssueAt(await postByEan(body), loc, type);
    expect(await importCount()).toBe(before);

    // The edges are fine: price 0 and 30000, quantity 0, an empty list of products.
    for (const products of [[anItem(books[0], { price: 0 }), anItem(books[1], { price: 30000, quantity: 0 })], []]) {
      expect((await upsert(venueId, products)).status).toBe(204);
    }
    expect(await importCount()).toBe(before + 2);
    await runAllJobs();
  });

  it('refuses a past booking limit with 422 at its product, and records nothing', async () => {
    const before = await importCount();
    const venueId = world.sandbox.venues[1].id;
    const past = await upsert(venueId, [
      anItem(books[0], { price: 100, bookingLimitDatetime: '2026-12-24T18:00:00+01:00' }),
      anItem(books[1], { price: 100, bookingLimitDatetime: '2026-11-21T18:00:00+01:00' }),
    ]);
    expect(past.status).toBe(422);
    expect(past.body).toEqual([
      {
        loc: ['products', '1', 'stock', 'bookingLimitDatetime'],
        msg: 'The datetime must be in the future',
        type: 'datetime_future',
      },
    ]);
    expect(await importCount()).toBe(before);
  });

  it('refuses a booking limit before the publication or the opening of bookings its product asks for (400), and records nothing', async () => {
    const before = await importCount();
    const venueId = world.sandbox.venues[1].id;
    const limit = { price: 100, bookingLimitDatetime: '2026-12-01T10:00:00Z' };
    const refused = await upsert(venueId, [
      anItem(books[0], limit, { publicationDatetime: '2026-12-02T10:00:00Z' }),
      anItem(books[1], limit, { bookingAllowedDatetime: '2026-12-01T10:00:00Z' }),
      anItem(books[2], limit, { bookingAllowedDatetime: '2026-12-03T10:00:00Z' }),
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      'products.0.stock.bookingLimitDatetime': [
        'The booking limit must not be before the publication of the offer (2026-12-02T10:00:00.000Z): nobody could book in between',
      ],
      'products.2.stock.bookingLimitDatetime': [
        'The booking limit must not be before bookings open (bookingAllowedDatetime, 2026-12-03T10:00:00.000Z): nobody could book in between',
      ],
    });
    expect(await importCount()).toBe(before);
    const accepted = await upsert(venueId, [
      anItem(books[0], limit, { publicationDatetime: '2026-12-01T10:00:00Z' }),
      anItem(books[1], limit, { bookingAllowedDatetime: '2026-12-01T10:00:00Z' }),
    ]);
    expect(accepted.status).toBe(204);
    expect(await importCount()).toBe(before + 1);
    await runAllJobs();
  });

  it('publishes a new offer now when told now or nothing, never when told null, and opens its bookings when told', async () => {
    const venue = await aVenue();
    const response = await upsert(venue.id, [
      anItem(books[12]),
      anItem(books[13], undefined, { publicationDatetime: 'now' }),
      anItem(books[14], undefined, { publicationDatetime: null, bookingAllowedDatetime: null }),
      anItem(books[15], undefined, { bookingAllowedDatetime: '2026-12-10T11:00:00+01:00' }),
    ]);
    expect(response.status).toBe(204);
    await runAllJobs();
    const read = async (ean: string) => (await getProduct((await offerOf(venue.id, ean))!.id)).body;
    for (const ean of [books[12].ean, books[13].ean]) {
      expect(await read(ean)).toMatchObject({
        status: 'ACTIVE',
        publicationDatetime: '2026-11-22T10:00:00.000Z',
        bookingAllowedDatetime: null,
      });
    }
    expect(await read(books[14].ean)).toMatchObject({
      status: 'INACTIVE',
      publicationDatetime: null,
      bookingAllowedDatetime: null,
    });
    expect(await read(books[15].ean)).toMatchObject({
      publicationDatetime: '2026-11-22T10:00:00.000Z',
      bookingAllowedDatetime: '2026-12-10T10:00:00.000Z',
    });
  });

  it('updates an existing offer as pass Culture does: to the location sent, published now unless told otherwise, its opening of bookings replaced', async () => {
    const venue = await aVenue();
    const [book, cd] = [books[16], cds[7]];
    await upsert(venue.id, [
      anItem(book, undefined, { publicationDatetime: null, bookingAllowedDatetime: '2026-12-10T10:00:00Z' }),
      anItem(cd, undefined, { bookingAllowedDatetime: '2026-12-10T10:00:00Z' }),
    ]);
    await runAllJobs();
    const offer = (await offerOf(venue.id, book.ean))!;
    const other = (await offerOf(venue.id, cd.ean))!;
    expect((await getProduct(offer.id)).body).toMatchObject({
      status: 'INACTIVE',
      publicationDatetime: null,
      bookingAllowedDatetime: '2026-12-10T10:00:00.000Z',
    });

    // Sent again at an address, without a publication or an opening of bookings: the offer moves
    // there, is published now, and opens its bookings at once; the other, sent nulls, is never published.
    const address = await anAddress(world.api);
    const location = { type: 'address', venueId: venue.id, addressId: address.id, addressLabel: 'Book fair stand' };
    world.testApp.clock.advance(60_000);
    try {
      const response = await postByEan({
        location,
        products: [
          anItem(book, { price: 900, quantity: 4 }),
          anItem(cd, undefined, { publicationDatetime: null, bookingAllowedDatetime: null }),
          anItem(cds[10], { price: 700, quantity: 2 }),
        ],
      });
      expect(response.status).toBe(204);
      await runAllJobs();
    } finally {
      world.testApp.clock.advance(-60_000);
    }
    // In the same request, a new EAN is created next to the two updated.
    expect(await lastImport()).toMatchObject({ status: 'DONE', createdCount: 1, updatedCount: 2, rejected: [] });
    const offers = await offersAt(venue.id);
    expect(offers.map((entry) => entry.id).slice(0, 2)).toEqual([offer.id, other.id]);
    expect(offers.map((entry) => entry.ean)).toEqual([book.ean, cd.ean, cds[10].ean]);
    expect((await getProduct(offers[2].id)).body).toMatchObject({ location, stock: { price: 700, quantity: 2 } });
    expect((await getProduct(offer.id)).body).toMatchObject({
      status: 'ACTIVE',
      location,
      publicationDatetime: '2026-11-22T10:01:00.000Z',
      bookingAllowedDatetime: null,
      stock: { price: 900, quantity: 4 },
    });
    expect((await getProduct(other.id)).body).toMatchObject({
      status: 'INACTIVE',
      location,
      publicationDatetime: null,
      bookingAllowedDatetime: null,
    });
  });

  it('skips its own rejected offer, leaving it and its stock as they are, and applies the others', async () => {
    const venue = await aVenue();
    const [book, cd] = [books[17], cds[8]];
    await upsert(venue.id, [anItem(book, { price: 1000, quantity: 10 }), anItem(cd, { price: 1000, quantity: 10 })]);
    await runAllJobs();
    const rejected = (await offerOf(venue.id, book.ean))!;
    const kept = (await offerOf(venue.id, cd.ean))!;
    await em().nativeUpdate(Offer, rejected.id, { validation: 'REJECTED' });

    expect(
      (await upsert(venue.id, [anItem(book, { price: 2345, quantity: 25 }), anItem(cd, { price: 1234, quantity: 0 })]))
        .status,
    ).toBe(204);
    await runAllJobs();
    expect(await lastImport()).toMatchObject({
      status: 'DONE',
      updatedCount: 1,
      stocksDeletedCount: 1,
      rejected: [{ ean: book.ean, reason: 'offerRejected' }],
    });
    expect((await stocksOf(rejected.id)).map((stock) => [stock.price, stock.quantity, stock.isDeleted])).toEqual([
      [1000, 10, false],
    ]);
    expect((await getProduct(rejected.id)).body).toMatchObject({ status: 'REJECTED', stock: { price: 1000 } });
    expect((await getProduct(kept.id)).body.stock).toBeNull();
  });

  it('sells for free: a price of 0 creates a stock and changes one', async () => {
    const venue = await aVenue();
    await upsert(venue.id, [
      anItem(books[18], { price: 0, quantity: 3 }),
      anItem(cds[9], { price: 1000, quantity: 10 }),
    ]);
    await runAllJobs();
    const free = (await offerOf(venue.id, books[18].ean))!;
    const paid = (await offerOf(venue.id, cds[9].ean))!;
    expect((await getProduct(free.id)).body.stock).toMatchObject({ price: 0, quantity: 3 });

    await upsert(venue.id, [anItem(cds[9], { price: 0, quantity: 3 })]);
    await runAllJobs();
    expect((await getProduct(paid.id)).body.stock).toMatchObject({ price: 0, quantity: 3 });
    expect((await stocksOf(paid.id)).filter((stock) => !stock.isDeleted)).toHaveLength(1);
  });

  it('refuses a malformed JSON body with 422 json_invalid, and records nothing', async () => {
    const before = await importCount();
    const response = await request(world.testApp.app)
      .post('/public/offers/v1/products/ean')
      .set('Authorization', `Bearer ${world.sandbox.apiKey}`)
      .set('Content-Type', 'application/json')
      .send('{"location": {"type": "physical", "venueId": 1}, "products": [{"ean": "x"} {"ean": "y"}]}');
    expect(response.status).toBe(422);
    expect(response.body).toEqual([{ loc: ['body'], msg: 'The body is not valid JSON', type: 'json_invalid' }]);
    expect(await importCount()).toBe(before);
  });

  it("keeps providers apart: another provider's upsert of the same EAN at its own venue creates its own offer", async () => {
    const venue = await aVenue();
    const ean = books[7].ean;
    await upsert(venue.id, [anItem(ean, { price: 1000, quantity: 5 })]);
    await runAllJobs();
    const mine = (await offerOf(venue.id, ean))!;

    expect(
      (await upsert(byEan.otherVenue.id, [anItem(ean, { price: 2500, quantity: 1 })], world.other.apiKey)).status,
    ).toBe(204);
    await runAllJobs();
    expect(await lastImport(world.other.provider.id)).toMatchObject({
      status: 'DONE',
      createdCount: 1,
      updatedCount: 0,
    });
    const theirs = (await offerOf(byEan.otherVenue.id, ean, world.other.provider.id))!;
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs).toMatchObject({
      name: books[7].title,
      provider: { id: world.other.provider.id },
      venue: { id: byEan.otherVenue.id },
    });
    expect((await stocksOf(theirs.id)).map((stock) => [stock.price, stock.quantity])).toEqual([[2500, 1]]);
    expect((await stocksOf(mine.id)).map((stock) => [stock.price, stock.quantity])).toEqual([[1000, 5]]);

    // Neither sees the other's offer, nor its venue.
    expect(
      (await getByEan({ eans: ean, venueId: byEan.otherVenue.id }, world.other.apiKey)).body.products.map(
        (p: { id: number }) => p.id,
      ),
    ).toEqual([theirs.id]);
    expect((await getByEan({ eans: ean, venueId: venue.id })).body.products.map((p: { id: number }) => p.id)).toEqual([
      mine.id,
    ]);
    expect((await getByEan({ eans: ean, venueId: venue.id }, world.other.apiKey)).status).toBe(404);
    expect((await getProduct(theirs.id)).status).toBe(404);
    expect((await getProduct(mine.id, world.other.apiKey)).status).toBe(404);
  });
});

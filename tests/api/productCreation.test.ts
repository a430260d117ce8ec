import { describe, expect, it } from 'vitest';
import { type Category, productCategories, showTypes } from '../../graphql/offers/catalogue/index.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { Job } from '../../platform/jobs/Job.js';
import { drainJobs, graphqlAs } from '../support/builders.js';
import {
  accessibility,
  anotherProviderAt,
  expectIssueAt,
  expectServedPng,
  NOT_ALLOWED_INDIVIDUAL_OFFERS,
  nextEan,
  useProductWorld,
  withoutIndividualOffersRight,
  withWrongCheckDigit,
} from '../support/offerWorld.js';
import { aPng } from '../support/images.js';

const creatable = productCategories();
// The categories the tests lean on, checked against the catalogue rather than assumed.
const instrumentRental = creatable.find((category) => category.id === 'LOCATION_INSTRUMENT')!;
const musicDownload = creatable.find((category) => category.id === 'TELECHARGEMENT_MUSIQUE')!;
const filmSupport = creatable.find((category) => category.id === 'SUPPORT_PHYSIQUE_FILM')!;

describe('Product Offers: creation', () => {
  const world = useProductWorld();
  const { aProductBody, aDownloadBody, post, patch, getOne, list, created, offerCount, stored, storedStocks } = world;
  const { theatre, bookshop, online, em, anAddress } = world;

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
    expect(world.sandbox.venues[2].isVirtual).toBe(true);
  });

  it('creates a product published now, with its stock (201), approved at once, and stores the stock and the EAN', async () => {
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
      // Approved within the creation (AUTO_APPROVAL_DELAY_SECONDS is 0).
      status: 'ACTIVE',
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
      validation: 'APPROVED',
      validationReason: 'Approved automatically outside production',
      isEvent: false,
      isActive: true,
      category: 'LOCATION_INSTRUMENT',
      ean,
      provider: { id: world.sandbox.provider.id },
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
    // A stray bookedQuantity in the stock is no error: it is not taken.
    for (const stock of [
      { price: 0 },
      { price: 30000, quantity: 'unlimited' },
      { price: 100, quantity: null },
      { price: 1, quantity: 'unlimited', bookedQuantity: 0 },
    ]) {
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

  it('is approved within its creation (no delay): no job left, and a sandbox booking made at once works', async () => {
    const product = await created();
    expect(await em().count(Job, { type: 'offers.autoApprove' })).toBe(0);
    const row = await stored(product.id);
    expect([row.validation, row.validatedAt?.toISOString()]).toEqual(['APPROVED', '2026-11-22T10:00:00.000Z']);
    const stockId = (await storedStocks(product.id))[0].id;
    const booked = await graphqlAs(
      world.testApp,
      world.sandbox.apiKey,
      'mutation ($stockId: Int!) { sandboxBook(input: { stockId: $stockId }) { status } }',
      { stockId },
    );
    expect(booked.body.errors).toBeUndefined();
    expect(booked.body.data).toEqual({ sandboxBook: { status: 'CONFIRMED' } });
    expect((await storedStocks(product.id))[0].bookedQuantity).toBe(1);
  });

  it('validates the shape (422): lengths, the stock, unknown fields, and writes nothing', async () => {
    const before = await offerCount();
    const cases: [Record<string, unknown>, string[], string][] = [
      [aProductBody({ name: 'x'.repeat(91) }), ['name'], 'string_too_long'],
      [aProductBody({ name: '' }), ['name'], 'string_too_short'],
      [{ ...aProductBody(), name: undefined }, ['name'], 'missing'],
      [aProductBody({ name: null }), ['name'], 'string_type'],
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
      (await post(aProductBody({ name: 'x'.repeat(90), description: 'x'.repeat(10000), idAtProvider: 'x'.repeat(70) })))
        .status,
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
      expectIssueAt(
        await post(aProductBody({ categoryRelatedFields })),
        loc,
        type,
        JSON.stringify(categoryRelatedFields),
      );
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
    const foreignVenue = await post(aProductBody(), world.other.apiKey);
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

  it('refuses a stock whose booking limit is already past (422), writing nothing', async () => {
    const before = await offerCount();
    const refused = await post(aProductBody({ stock: { price: 1500, bookingLimitDatetime: '2026-11-21T10:00:00Z' } }));
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual([
      expect.objectContaining({ loc: ['stock', 'bookingLimitDatetime'], type: 'datetime_future' }),
    ]);
    expect(await offerCount()).toBe(before);
  });

  it('refuses a stock whose booking limit falls before the publication or the opening of bookings (400), writing nothing', async () => {
    const before = await offerCount();
    const stock = { price: 1500, bookingLimitDatetime: '2026-12-01T10:00:00+01:00' };
    const cases = [
      [
        { publicationDatetime: '2026-12-01T10:00:00Z' },
        'The booking limit must not be before the publication of the offer (2026-12-01T10:00:00.000Z): nobody could book in between',
      ],
      [
        { bookingAllowedDatetime: '2026-12-01T09:30:00Z' },
        'The booking limit must not be before bookings open (bookingAllowedDatetime, 2026-12-01T09:30:00.000Z): nobody could book in between',
      ],
    ] as const;
    for (const [opening, message] of cases) {
      const refused = await post(aProductBody({ ...opening, stock }));
      expect([refused.status, refused.body]).toEqual([400, { 'stock.bookingLimitDatetime': [message] }]);
    }
    expect(await offerCount()).toBe(before);
    const atOpening = await post(
      aProductBody({
        publicationDatetime: '2026-12-01T09:00:00Z',
        bookingAllowedDatetime: '2026-12-01T09:00:00Z',
        stock,
      }),
    );
    expect(atOpening.status).toBe(201);
    expect(atOpening.body.stock.bookingLimitDatetime).toBe('2026-12-01T09:00:00.000Z');
    expect(await offerCount()).toBe(before + 1);
  });

  it('refuses a name that carries an EAN (400 on name), writing nothing', async () => {
    const before = await offerCount();
    const refused = await post(aProductBody({ name: 'Le Visible 9782070286256' }));
    expect([refused.status, refused.body]).toEqual([
      400,
      { name: ['An offer name cannot contain an EAN: give it in categoryRelatedFields.ean'] },
    ]);
    expect(await offerCount()).toBe(before);
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
    const second = await anotherProviderAt(world, bookshop());
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
      [1, 2, 3, 4].map(() => post(aProductBody({ categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean } }))),
    );
    expect(sameEan.map((response) => response.status).sort()).toEqual([201, 400, 400, 400]);
    expect(await em().count(Offer, { venue: bookshop(), provider: world.sandbox.provider.id, ean })).toBe(1);

    const sameId = await Promise.all([1, 2, 3, 4].map(() => post(aProductBody({ idAtProvider: 'raced-id' }))));
    expect(sameId.map((response) => response.status).sort()).toEqual([201, 400, 400, 400]);
    expect(await em().count(Offer, { venue: bookshop(), idAtProvider: 'raced-id' })).toBe(1);
  });

  it('stores a valid image sent in the body, served at the URL it answers; refuses a bad one (422)', async () => {
    const file = aPng(400, 600).toString('base64');
    const withImage = await post(aProductBody({ image: { file, credit: 'Photo: A. Demo' } }));
    expect(withImage.status).toBe(201);
    await expectServedPng(world.testApp, withImage.body.image, 'Photo: A. Demo', aPng(400, 600));
    expect((await stored(withImage.body.id)).imageCredit).toBe('Photo: A. Demo');

    const before = await offerCount();
    const tooSmall = await post(aProductBody({ image: { file: aPng(300, 450).toString('base64') } }));
    expect(tooSmall.status).toBe(422);
    expect(tooSmall.body).toEqual([expect.objectContaining({ loc: ['image', 'file'], type: 'image_too_small' })]);
    const square = await post(aProductBody({ image: { file: aPng(600, 600).toString('base64') } }));
    expect(square.status).toBe(422);
    expect(square.body).toEqual([expect.objectContaining({ loc: ['image', 'file'] })]);
    expect(await offerCount()).toBe(before);
  });

  it('records the publication and the opening of bookings sent with an offset in UTC, "now" as now and null as never; refuses naive, past and malformed ones (422)', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { publicationDatetime: '2026-12-01T08:00:00+02:00' },
        { publicationDatetime: '2026-12-01T06:00:00.000Z', status: 'SCHEDULED' },
      ],
      [{ publicationDatetime: 'now' }, { publicationDatetime: '2026-11-22T10:00:00.000Z', status: 'ACTIVE' }],
      [{}, { publicationDatetime: '2026-11-22T10:00:00.000Z', bookingAllowedDatetime: null }],
      [{ publicationDatetime: null }, { publicationDatetime: null, status: 'INACTIVE' }],
      [
        { bookingAllowedDatetime: '2026-12-01T08:00:00+02:00' },
        { bookingAllowedDatetime: '2026-12-01T06:00:00.000Z', status: 'PUBLISHED' },
      ],
      [{ bookingAllowedDatetime: null }, { bookingAllowedDatetime: null, status: 'ACTIVE' }],
    ];
    for (const [dates, answered] of cases) {
      const response = await post(aProductBody(dates));
      expect(response.status, JSON.stringify(dates)).toBe(201);
      expect(response.body, JSON.stringify(dates)).toMatchObject(answered);
      expect((await getOne(response.body.id)).body).toMatchObject(answered);
    }
    const before = await offerCount();
    for (const dates of [
      { publicationDatetime: '2027-01-01T00:00:00' },
      { bookingAllowedDatetime: '2027-01-01T00:00:00' },
      { publicationDatetime: '2021-01-01T00:00:00+00:00' },
      { bookingAllowedDatetime: '2021-01-01T00:00:00+00:00' },
      { publicationDatetime: 'NOW' },
    ]) {
      const response = await post(aProductBody(dates));
      expect(response.status, JSON.stringify(dates)).toBe(422);
      expect(response.body).toEqual([expect.objectContaining({ loc: Object.keys(dates) })]);
    }
    expect(await offerCount()).toBe(before);
  });

  it('refuses a publication more than two years ahead (400 on publicationDatetime), writing nothing; an edit may set one', async () => {
    // The clock reads 2026-11-22T10:00:00Z: two years ahead is 2028-11-22T10:00:00Z.
    const before = await offerCount();
    const tooFar = await post(aProductBody({ publicationDatetime: '2028-11-22T10:01:00Z' }));
    expect([tooFar.status, tooFar.body]).toEqual([
      400,
      { publicationDatetime: ['A publication cannot be scheduled more than 2 years ahead'] },
    ]);
    expect(await offerCount()).toBe(before);
    const atTheLimit = await post(aProductBody({ publicationDatetime: '2028-11-22T10:00:00Z' }));
    expect([atTheLimit.status, atTheLimit.body.publicationDatetime]).toEqual([201, '2028-11-22T10:00:00.000Z']);
    const edited = await patch({ offerId: atTheLimit.body.id, publicationDatetime: '2030-01-01T00:00:00Z' });
    expect([edited.status, edited.body.publicationDatetime]).toEqual([200, '2030-01-01T00:00:00.000Z']);
    expect((await stored(atTheLimit.body.id)).publicationDatetime?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });

  it('answers 403 to a provider whose right to manage individual offers was withdrawn', async () => {
    const product = await created();
    const before = await offerCount();
    await withoutIndividualOffersRight(world.testApp, world.sandbox.provider.id, async () => {
      for (const response of [
        await post(aProductBody()),
        await patch({ offerId: product.id, name: 'Changed' }),
        await getOne(product.id),
        await list(),
      ]) {
        expect(response.status).toBe(403);
        expect(response.body).toEqual(NOT_ALLOWED_INDIVIDUAL_OFFERS);
      }
    });
    expect(await offerCount()).toBe(before);
    expect((await stored(product.id)).name).toBe('Cello rental');
  });
});

describe('Product Offers: creation with an approval delay (AUTO_APPROVAL_DELAY_SECONDS above 0)', () => {
  const world = useProductWorld({ env: { AUTO_APPROVAL_DELAY_SECONDS: '3600' } });
  const { created, getOne, stored, em } = world;

  it('answers PENDING, then the job queued for the delay approves it: ACTIVE', async () => {
    const product = await created();
    expect(product.status).toBe('PENDING');
    const jobs = await em().find(Job, { type: 'offers.autoApprove' });
    expect(jobs.map((job) => [job.payload.offerIds, job.runAt.toISOString()])).toEqual([
      [[product.id], '2026-11-22T11:00:00.000Z'],
    ]);
    await drainJobs(world.testApp);
    expect((await stored(product.id)).validation).toBe('PENDING');
    world.testApp.clock.advance(3600 * 1000);
    try {
      await drainJobs(world.testApp);
      expect((await stored(product.id)).validation).toBe('APPROVED');
      expect((await getOne(product.id)).body.status).toBe('ACTIVE');
    } finally {
      world.testApp.clock.set(new Date('2026-11-22T10:00:00Z'));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { Offer } from '../../graphql/offers/Offer.js';
import { ProductOfferCreation, ProductOfferEdition } from '../../rest-facade/productOffers/schemas.js';
import { anEvent } from '../support/fixtures.js';
import { aPng } from '../support/images.js';
import {
  accessibility,
  expectServedPng,
  nextEan,
  useProductWorld,
  withWrongCheckDigit,
} from '../support/offerWorld.js';

describe('Product Offers: edition', () => {
  const world = useProductWorld();
  const { aDownloadBody, post, patch, getOne, created, stored, storedStocks, anAddress } = world;
  const { theatre, bookshop, online, em } = world;

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

  it('clears with null what a product may be without; refuses null (422) on what every product has, changing nothing', async () => {
    // What every product has: the fields its creation requires, and its switches (duo). isActive: null,
    // categoryRelatedFields: null and image: null change nothing, as pass Culture does.
    const ignoredNull = ['isActive', 'categoryRelatedFields', 'image'];
    const creation = ProductOfferCreation.shape;
    const edition = ProductOfferEdition.shape;
    const requiredOnCreation = Object.entries(creation)
      .filter(([, rule]) => !rule.safeParse(undefined).success)
      .map(([field]) => field);
    const switches = Object.entries(edition)
      .filter(([, rule]) => rule.safeParse(true).success)
      .map(([field]) => field);
    expect(requiredOnCreation).toEqual(expect.arrayContaining(['name', 'location']));
    expect(switches).toEqual(expect.arrayContaining(['enableDoubleBookings']));
    const fields = Object.keys(edition).filter((field) => field !== 'offerId');

    const product = await created({
      description: 'Before',
      idAtProvider: 'edit-2',
      bookingEmail: 'a@example.com',
      bookingContact: 'desk@example.com',
      itemCollectionDetails: 'Counter',
      bookingAllowedDatetime: '2026-12-01T10:00:00Z',
      image: { file: aPng(400, 600).toString('base64') },
    });
    const outcomes: Record<string, string> = {};
    for (const field of fields) {
      const before = (await getOne(product.id)).body;
      const response = await patch({ offerId: product.id, [field]: null });
      if (ignoredNull.includes(field)) {
        expect([response.status, response.body], field).toEqual([200, before]);
        outcomes[field] = 'ignored';
      } else if (response.status === 422) {
        expect(response.body, field).toEqual([
          { loc: [field], msg: 'This field cannot be null', type: 'not_nullable' },
        ]);
        expect((await getOne(product.id)).body, field).toEqual(before);
        outcomes[field] = 'refused';
      } else {
        expect(response.status, `${field}: ${JSON.stringify(response.body)}`).toBe(200);
        expect(response.body, field).toMatchObject({ [field]: null });
        outcomes[field] = 'cleared';
      }
    }
    expect(outcomes).toEqual(
      Object.fromEntries(
        fields.map((field) => [
          field,
          ignoredNull.includes(field)
            ? 'ignored'
            : requiredOnCreation.includes(field) || switches.includes(field)
              ? 'refused'
              : 'cleared',
        ]),
      ),
    );
    expect(await stored(product.id)).toMatchObject({
      name: 'Cello rental',
      description: null,
      idAtProvider: null,
      bookingEmail: null,
      bookingContact: null,
      itemCollectionDetails: null,
      imageKey: expect.any(String),
    });
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

  it('refuses a name that carries an EAN (400 on name), changing nothing', async () => {
    const product = await created();
    const refused = await patch({ offerId: product.id, name: 'Cello 9782070286256' });
    expect([refused.status, refused.body]).toEqual([
      400,
      { name: ['An offer name cannot contain an EAN: give it in categoryRelatedFields.ean'] },
    ]);
    expect((await stored(product.id)).name).toBe('Cello rental');
  });

  it('refuses (400) an accessibility flag sent null, alone or with others, and changes nothing', async () => {
    const product = await created();
    const before = (await getOne(product.id)).body;
    for (const flags of [
      { audioDisabilityCompliant: null },
      { audioDisabilityCompliant: false, visualDisabilityCompliant: null },
    ]) {
      const refused = await patch({ offerId: product.id, name: 'Changed', accessibility: flags });
      expect([refused.status, refused.body], JSON.stringify(flags)).toEqual([
        400,
        { global: ["The offer's accessibility must be defined"] },
      ]);
    }
    expect((await getOne(product.id)).body).toEqual(before);
    expect((await stored(product.id)).name).toBe('Cello rental');
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

    // The EAN is the product's: one sent is ignored, the answer and the row keep the stored one.
    const storedEan = product.categoryRelatedFields.ean;
    const newEan = await patch({
      offerId: product.id,
      name: 'Same EAN',
      categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean: nextEan() },
    });
    expect(newEan.status).toBe(200);
    expect(newEan.body).toMatchObject({
      name: 'Same EAN',
      categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean: storedEan },
    });
    expect(await stored(product.id)).toMatchObject({ ean: storedEan, categoryRelatedFields: { ean: storedEan } });
    const ean = storedEan;

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

  it("keeps a product's EAN, even one another of the provider's products sells at the venue: an EAN sent is ignored (200)", async () => {
    const taken = await created();
    const takenEan = taken.categoryRelatedFields.ean as string;
    const product = await created();
    const sameEan = await patch({
      offerId: product.id,
      categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean: takenEan },
    });
    expect(sameEan.status).toBe(200);
    expect(sameEan.body.categoryRelatedFields).toEqual({
      category: 'LOCATION_INSTRUMENT',
      ean: product.categoryRelatedFields.ean,
    });
    expect((await stored(product.id)).ean).toBe(product.categoryRelatedFields.ean);
    expect((await stored(taken.id)).ean).toBe(takenEan);
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
        { location: { type: 'digital', venueId: bookshop(), url: 'https://rent.example.com/' } },
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
    const download = (
      await post(
        aDownloadBody({ location: { type: 'digital', venueId: bookshop(), url: 'https://download.example.com/a' } }),
      )
    ).body;
    const physicalDownload = await patch({
      offerId: download.id,
      location: { type: 'physical', venueId: bookshop() },
    });
    expect(physicalDownload.status).toBe(400);
    expect(physicalDownload.body).toEqual({
      location: ['The category TELECHARGEMENT_MUSIQUE is online only: give a digital location'],
    });
    expect((await patch({ offerId: product.id, enableDoubleBookings: false, idAtProvider: 'mine' })).status).toBe(200);
  });

  it('refuses (400 on location.venueId) to move a product to another venue of the key, physical or at an address, and changes nothing', async () => {
    const product = await created({ idAtProvider: 'moving-id' });
    const addressId = await anAddress();
    const cantMove = { 'location.venueId': ['A product offer cannot be moved to another venue'] };
    for (const location of [
      { type: 'physical', venueId: theatre() },
      { type: 'address', venueId: theatre(), addressId },
    ]) {
      const moved = await patch({ offerId: product.id, name: 'Moved', location });
      expect([moved.status, moved.body], location.type).toEqual([400, cantMove]);
    }
    expect(await stored(product.id)).toMatchObject({ name: 'Cello rental', locationType: 'physical' });
    expect((await stored(product.id)).venue.id).toBe(bookshop());
    expect((await getOne(product.id)).body.location).toEqual({ type: 'physical', venueId: bookshop() });
  });

  it('changes the location to an address at its own venue, and sets an image that image: null keeps', async () => {
    const product = await created();
    const addressId = await anAddress();
    const moved = await patch({
      offerId: product.id,
      location: { type: 'address', venueId: bookshop(), addressId, addressLabel: 'Annex' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.location).toEqual({ type: 'address', venueId: bookshop(), addressId, addressLabel: 'Annex' });
    const withImage = await patch({
      offerId: product.id,
      image: { file: aPng(400, 600).toString('base64'), credit: 'Me' },
    });
    expect(withImage.status).toBe(200);
    await expectServedPng(world.testApp, withImage.body.image, 'Me', aPng(400, 600));
    // null keeps the image, as pass Culture does.
    const imageKept = await patch({ offerId: product.id, image: null });
    expect([imageKept.status, imageKept.body.image]).toEqual([200, withImage.body.image]);
    expect((await stored(product.id)).imageCredit).toBe('Me');
  });

  it('lets isActive drive the publication without a publicationDatetime: false withdraws it, true publishes now', async () => {
    const product = await created({ publicationDatetime: '2026-12-01T10:00:00Z' });
    expect(product.status).toBe('SCHEDULED');
    const inactive = await patch({ offerId: product.id, isActive: false });
    expect(inactive.body).toMatchObject({ status: 'INACTIVE', publicationDatetime: null });
    expect((await stored(product.id)).publicationDatetime).toBeNull();
    const ignored = await patch({ offerId: product.id, isActive: null });
    expect([ignored.status, ignored.body.status]).toEqual([200, 'INACTIVE']);
    const active = await patch({ offerId: product.id, isActive: true });
    expect(active.body).toMatchObject({ status: 'ACTIVE', publicationDatetime: '2026-11-22T10:00:00.000Z' });
    expect((await stored(product.id)).publishedAt?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
  });

  it('refuses (400) to edit a PENDING or REJECTED product, its stock included, and changes nothing', async () => {
    for (const validation of ['PENDING', 'REJECTED'] as const) {
      const product = await created({ stock: { price: 1500, quantity: 10 } });
      await em().nativeUpdate(Offer, product.id, { validation });
      const response = await patch({ offerId: product.id, name: 'Renamed', stock: { quantity: 2 } });
      expect([response.status, response.body]).toEqual([
        400,
        { global: [`The offer is ${validation}: it cannot be changed`] },
      ]);
      expect((await stored(product.id)).name).toBe('Cello rental');
      expect((await storedStocks(product.id)).map((stock) => stock.quantity)).toEqual([10]);
      expect((await patch({ offerId: product.id, stock: null })).status).toBe(400);
      expect((await storedStocks(product.id)).map((stock) => stock.isDeleted)).toEqual([false]);
    }
  });

  it('changes each text field, every accessibility flag, and duo bookings where the category allows them (200)', async () => {
    // An idAtProvider that an offer of another venue has is free here.
    await created({ idAtProvider: 'elsewhere-1', location: { type: 'physical', venueId: theatre() } });
    const product = await created({ description: 'Before', bookingEmail: 'a@example.com' });
    const texts = {
      description: 'Six cellos, by the month.',
      bookingEmail: 'bookings@example.com',
      bookingContact: 'desk@example.com',
      itemCollectionDetails: 'At the back door',
      idAtProvider: 'elsewhere-1',
    };
    for (const [field, value] of Object.entries(texts)) {
      const response = await patch({ offerId: product.id, [field]: value });
      expect([response.status, response.body[field]], field).toEqual([200, value]);
    }
    expect(await stored(product.id)).toMatchObject(texts);
    const flipped = {
      audioDisabilityCompliant: false,
      mentalDisabilityCompliant: false,
      motorDisabilityCompliant: false,
      visualDisabilityCompliant: true,
    };
    const accessible = await patch({ offerId: product.id, accessibility: flipped });
    expect([accessible.status, accessible.body.accessibility]).toEqual([200, flipped]);
    expect(await stored(product.id)).toMatchObject(flipped);

    const pass = await created({ name: 'Museum pass', categoryRelatedFields: { category: 'CARTE_MUSEE' } });
    for (const enableDoubleBookings of [true, false]) {
      const response = await patch({ offerId: pass.id, enableDoubleBookings });
      expect([response.status, response.body.enableDoubleBookings]).toEqual([200, enableDoubleBookings]);
      expect((await stored(pass.id)).enableDoubleBookings).toBe(enableDoubleBookings);
    }
  });

  it('changes the category fields, the publication and the opening of bookings, and answers the new status', async () => {
    const concert = await created({
      name: 'Jazz season',
      categoryRelatedFields: { category: 'ABO_CONCERT', musicType: 'JAZZ-BLUES' },
      stock: { price: 1000, quantity: 12 },
    });
    const musicType = await patch({
      offerId: concert.id,
      categoryRelatedFields: { category: 'ABO_CONCERT', musicType: 'MUSIQUE_CLASSIQUE', producteur: 'Marcel' },
    });
    expect([musicType.status, musicType.body.categoryRelatedFields]).toEqual([
      200,
      { category: 'ABO_CONCERT', musicType: 'MUSIQUE_CLASSIQUE' },
    ]);
    expect((await stored(concert.id)).categoryRelatedFields).toEqual({ musicType: 'MUSIQUE_CLASSIQUE' });
    const categoryOnly = await patch({ offerId: concert.id, categoryRelatedFields: { category: 'ABO_CONCERT' } });
    expect([categoryOnly.status, categoryOnly.body]).toEqual([200, musicType.body]);

    const show = await created({
      name: 'Opera season',
      categoryRelatedFields: { category: 'ABO_SPECTACLE', showType: 'OPERA-GRAND_OPERA' },
    });
    const showType = await patch({
      offerId: show.id,
      categoryRelatedFields: { category: 'ABO_SPECTACLE', showType: 'OPERA-SINGSPIEL' },
    });
    expect(showType.body.categoryRelatedFields).toEqual({ category: 'ABO_SPECTACLE', showType: 'OPERA-SINGSPIEL' });
    // A field left out is kept, and the stored EAN comes back with the field changed.
    const ean = nextEan();
    const audioBook = await created({
      name: 'Audio book',
      categoryRelatedFields: { category: 'LIVRE_AUDIO_PHYSIQUE', ean, author: 'M. Duras' },
    });
    const author = await patch({
      offerId: audioBook.id,
      categoryRelatedFields: { category: 'LIVRE_AUDIO_PHYSIQUE', author: 'M. Yourcenar' },
    });
    expect(author.body.categoryRelatedFields).toEqual({
      category: 'LIVRE_AUDIO_PHYSIQUE',
      author: 'M. Yourcenar',
      ean,
    });
    const emptyAuthor = await patch({
      offerId: audioBook.id,
      categoryRelatedFields: { category: 'LIVRE_AUDIO_PHYSIQUE', author: '' },
    });
    expect([emptyAuthor.status, emptyAuthor.body.categoryRelatedFields.author]).toEqual([200, '']);
    expect((await stored(audioBook.id)).categoryRelatedFields).toEqual({ ean, author: '' });

    // The dates: sent with an offset, stored and answered in UTC; the status follows them.
    const statuses: [Record<string, unknown>, string, Record<string, unknown>][] = [
      [{ name: 'Jazz season, again' }, 'ACTIVE', {}],
      [
        { bookingAllowedDatetime: '2026-12-15T10:00:00+02:00' },
        'PUBLISHED',
        { bookingAllowedDatetime: '2026-12-15T08:00:00.000Z' },
      ],
      [{ bookingAllowedDatetime: null }, 'ACTIVE', { bookingAllowedDatetime: null }],
      [
        { publicationDatetime: '2026-12-01T08:00:00+02:00' },
        'SCHEDULED',
        { publicationDatetime: '2026-12-01T06:00:00.000Z' },
      ],
      [{ publicationDatetime: 'now' }, 'ACTIVE', { publicationDatetime: '2026-11-22T10:00:00.000Z' }],
      [{ publicationDatetime: null }, 'INACTIVE', { publicationDatetime: null }],
      // publicationDatetime wins over isActive.
      [
        { isActive: false, publicationDatetime: '2026-12-01T08:00:00+02:00' },
        'SCHEDULED',
        { publicationDatetime: '2026-12-01T06:00:00.000Z' },
      ],
    ];
    for (const [change, status, dates] of statuses) {
      const response = await patch({ offerId: concert.id, ...change });
      expect([response.status, response.body.status], JSON.stringify(change)).toEqual([200, status]);
      expect(response.body).toMatchObject(dates);
    }
    expect((await getOne(concert.id)).body).toMatchObject({
      name: 'Jazz season, again',
      status: 'SCHEDULED',
      publicationDatetime: '2026-12-01T06:00:00.000Z',
    });
  });

  it('refuses malformed emails, datetimes, locations and images on edition (422), and changes nothing', async () => {
    const product = await created();
    const before = (await getOne(product.id)).body;
    const cases: [Record<string, unknown>, string[]][] = [
      [{ offerId: String(product.id) }, ['offerId']],
      [{ bookingEmail: 'not-an-address' }, ['bookingEmail']],
      [{ bookingContact: 'not-an-address' }, ['bookingContact']],
      [{ publicationDatetime: '2027-01-01T00:00:00' }, ['publicationDatetime']],
      [{ bookingAllowedDatetime: '2027-01-01T00:00:00' }, ['bookingAllowedDatetime']],
      [{ publicationDatetime: '2021-01-01T00:00:00+00:00' }, ['publicationDatetime']],
      [{ bookingAllowedDatetime: '2021-01-01T00:00:00+00:00' }, ['bookingAllowedDatetime']],
      [{ publicationDatetime: 'NOW' }, ['publicationDatetime']],
      [{ bookingAllowedDatetime: 'now' }, ['bookingAllowedDatetime']],
      [{ location: { type: 'hologram', venueId: bookshop() } }, ['location', 'type']],
      [{ location: { type: 'address', venueId: bookshop(), addressId: 'somewhere' } }, ['location', 'addressId']],
      [
        { location: { type: 'address', venueId: bookshop(), addressId: 1, addressLabel: '' } },
        ['location', 'addressLabel'],
      ],
      [
        { location: { type: 'address', venueId: bookshop(), addressId: 1, addressLabel: 'x'.repeat(201) } },
        ['location', 'addressLabel'],
      ],
      [{ location: { type: 'physical' } }, ['location', 'venueId']],
      [{ location: { type: 'digital', url: 'https://rent.example.com/' } }, ['location', 'venueId']],
      [{ location: { type: 'address', addressId: 1 } }, ['location', 'venueId']],
      [{ image: { file: aPng(300, 450).toString('base64') } }, ['image', 'file']],
    ];
    for (const [change, loc] of cases) {
      const response = await patch({ offerId: product.id, name: 'Changed', ...change });
      expect(response.status, JSON.stringify(change)).toBe(422);
      expect(
        response.body.some((issue: { loc: string[] }) => issue.loc.join('.') === loc.join('.')),
        `${JSON.stringify(change)}: ${JSON.stringify(response.body)}`,
      ).toBe(true);
    }
    expect((await getOne(product.id)).body).toEqual(before);
    expect((await stored(product.id)).imageKey).toBeNull();

    // A location's unknown field is not refused: the contract's location schemas allow more properties.
    const addressId = await anAddress();
    const typo = await patch({
      offerId: product.id,
      location: { type: 'address', venueId: bookshop(), addressId, adressLabel: 'typo' },
    });
    expect([typo.status, typo.body.location]).toEqual([
      200,
      { type: 'address', venueId: bookshop(), addressId, addressLabel: null },
    ]);

    // An online product changes its digital location at its venue.
    const download = (await post(aDownloadBody())).body;
    const url = 'https://download.example.com/another-album?token={token}';
    const moved = await patch({ offerId: download.id, location: { type: 'digital', venueId: online(), url } });
    expect([moved.status, moved.body.location]).toEqual([200, { type: 'digital', venueId: online(), url }]);
  });

  it('keeps an address location without label, and answers 404 for an unknown address, changing nothing', async () => {
    const product = await created();
    const addressId = await anAddress();
    const noLabel = await patch({ offerId: product.id, location: { type: 'address', venueId: bookshop(), addressId } });
    expect([noLabel.status, noLabel.body.location]).toEqual([
      200,
      { type: 'address', venueId: bookshop(), addressId, addressLabel: null },
    ]);
    expect(await stored(product.id)).toMatchObject({ locationType: 'address', address: { id: addressId } });
    const unknown = await patch({
      offerId: product.id,
      name: 'Changed',
      location: { type: 'address', venueId: bookshop(), addressId: 999999 },
    });
    expect([unknown.status, unknown.body]).toEqual([404, { global: ['Address not found'] }]);
    expect((await getOne(product.id)).body).toEqual(noLabel.body);
  });

  it("answers 404 for another provider's product, an event and an unknown id, and changes nothing", async () => {
    const product = await created();
    const notFound = { global: ['Product offer not found'] };
    const byOther = await patch({ offerId: product.id, name: 'Stolen', stock: null }, world.other.apiKey);
    expect([byOther.status, byOther.body]).toEqual([404, notFound]);
    expect((await stored(product.id)).name).toBe('Cello rental');
    expect((await storedStocks(product.id)).map((stock) => stock.isDeleted)).toEqual([false]);
    const event = await anEvent(em(), world.testApp.clock, {
      providerId: world.sandbox.provider.id,
      venueId: theatre(),
    });
    const anEventPatch = await patch({ offerId: event.id, name: 'Not a product' });
    expect([anEventPatch.status, anEventPatch.body]).toEqual([404, notFound]);
    expect((await stored(event.id)).name).toBe('Concert at the demo theatre');
    const unknown = await patch({ offerId: 999999, name: 'Nobody' });
    expect([unknown.status, unknown.body]).toEqual([404, notFound]);
  });
});

import { readdir } from 'node:fs/promises';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { catalogueEntries } from '../../graphql/offers/eanCatalogue/catalogueData.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { IMAGE_MAX_BYTES } from '../../platform/images/index.js';
import { expectMatchesContract } from '../support/contract.js';
import { publishedEventData } from '../support/eventData.js';
import { anEvent } from '../support/fixtures.js';
import { aGif, aJpeg, aPng, aWebp } from '../support/images.js';
import { NOT_ALLOWED_INDIVIDUAL_OFFERS, useOfferWorld, withoutIndividualOffersRight } from '../support/offerWorld.js';

const UPLOAD = '/public/offers/v1/{offer_id}/image';
const [book, anotherBook] = catalogueEntries.filter((entry) => entry.category === 'LIVRE_PAPIER' && entry.compliant);
const IMAGE_URL = /^http:\/\/api\.test\/images\/[0-9a-f-]{36}\.(png|jpg)$/;

interface Upload {
  file?: { bytes: Buffer; name: string; field?: string };
  credit?: string;
  key?: string;
}

describe('Offer images (multipart upload)', () => {
  const world = useOfferWorld({ images: true });

  const em = () => world.em();
  /** A POST to the upload, which takes multipart bodies that the typed client does not send. */
  const toUpload = (offerId: number | string, key = world.sandbox.apiKey) =>
    request(world.testApp.app).post(`/public/offers/v1/${offerId}/image`).set('Authorization', `Bearer ${key}`);
  /** The answer to such a POST, checked against the contract. */
  const answerTo = async (call: request.Test) => {
    const response = await call;
    expectMatchesContract(response, 'post', UPLOAD);
    return response;
  };
  const upload = (offerId: number | string, { file, credit, key }: Upload = {}) => {
    let call = toUpload(offerId, key);
    if (file) call = call.attach(file.field ?? 'file', file.bytes, file.name);
    if (credit !== undefined) call = call.field('credit', credit);
    return answerTo(call);
  };
  const png = (bytes: Buffer = aPng(400, 600)) => ({ bytes, name: 'cover.png' });
  const getEvent = (id: number) => world.api.call('GetEvent', { params: { event_id: id } });
  const getProduct = (id: number) => world.api.call('GetProduct', { params: { product_id: id } });
  /** GETs the path of an image URL on the app itself, as a buffer. */
  const fetchImage = (url: string) =>
    request(world.testApp.app)
      .get(new URL(url).pathname)
      .buffer(true)
      .parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      });
  const anEventOf = (providerId = world.sandbox.provider.id) =>
    anEvent(em(), world.testApp.clock, { providerId, venueId: world.sandbox.venues[0].id });
  async function aProduct(entry = book) {
    const fork = em();
    const offer = fork.create(
      Offer,
      publishedEventData(
        world.testApp.clock.now(),
        { providerId: world.sandbox.provider.id, venueId: world.sandbox.venues[1].id },
        {
          name: entry.title,
          category: 'LIVRE_PAPIER',
          isEvent: false,
          categoryRelatedFields: { ean: entry.ean },
          ean: entry.ean,
          enableDoubleBookings: false,
        },
      ),
    );
    await fork.persist(offer).flush();
    return offer;
  }
  const stored = (id: number) => em().findOneOrFail(Offer, id);
  const storedFiles = async () =>
    (await readdir(world.imageDirectory!, { recursive: true })).filter((name) => /\.(png|jpg)$/.test(name));

  it("sets an event's image from a PNG and a credit (204): the event shows it, and the app serves its URL", async () => {
    const event = await anEventOf();
    const bytes = aPng(400, 600);
    const response = await upload(event.id, { file: png(bytes), credit: 'Jane' });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');

    const read = await getEvent(event.id);
    expect(read.status).toBe(200);
    expect(read.body.image).toEqual({ url: expect.stringMatching(IMAGE_URL), credit: 'Jane' });
    expect(read.body.image.url).toMatch(/\.png$/);
    const row = await stored(event.id);
    expect(row.imageCredit).toBe('Jane');
    expect(read.body.image.url.endsWith(`/images/${row.imageKey}`)).toBe(true);

    const served = await fetchImage(read.body.image.url);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(served.body as Buffer, bytes)).toBe(0);
  });

  it("sets a product's image from a JPEG without credit, judged by its bytes and not its name, and replaces an older image", async () => {
    const product = await aProduct();
    const first = await upload(product.id, { file: png(), credit: 'First' });
    expect(first.status).toBe(204);
    const before = (await getProduct(product.id)).body.image;

    const jpeg = aJpeg(800, 1200);
    const response = await upload(product.id, { file: { bytes: jpeg, name: 'cover.png' } });
    expect(response.status).toBe(204);
    const read = await getProduct(product.id);
    expect(read.status).toBe(200);
    expect(read.body.image).toEqual({ url: expect.stringMatching(/\.jpg$/), credit: null });
    expect(read.body.image.url).toMatch(IMAGE_URL);
    expect(read.body.image.url).not.toBe(before.url);

    const served = await fetchImage(read.body.image.url);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(served.body as Buffer, jpeg)).toBe(0);
  });

  it('accepts the bounds: 400x600 and 800x1200, a ratio within the tolerance, a progressive JPEG, a byte under 10 MB', async () => {
    const event = await anEventOf();
    for (const [bytes, name] of [
      [aPng(800, 1200), '800x1200'],
      [aPng(406, 600), '406x600'],
      [aJpeg(400, 600, { frameMarker: 0xc2 }), 'progressive'],
      [aJpeg(600, 900, { fillBytes: 2, tablesBeforeFrame: true }), 'fill bytes'],
      [aPng(400, 600, { totalBytes: IMAGE_MAX_BYTES - 1 }), '10 MB less a byte'],
    ] as const) {
      const response = await upload(event.id, { file: { bytes, name: 'cover' } });
      expect(response.status, `${name}: ${response.text}`).toBe(204);
    }
  }, 30_000);

  it("refuses a bad image with 422 at ['file'], by the image rules, and keeps the offer's image", async () => {
    const event = await anEventOf();
    await upload(event.id, { file: png(), credit: 'Kept' });
    const kept = await stored(event.id);
    const filesBefore = (await storedFiles()).length;
    const cases: [Buffer, string][] = [
      [aPng(300, 450), 'image_too_small'],
      [aPng(398, 597), 'image_too_small'],
      [aPng(900, 1350), 'image_too_large'],
      [aPng(600, 600), 'image_ratio'],
      [aPng(800, 600), 'image_ratio'],
      [aJpeg(500, 600), 'image_ratio'],
      [aGif(400, 600), 'image_format'],
      [aWebp(400, 600), 'image_format'],
      [Buffer.from('%PDF-1.7 not an image at all'), 'image_format'],
      [aPng(400, 600).subarray(0, 60), 'image_corrupt'],
      [aJpeg(400, 600).subarray(0, 30), 'image_corrupt'],
    ];
    for (const [bytes, type] of cases) {
      const response = await upload(event.id, { file: { bytes, name: 'cover.png' }, credit: 'Bad' });
      expect(response.status, type).toBe(422);
      expect(response.body).toEqual([expect.objectContaining({ loc: ['file'], type })]);
    }
    const empty = await upload(event.id, { file: { bytes: Buffer.alloc(0), name: 'empty.png' } });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual([expect.objectContaining({ loc: ['file'] })]);

    const row = await stored(event.id);
    expect([row.imageKey, row.imageCredit]).toEqual([kept.imageKey, 'Kept']);
    expect((await storedFiles()).length).toBe(filesBefore);
  });

  it('answers 422 without a file and for a credit over 200 characters, 415 for a body that is not a form', async () => {
    const event = await anEventOf();
    const onlyCredit = await upload(event.id, { credit: 'Jane' });
    expect(onlyCredit.status).toBe(422);
    expect(onlyCredit.body).toEqual([expect.objectContaining({ loc: ['file'], type: 'missing' })]);

    const otherField = await upload(event.id, { file: { ...png(), field: 'image' } });
    expect(otherField.status).toBe(422);
    expect(otherField.body).toEqual([expect.objectContaining({ loc: ['file'], type: 'missing' })]);

    const noBody = await upload(event.id);
    expect(noBody.status).toBe(422);
    expect(noBody.body).toEqual([expect.objectContaining({ loc: ['file'], type: 'missing' })]);

    const json = await world.api.call('UploadImage', {
      params: { offer_id: event.id },
      body: { file: aPng(400, 600).toString('base64'), credit: 'Jane' },
    });
    expect(json.status).toBe(415);
    expect(json.body).toEqual({
      global: ['This operation takes a body of type multipart/form-data, not application/json'],
    });

    const longCredit = await upload(event.id, { file: png(), credit: 'c'.repeat(201) });
    expect(longCredit.status).toBe(422);
    expect(longCredit.body).toEqual([expect.objectContaining({ loc: ['credit'] })]);
    expect((await upload(event.id, { file: png(), credit: 'c'.repeat(200) })).status).toBe(204);

    expect((await stored(event.id)).imageCredit).toBe('c'.repeat(200));
  });

  it('accepts a file of exactly 10 MB ("at most 10 MB")', async () => {
    const event = await anEventOf();
    const bytes = aPng(400, 600, { totalBytes: IMAGE_MAX_BYTES });
    expect(bytes.length).toBe(10 * 1024 * 1024);
    const response = await upload(event.id, { file: png(bytes) });
    expect(response.status, response.text).toBe(204);
    const image = (await getEvent(event.id)).body.image;
    const served = await fetchImage(image.url);
    expect((served.body as Buffer).length).toBe(IMAGE_MAX_BYTES);
  }, 30_000);

  it('ignores a text field it does not know, sent before the credit: the credit is kept', async () => {
    const event = await anEventOf();
    const response = await answerTo(
      toUpload(event.id).field('alt', 'A cover').field('credit', 'Jane').attach('file', aPng(400, 600), 'cover.png'),
    );
    expect(response.status).toBe(204);
    expect((await getEvent(event.id)).body.image).toEqual({ url: expect.stringMatching(IMAGE_URL), credit: 'Jane' });
  });

  it('ignores a file part of another name, sent before the file: the file is taken', async () => {
    const event = await anEventOf();
    const response = await answerTo(
      toUpload(event.id)
        .attach('thumbnail', aPng(400, 600), 'thumbnail.png')
        .attach('file', aJpeg(400, 600), 'cover.jpg'),
    );
    expect(response.status, response.text).toBe(204);
    expect((await getEvent(event.id)).body.image.url).toMatch(/\.jpg$/);
  });

  it('answers 422 to a multipart body without a boundary', async () => {
    const event = await anEventOf();
    const response = await answerTo(toUpload(event.id).set('Content-Type', 'multipart/form-data').send('not a form'));
    expect(response.status).toBe(422);
    expect((await stored(event.id)).imageKey).toBeNull();
  });

  it('refuses a file over 10 MB with 422 too_long', async () => {
    const event = await anEventOf();
    const response = await upload(event.id, { file: png(aPng(400, 600, { totalBytes: IMAGE_MAX_BYTES + 1 })) });
    expect(response.status).toBe(422);
    expect(response.body).toEqual([expect.objectContaining({ loc: ['file'], type: 'too_long' })]);
    expect((await stored(event.id)).imageKey).toBeNull();
  }, 30_000);

  it("answers 404 for another provider's offer or an unknown id, 422 for an id that is not a number", async () => {
    const theirs = await anEvent(em(), world.testApp.clock, {
      providerId: world.other.provider.id,
      venueId: world.sandbox.venues[0].id,
    });
    const mine = await anEventOf();
    for (const [offerId, key] of [
      [theirs.id, world.sandbox.apiKey],
      [mine.id, world.other.apiKey],
      [999999, world.sandbox.apiKey],
    ] as const) {
      const response = await upload(offerId, { file: png(), key });
      expect(response.status, String(offerId)).toBe(404);
      expect(response.body).toEqual({ global: ['Offer not found'] });
    }
    expect((await stored(theirs.id)).imageKey).toBeNull();
    expect((await stored(mine.id)).imageKey).toBeNull();
    expect((await upload('abc', { file: png() })).status).toBe(422);
  });

  it("answers 404 for an event or a product once the provider's link to its venue is deactivated, and stores nothing", async () => {
    const event = await anEventOf();
    const product = await aProduct(anotherBook);
    const filesBefore = (await storedFiles()).length;
    const links = [event, product].map((offer) => ({ venue: offer.venue.id, provider: world.sandbox.provider.id }));
    for (const link of links) await em().nativeUpdate(VenueProvider, link, { isActive: false });
    try {
      for (const offer of [event, product]) {
        const response = await upload(offer.id, { file: png(), credit: 'Studio' });
        expect([response.status, response.body], String(offer.id)).toEqual([404, { global: ['Offer not found'] }]);
      }
    } finally {
      for (const link of links) await em().nativeUpdate(VenueProvider, link, { isActive: true });
    }
    expect((await stored(event.id)).imageKey).toBeNull();
    expect((await stored(product.id)).imageKey).toBeNull();
    expect((await storedFiles()).length).toBe(filesBefore);
    // Linked again, the provider sets the image.
    expect((await upload(event.id, { file: png() })).status).toBe(204);
  });

  it('answers 403 to a provider that may no longer manage individual offers', async () => {
    const event = await anEventOf();
    const response = await withoutIndividualOffersRight(world.testApp, world.sandbox.provider.id, () =>
      upload(event.id, { file: png() }),
    );
    expect(response.status).toBe(403);
    expect(response.body).toEqual(NOT_ALLOWED_INDIVIDUAL_OFFERS);
    expect((await stored(event.id)).imageKey).toBeNull();
  });
});

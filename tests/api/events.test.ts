import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventCategories } from '../../graphql/offers/catalogue/index.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { PriceCategory } from '../../graphql/offers/PriceCategory.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { Job } from '../../platform/jobs/Job.js';
import { PUBLICATION_TASK } from '../../graphql/offers/work.js';
import { expectStatus } from '../support/api.js';
import { drainJobs, graphqlAs } from '../support/builders.js';
import { aProvider } from '../support/fixtures.js';
import { aPng } from '../support/images.js';
import {
  accessibility,
  anAddress,
  anEventBody as anEventBodyAt,
  anotherSandboxKey,
  aProductBody,
  expectIssueAt,
  expectServedPng,
  expectVenueOutOfReach,
  useOfferWorld,
  withoutIndividualOffersRight,
} from '../support/offerWorld.js';

const creatable = eventCategories();
// Only online categories refuse duo bookings.
const notDuo = creatable.find((category) => !category.canBeDuo && category.requiredOnCreate.length === 0)!;
const notWithdrawable = creatable.find(
  (category) =>
    !category.canBeWithdrawable && category.requiredOnCreate.length === 0 && category.locationType !== 'ONLINE',
)!;
const onlineOnly = creatable.find(
  (category) => category.locationType === 'ONLINE' && category.requiredOnCreate.length === 0,
)!;

describe('Event Offers', () => {
  const world = useOfferWorld({ images: true });
  let internalKey: string;

  const theatre = () => world.sandbox.venues[0].id;
  const anEventBody = (overrides: Record<string, unknown> = {}) => anEventBodyAt(theatre(), overrides);
  const post = (body: unknown, key?: string) => world.api.call('PostEventOffer', { body, key });
  const patch = (id: number | string, body: unknown, key?: string) =>
    world.api.call('EditEvent', { params: { event_id: id }, body, key });
  const getOne = (id: number | string, key?: string) => world.api.call('GetEvent', { params: { event_id: id }, key });
  const list = (query: Record<string, string | number> = {}, key?: string) =>
    world.api.call('GetEvents', { query, key });
  const offerCount = () => world.em().count(Offer, {});
  const stored = (id: number) => world.em().findOneOrFail(Offer, id);
  const runPublication = () => world.testApp.runtime.scheduler.runNow(PUBLICATION_TASK);

  beforeAll(async () => {
    const em = world.em();
    internalKey = issueApiKey(em, world.testApp.clock, { env: 'test', internal: true }).key;
    await em.flush();
  });

  describe('creation', () => {
    it('creates an event published now, duo by default, with its price categories, approved at once (no delay)', async () => {
      const response = await post(
        anEventBody({
          idAtProvider: 'rock-1',
          description: 'Loud.',
          priceCategories: [
            { label: 'Pit', price: 2500, idAtProvider: 'pit' },
            { label: 'Balcony', price: 1500 },
          ],
        }),
      );
      expectStatus(response, 200);
      expect(response.body).toMatchObject({
        name: 'Rock night',
        // Approved within the creation (AUTO_APPROVAL_DELAY_SECONDS is 0): no date yet, so SOLD_OUT.
        status: 'SOLD_OUT',
        enableDoubleBookings: true,
        hasTicket: false,
        idAtProvider: 'rock-1',
        description: 'Loud.',
        location: { type: 'physical', venueId: theatre() },
        categoryRelatedFields: { category: 'CONCERT', musicType: 'ROCK', performer: 'The Demos' },
        accessibility: {
          audioDisabilityCompliant: true,
          mentalDisabilityCompliant: false,
          motorDisabilityCompliant: true,
          visualDisabilityCompliant: false,
        },
        publicationDatetime: '2026-11-22T10:00:00.000Z',
        image: null,
      });
      expect(response.body.priceCategories).toEqual([
        { id: expect.any(Number), label: 'Pit', price: 2500, idAtProvider: 'pit' },
        { id: expect.any(Number), label: 'Balcony', price: 1500, idAtProvider: null },
      ]);
      const row = await stored(response.body.id);
      expect(row).toMatchObject({
        validation: 'APPROVED',
        validationReason: 'Approved automatically outside production',
        isEvent: true,
        provider: { id: world.sandbox.provider.id },
      });
      expect(row.validatedAt?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
      expect(row.publishedAt?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
      // Nothing left for a job to approve.
      expect(await world.em().count(Job, { type: 'offers.autoApprove' })).toBe(0);
    });

    it('refuses publicationDate and publicationDatetime together (400 on publicationDate), and creates nothing', async () => {
      const before = await offerCount();
      const response = await post(
        anEventBody({ publicationDate: '2026-11-23T10:00:00Z', publicationDatetime: '2026-11-24T10:00:00Z' }),
      );
      expect([response.status, response.body]).toEqual([
        400,
        { publicationDate: ['Give publicationDatetime or the deprecated publicationDate, not both'] },
      ]);
      expect(await offerCount()).toBe(before);
      const alone = await post(anEventBody({ publicationDate: '2026-11-23T10:00:00Z' }));
      expect([alone.status, alone.body.publicationDatetime]).toEqual([200, '2026-11-23T10:00:00.000Z']);
    });

    it('schedules a future publication (SCHEDULED), applied by the publication task once due', async () => {
      const created = await post(anEventBody({ publicationDatetime: '2026-11-23T10:00:00+01:00' }));
      expect(created.status).toBe(200);
      expect(created.body.publicationDatetime).toBe('2026-11-23T09:00:00.000Z');
      await drainJobs(world.testApp);
      expect((await getOne(created.body.id)).body.status).toBe('SCHEDULED');
      await runPublication();
      expect((await getOne(created.body.id)).body.status).toBe('SCHEDULED');
      world.testApp.clock.advance(24 * 3600 * 1000);
      try {
        await runPublication();
        expect((await getOne(created.body.id)).body.status).toBe('SOLD_OUT');
      } finally {
        world.testApp.clock.set(new Date('2026-11-22T10:00:00Z'));
      }
    });

    it('records a publication to the minute, now or ahead, as pass Culture does', async () => {
      world.testApp.clock.set(new Date('2026-11-22T10:07:42.512Z'));
      try {
        const now = await post(anEventBody());
        expect(now.status).toBe(200);
        expect(now.body.publicationDatetime).toBe('2026-11-22T10:07:00.000Z');
        const ahead = await post(anEventBody({ publicationDatetime: '2026-11-23T09:15:59+01:00' }));
        expect(ahead.body.publicationDatetime).toBe('2026-11-23T08:15:00.000Z');
        for (const id of [now.body.id, ahead.body.id]) {
          const row = await stored(id);
          expect(row.publicationDatetime!.getUTCSeconds() + row.publicationDatetime!.getUTCMilliseconds()).toBe(0);
        }
      } finally {
        world.testApp.clock.set(new Date('2026-11-22T10:00:00Z'));
      }
    });

    it('never publishes with publicationDatetime null (INACTIVE), and opens booking later when asked (PUBLISHED)', async () => {
      const never = await post(anEventBody({ publicationDatetime: null }));
      const later = await post(anEventBody({ bookingAllowedDatetime: '2026-12-01T18:00:00Z' }));
      await drainJobs(world.testApp);
      expect((await getOne(never.body.id)).body.status).toBe('INACTIVE');
      expect((await getOne(later.body.id)).body).toMatchObject({
        status: 'PUBLISHED',
        bookingAllowedDatetime: '2026-12-01T18:00:00.000Z',
      });
    });

    it('refuses a publication more than two years ahead (400 on publicationDatetime), creating nothing; an edit may set one', async () => {
      // The clock reads 2026-11-22T10:00:00Z: two years ahead is 2028-11-22T10:00:00Z.
      const before = await offerCount();
      const refusal = [400, { publicationDatetime: ['A publication cannot be scheduled more than 2 years ahead'] }];
      const tooFar = await post(anEventBody({ publicationDatetime: '2028-11-22T11:01:00+01:00' }));
      expect([tooFar.status, tooFar.body]).toEqual(refusal);
      const deprecated = await post(anEventBody({ publicationDate: '2029-01-01T10:00:00Z' }));
      expect([deprecated.status, deprecated.body]).toEqual(refusal);
      expect(await offerCount()).toBe(before);
      // Recorded to the minute, 10:00:59 is the limit itself.
      const atTheLimit = await post(anEventBody({ publicationDatetime: '2028-11-22T10:00:59Z' }));
      expect([atTheLimit.status, atTheLimit.body.publicationDatetime]).toEqual([200, '2028-11-22T10:00:00.000Z']);
      const edited = await patch(atTheLimit.body.id, { publicationDatetime: '2029-06-01T10:00:00Z' });
      expect([edited.status, edited.body.publicationDatetime]).toEqual([200, '2029-06-01T10:00:00.000Z']);
      expect((await stored(atTheLimit.body.id)).publicationDatetime?.toISOString()).toBe('2029-06-01T10:00:00.000Z');
    });

    it('refuses past and naive datetimes with 422', async () => {
      const before = await offerCount();
      for (const [field, value, type] of [
        ['publicationDatetime', '2026-11-01T10:00:00Z', 'datetime_future'],
        ['publicationDatetime', '2026-12-01T10:00:00', 'invalid_format'],
        ['bookingAllowedDatetime', '2020-01-01T00:00:00+02:00', 'datetime_future'],
      ] as const) {
        const response = await post(anEventBody({ [field]: value }));
        expect(response.status, `${field} ${value}`).toBe(422);
        expect(response.body[0]).toMatchObject({ loc: [field] });
        if (type !== 'invalid_format') expect(response.body[0].type).toBe(type);
      }
      expect(await offerCount()).toBe(before);
    });

    it('validates the shape: name, required fields, unknown fields, category fields', async () => {
      const before = await offerCount();
      const cases: [Record<string, unknown>, string[], string][] = [
        [anEventBody({ name: 'x'.repeat(91) }), ['name'], 'string_too_long'],
        [{ ...anEventBody(), accessibility: undefined }, ['accessibility'], 'missing'],
        [anEventBody({ surprise: true }), ['surprise'], 'extra_forbidden'],
        [
          anEventBody({ categoryRelatedFields: { category: 'CONCERT' } }),
          ['categoryRelatedFields', 'musicType'],
          'missing',
        ],
        [
          anEventBody({ categoryRelatedFields: { category: 'CONCERT', musicType: 'POLKA-DOT' } }),
          ['categoryRelatedFields', 'musicType'],
          'union_tag_invalid',
        ],
        [
          anEventBody({ categoryRelatedFields: { category: 'SPECTACLE_REPRESENTATION', showType: 'OPERA-POLKA' } }),
          ['categoryRelatedFields', 'showType'],
          'enum',
        ],
        [anEventBody({ description: 'x'.repeat(10001) }), ['description'], 'string_too_long'],
        [anEventBody({ idAtProvider: 'x'.repeat(71) }), ['idAtProvider'], 'string_too_long'],
        [anEventBody({ eventDuration: 1440 }), ['eventDuration'], 'less_than'],
        // Past a GraphQL Int: once a 500 (found by the fuzzer).
        [anEventBody({ eventDuration: 2_147_483_648 }), ['eventDuration'], 'less_than'],
        [anEventBody({ eventDuration: 0 }), ['eventDuration'], 'greater_than'],
        [anEventBody({ bookingContact: 'not an email' }), ['bookingContact'], 'email_parsing'],
      ];
      for (const [body, loc, type] of cases) {
        // Union errors name the branch they failed in; only the place matters for them.
        expectIssueAt(await post(body), loc, type === 'union_tag_invalid' ? null : type);
      }
      expect(await offerCount()).toBe(before);
    });

    it('refuses a location that does not fit the category with 400', async () => {
      const digitalConcert = await post(
        anEventBody({
          location: { type: 'digital', venueId: world.sandbox.venues[2].id, url: 'https://live.example.com/{token}' },
        }),
      );
      expect(digitalConcert.status).toBe(400);
      expect(digitalConcert.body.location[0]).toMatch(/not online/);
      const physicalLivestream = await post(anEventBody({ categoryRelatedFields: { category: onlineOnly.id } }));
      expect(physicalLivestream.status).toBe(400);
      expect(physicalLivestream.body.location[0]).toMatch(/online only/);
    });

    it('accepts a digital location with placeholders, and an address location', async () => {
      const digital = await post(
        anEventBody({
          categoryRelatedFields: { category: onlineOnly.id },
          location: {
            type: 'digital',
            venueId: world.sandbox.venues[2].id,
            url: 'https://live.example.com/watch?token={token}&mail={email}',
          },
        }),
      );
      expect(digital.status).toBe(200);
      expect(digital.body.location).toEqual({
        type: 'digital',
        venueId: world.sandbox.venues[2].id,
        url: 'https://live.example.com/watch?token={token}&mail={email}',
      });
      const address = await anAddress(world.api);
      const atAddress = await post(
        anEventBody({
          location: { type: 'address', venueId: theatre(), addressId: address.id, addressLabel: 'Courtyard' },
        }),
      );
      expect(atAddress.status).toBe(200);
      expect(atAddress.body.location).toEqual({
        type: 'address',
        venueId: theatre(),
        addressId: address.id,
        addressLabel: 'Courtyard',
      });
      const before = await offerCount();
      const unknownAddress = await post(
        anEventBody({ location: { type: 'address', venueId: theatre(), addressId: 999999 } }),
      );
      expect([unknownAddress.status, unknownAddress.body]).toEqual([404, { global: ['Address not found'] }]);
      expect(await offerCount()).toBe(before);
    });

    it("answers 404 for another provider's venue", async () => {
      const response = await post(
        anEventBody({ location: { type: 'physical', venueId: theatre() } }),
        world.other.apiKey,
      );
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ global: ['Venue not found'] });
    });

    it('refuses duo bookings where the category does not allow them, and defaults them off there', async () => {
      const body = anEventBody({
        categoryRelatedFields: { category: notDuo.id },
        location: { type: 'digital', venueId: world.sandbox.venues[2].id, url: 'https://live.example.com/room' },
      });
      const refused = await post({ ...body, enableDoubleBookings: true });
      expect(refused.status).toBe(400);
      expect(refused.body.enableDoubleBookings[0]).toMatch(/duo/);
      const created = await post(body);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.enableDoubleBookings).toBe(false);
    });

    it('allows hasTicket only on withdrawable categories, with ticketing URLs and a booking contact', async () => {
      const wrongCategory = await post(
        anEventBody({
          hasTicket: true,
          bookingContact: 'box@example.com',
          categoryRelatedFields: { category: notWithdrawable.id },
        }),
      );
      expect(wrongCategory.status).toBe(400);
      expect(wrongCategory.body.hasTicket).toBeDefined();
      const noContact = await post(anEventBody({ hasTicket: true }));
      expect(noContact.status).toBe(400);
      expect(noContact.body.bookingContact).toBeDefined();
      const ok = await post(anEventBody({ hasTicket: true, bookingContact: 'box@example.com' }));
      expect(ok.status).toBe(200);
      expect(ok.body.hasTicket).toBe(true);

      const em = world.testApp.database.orm.em.fork();
      const provider = await em.findOneOrFail(Provider, world.sandbox.provider.id);
      provider.bookingUrl = null;
      await em.flush();
      try {
        const noUrls = await post(anEventBody({ hasTicket: true, bookingContact: 'box@example.com' }));
        expect(noUrls.status).toBe(400);
        expect(noUrls.body.hasTicket[0]).toMatch(/booking and cancellation URLs/);
      } finally {
        provider.bookingUrl = 'https://ticketing.example.com/booking';
        await em.flush();
      }
    });

    it('refuses a name that carries an EAN (400 on name), on creation and on edition, writing nothing', async () => {
      const withEan = { name: 'Le Visible - 9782070286256' };
      const before = await offerCount();
      const refused = await post(anEventBody(withEan));
      expect([refused.status, refused.body]).toEqual([
        400,
        { name: ['An offer name cannot contain an EAN: give it in categoryRelatedFields.ean'] },
      ]);
      expect(await offerCount()).toBe(before);
      const event = await post(anEventBody({ name: 'Le Visible 978207028625' }));
      expectStatus(event, 200);
      const edited = await patch(event.body.id, withEan);
      expect([edited.status, edited.body]).toEqual([
        400,
        { name: ['An offer name cannot contain an EAN: give it in categoryRelatedFields.ean'] },
      ]);
      expect((await stored(event.body.id)).name).toBe('Le Visible 978207028625');
    });

    it('refuses two price categories with the same label and price (400 on priceCategories), writing nothing', async () => {
      const before = await offerCount();
      const refused = await post(
        anEventBody({
          priceCategories: [
            { label: 'Pit', price: 2500 },
            { label: 'Balcony', price: 1500 },
            { label: 'Pit', price: 2500, idAtProvider: 'pit-2' },
          ],
        }),
      );
      expect([refused.status, refused.body]).toEqual([
        400,
        { priceCategories: ['The price category "Pit" at 2500 cents is given twice'] },
      ]);
      expect(await offerCount()).toBe(before);
      const samePriceOrLabel = await post(
        anEventBody({
          priceCategories: [
            { label: 'Pit', price: 2500 },
            { label: 'Pit', price: 2000 },
            { label: 'Balcony', price: 2500 },
          ],
        }),
      );
      expectStatus(samePriceOrLabel, 200);
      expect(await world.em().count(PriceCategory, { offer: samePriceOrLabel.body.id })).toBe(3);
    });

    it('keeps idAtProvider unique per venue (400)', async () => {
      expect((await post(anEventBody({ idAtProvider: 'unique-1' }))).status).toBe(200);
      const before = await offerCount();
      const again = await post(anEventBody({ idAtProvider: 'unique-1' }));
      expect(again.status).toBe(400);
      expect(again.body.idAtProvider[0]).toMatch(/unique-1/);
      expect(await offerCount()).toBe(before);
      const otherVenue = await post(
        anEventBody({ idAtProvider: 'unique-1', location: { type: 'physical', venueId: world.sandbox.venues[1].id } }),
      );
      expect(otherVenue.status).toBe(200);
    });

    it('takes a public video page, and refuses shorts and channels', async () => {
      const ok = await post(anEventBody({ videoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }));
      expect(ok.status).toBe(200);
      expect(ok.body.videoUrl).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
      const before = await offerCount();
      for (const videoUrl of [
        'https://www.youtube.com/shorts/dQw4w9WgXcQ',
        'https://www.youtube.com/@somechannel',
        'https://example.com/video.mp4',
      ]) {
        const refused = await post(anEventBody({ videoUrl }));
        expect(refused.status, videoUrl).toBe(422);
        expect(refused.body[0]).toMatchObject({ loc: ['videoUrl'], type: 'video_url' });
      }
      expect(await offerCount()).toBe(before);
    });

    it('stores a valid image, served at the URL it answers; refuses a bad one with 422', async () => {
      const file = aPng(400, 600).toString('base64');
      const created = await post(anEventBody({ image: { file, credit: 'Photo: A. Demo' } }));
      expect(created.status).toBe(200);
      await expectServedPng(world.testApp, created.body.image, 'Photo: A. Demo', aPng(400, 600));
      const before = await offerCount();
      const tooSmall = await post(anEventBody({ image: { file: aPng(300, 450).toString('base64') } }));
      expect(tooSmall.status).toBe(422);
      expect(tooSmall.body[0]).toMatchObject({ loc: ['image', 'file'], type: 'image_too_small' });
      const square = await post(anEventBody({ image: { file: aPng(600, 600).toString('base64') } }));
      expect(square.status).toBe(422);
      expect(square.body[0]).toMatchObject({ loc: ['image', 'file'], type: 'image_ratio' });
      expect(await offerCount()).toBe(before);
    });

    it('creates an event from the minimal body: nothing optional set, duo where the category allows it', async () => {
      const before = await offerCount();
      const response = await post({
        name: 'Le champ des possibles',
        accessibility,
        categoryRelatedFields: { category: 'RENCONTRE' },
        location: { type: 'physical', venueId: theatre() },
        hasTicket: false,
      });
      expectStatus(response, 200);
      expect(response.body).toEqual({
        id: expect.any(Number),
        name: 'Le champ des possibles',
        status: 'SOLD_OUT',
        accessibility,
        bookingAllowedDatetime: null,
        bookingContact: null,
        bookingEmail: null,
        categoryRelatedFields: { category: 'RENCONTRE' },
        description: null,
        enableDoubleBookings: true,
        eventDuration: null,
        externalTicketOfficeUrl: null,
        hasTicket: false,
        idAtProvider: null,
        image: null,
        itemCollectionDetails: null,
        location: { type: 'physical', venueId: theatre() },
        priceCategories: [],
        publicationDate: '2026-11-22T10:00:00.000Z',
        publicationDatetime: '2026-11-22T10:00:00.000Z',
        videoUrl: null,
      });
      expect(await offerCount()).toBe(before + 1);
      const row = await stored(response.body.id);
      expect(row).toMatchObject({
        category: 'RENCONTRE',
        categoryRelatedFields: {},
        isEvent: true,
        venue: { id: theatre() },
        provider: { id: world.sandbox.provider.id },
      });
      expect((await getOne(response.body.id)).body).toEqual(response.body);
    });

    it('creates an event from a full body: every field answered as sent, category fields it does not have ignored', async () => {
      const file = aPng(400, 600).toString('base64');
      const body = anEventBody({
        enableDoubleBookings: true,
        bookingContact: 'contact@example.com',
        bookingEmail: 'nicoj@example.com',
        categoryRelatedFields: {
          author: 'Ray Charles',
          category: 'CONCERT',
          musicType: 'ELECTRO-HOUSE',
          performer: 'Nicolas Jaar',
          stageDirector: 'Alfred',
        },
        description: 'Space is only noise if you can see',
        eventDuration: 120,
        accessibility: { ...accessibility, audioDisabilityCompliant: false },
        externalTicketOfficeUrl: 'https://maposaic.example.com',
        image: { credit: 'Jean-Crédit Photo', file },
        videoUrl: 'https://www.youtube.com/watch?v=YPCOQslGx-I',
        itemCollectionDetails: 'At the box office, from midnight to 2',
        name: 'Nicolas Jaar in your living room',
        priceCategories: [{ price: 30000, label: 'Gold triangle', idAtProvider: 'gold_triangle' }],
        hasTicket: true,
        idAtProvider: 'a fine id',
      });
      const response = await post(body);
      expectStatus(response, 200);
      const priceCategory = await world.em().findOneOrFail(PriceCategory, { offer: response.body.id });
      expect(response.body).toEqual({
        id: expect.any(Number),
        name: 'Nicolas Jaar in your living room',
        status: 'SOLD_OUT',
        accessibility: { ...accessibility, audioDisabilityCompliant: false },
        bookingAllowedDatetime: null,
        bookingContact: 'contact@example.com',
        bookingEmail: 'nicoj@example.com',
        categoryRelatedFields: {
          author: 'Ray Charles',
          category: 'CONCERT',
          musicType: 'ELECTRO-HOUSE',
          performer: 'Nicolas Jaar',
        },
        description: 'Space is only noise if you can see',
        enableDoubleBookings: true,
        eventDuration: 120,
        externalTicketOfficeUrl: 'https://maposaic.example.com',
        hasTicket: true,
        idAtProvider: 'a fine id',
        image: { url: expect.any(String), credit: 'Jean-Crédit Photo' },
        itemCollectionDetails: 'At the box office, from midnight to 2',
        location: { type: 'physical', venueId: theatre() },
        priceCategories: [
          { id: priceCategory.id, price: 30000, label: 'Gold triangle', idAtProvider: 'gold_triangle' },
        ],
        publicationDate: '2026-11-22T10:00:00.000Z',
        publicationDatetime: '2026-11-22T10:00:00.000Z',
        videoUrl: 'https://www.youtube.com/watch?v=YPCOQslGx-I',
      });
      await expectServedPng(world.testApp, response.body.image, 'Jean-Crédit Photo', aPng(400, 600));
      const row = await stored(response.body.id);
      expect(row.categoryRelatedFields).toEqual({
        author: 'Ray Charles',
        musicType: 'ELECTRO-HOUSE',
        performer: 'Nicolas Jaar',
      });
      expect((await getOne(response.body.id)).body).toEqual(response.body);
    });

    it('takes Titelive and former music types, answered as sent; the former OTHER is recorded as AUTRES, as pass Culture does', async () => {
      for (const [sent, answered] of [
        ['MUSIQUE_CLASSIQUE', 'MUSIQUE_CLASSIQUE'],
        ['METAL', 'METAL'],
        ['JAZZ-BLUES', 'JAZZ-BLUES'],
        ['METAL-DOOM_METAL', 'METAL-DOOM_METAL'],
        ['OTHER', 'AUTRES'],
      ]) {
        const created = await post(
          anEventBody({
            categoryRelatedFields: { category: 'CONCERT', musicType: sent },
            priceCategories: [{ price: 0, label: 'Free' }],
          }),
        );
        expectStatus(created, 200);
        expect(created.body.priceCategories[0].price).toBe(0);
        expect(created.body.categoryRelatedFields, sent).toEqual({ category: 'CONCERT', musicType: answered });
        expect((await stored(created.body.id)).categoryRelatedFields, sent).toEqual({ musicType: answered });
        expect((await getOne(created.body.id)).body.categoryRelatedFields, sent).toEqual({
          category: 'CONCERT',
          musicType: answered,
        });
      }
      const event = await post(anEventBody());
      const edited = await patch(event.body.id, { categoryRelatedFields: { category: 'CONCERT', musicType: 'OTHER' } });
      expectStatus(edited, 200);
      expect(edited.body.categoryRelatedFields.musicType).toBe('AUTRES');
    });

    it('answers the publication and booking datetimes it records: a datetime, now, absent or null', async () => {
      const cases: [Record<string, unknown>, string | null, string | null][] = [
        [{ publicationDatetime: '2026-12-01T08:00:00+02:00' }, '2026-12-01T06:00:00.000Z', null],
        [{ publicationDatetime: 'now' }, '2026-11-22T10:00:00.000Z', null],
        [{}, '2026-11-22T10:00:00.000Z', null],
        [{ publicationDatetime: null }, null, null],
        [
          { bookingAllowedDatetime: '2026-12-01T08:00:00+02:00' },
          '2026-11-22T10:00:00.000Z',
          '2026-12-01T06:00:00.000Z',
        ],
        [{ bookingAllowedDatetime: null }, '2026-11-22T10:00:00.000Z', null],
        [{ publicationDate: '2026-11-26T14:30:00+02:00' }, '2026-11-26T12:30:00.000Z', null],
        [{ publicationDate: '2026-11-26T14:30:00Z' }, '2026-11-26T14:30:00.000Z', null],
      ];
      for (const [sent, publication, booking] of cases) {
        const response = await post(anEventBody(sent));
        expectStatus(response, 200);
        expect([response.body.publicationDatetime, response.body.bookingAllowedDatetime], JSON.stringify(sent)).toEqual(
          [publication, booking],
        );
        const row = await stored(response.body.id);
        expect(
          [row.publicationDatetime?.toISOString() ?? null, row.bookingAllowedDatetime?.toISOString() ?? null],
          JSON.stringify(sent),
        ).toEqual([publication, booking]);
      }
    });

    it('refuses naive booking datetimes, NOW in capitals, and ill-formed locations and price categories with 422, writing nothing', async () => {
      const before = await offerCount();
      const stocksBefore = await world.em().count(Stock, {});
      const cases: [Record<string, unknown>, string[], string | null][] = [
        [anEventBody({ name: null }), ['name'], 'string_type'],
        [anEventBody({ bookingAllowedDatetime: '2027-01-01T00:00:00' }), ['bookingAllowedDatetime'], 'timezone_aware'],
        [anEventBody({ publicationDate: '2027-01-01T00:00:00' }), ['publicationDate'], 'timezone_aware'],
        [anEventBody({ publicationDatetime: 'NOW' }), ['publicationDatetime'], null],
        [
          anEventBody({ location: { type: 'address', venueId: theatre(), addressId: 'coucou' } }),
          ['location', 'addressId'],
          'int_parsing',
        ],
        [
          anEventBody({ location: { type: 'address', venueId: theatre(), addressId: 1, addressLabel: '' } }),
          ['location', 'addressLabel'],
          'string_too_short',
        ],
        [
          anEventBody({
            location: { type: 'address', venueId: theatre(), addressId: 1, addressLabel: 'a'.repeat(201) },
          }),
          ['location', 'addressLabel'],
          'string_too_long',
        ],
        [
          anEventBody({ location: { type: 'digital', venueId: theatre(), url: 'not a url' } }),
          ['location', 'url'],
          null,
        ],
        [
          anEventBody({
            priceCategories: Array.from({ length: 51 }, (_, index) => ({ price: index * 100, label: `Rate ${index}` })),
          }),
          ['priceCategories'],
          'too_long',
        ],
      ];
      for (const [body, loc, type] of cases) expectIssueAt(await post(body), loc, type);
      expect(await offerCount()).toBe(before);
      expect(await world.em().count(Stock, {})).toBe(stocksBefore);
    });

    it('refuses two price categories with the same idAtProvider (400 on priceCategories); two without one are fine', async () => {
      const before = await offerCount();
      const refused = await post(
        anEventBody({
          priceCategories: [
            { price: 30000, label: 'Gold', idAtProvider: 'same' },
            { price: 15000, label: 'Silver', idAtProvider: 'same' },
          ],
        }),
      );
      expect([refused.status, refused.body]).toEqual([
        400,
        { priceCategories: ['The idAtProvider same is given twice'] },
      ]);
      expect(await offerCount()).toBe(before);
      const withoutIds = await post(
        anEventBody({
          priceCategories: [
            { price: 30000, label: 'Gold', idAtProvider: null },
            { price: 15000, label: 'Silver', idAtProvider: null },
          ],
        }),
      );
      expectStatus(withoutIds, 200);
      expect(withoutIds.body.priceCategories.map((one: { idAtProvider: string | null }) => one.idAtProvider)).toEqual([
        null,
        null,
      ]);
    });

    it("takes the venue's ticketing URLs when the provider has none; without any, an event without tickets is fine", async () => {
      const em = world.testApp.database.orm.em.fork();
      const provider = await em.findOneOrFail(Provider, world.sandbox.provider.id);
      const link = await em.findOneOrFail(VenueProvider, { venue: theatre(), provider: provider.id });
      provider.bookingUrl = null;
      await em.flush();
      try {
        const festival = {
          categoryRelatedFields: { category: 'FESTIVAL_ART_VISUEL' },
          bookingContact: 'box@example.com',
        };
        const withoutTickets = await post(anEventBody({ ...festival, hasTicket: false }));
        expectStatus(withoutTickets, 200);
        expect(withoutTickets.body.hasTicket).toBe(false);
        const refused = await post(anEventBody({ ...festival, hasTicket: true }));
        expect(refused.status).toBe(400);
        link.bookingUrl = 'https://venue.example.com/booking';
        link.cancelUrl = 'https://venue.example.com/cancel';
        await em.flush();
        const atVenueLevel = await post(anEventBody({ ...festival, hasTicket: true }));
        expectStatus(atVenueLevel, 200);
        expect(atVenueLevel.body.hasTicket).toBe(true);
        expect((await getOne(atVenueLevel.body.id)).body.hasTicket).toBe(true);
      } finally {
        provider.bookingUrl = 'https://ticketing.example.com/booking';
        link.bookingUrl = null;
        link.cancelUrl = null;
        await em.flush();
      }
    });

    it('answers 401 without a key, on creation, reading and listing, and writes nothing', async () => {
      const before = await offerCount();
      const created = await post(anEventBody());
      for (const response of [
        await post(anEventBody(), null as unknown as string),
        await getOne(created.body.id, null as unknown as string),
        await list({}, null as unknown as string),
      ]) {
        expect([response.status, response.body]).toEqual([401, { auth: 'API key required' }]);
      }
      expect(await offerCount()).toBe(before + 1);
    });

    it('answers 404 to create at, or list, a venue whose link to the provider is inactive', async () => {
      const em = world.testApp.database.orm.em.fork();
      const link = await em.findOneOrFail(VenueProvider, { venue: theatre(), provider: world.sandbox.provider.id });
      link.isActive = false;
      await em.flush();
      try {
        const before = await offerCount();
        const created = await post(anEventBody());
        expect([created.status, created.body]).toEqual([404, { global: ['Venue not found'] }]);
        expect(await offerCount()).toBe(before);
        const listed = await list({ venueId: theatre() });
        expect([listed.status, listed.body]).toEqual([404, { global: ['Venue not found'] }]);
      } finally {
        link.isActive = true;
        await em.flush();
      }
    });
  });

  describe('reading', () => {
    it('answers 404 to read an event whose venue link to the provider is inactive, and reads it again once active', async () => {
      const created = await post(anEventBody());
      expectStatus(created, 200);
      const em = world.testApp.database.orm.em.fork();
      const link = await em.findOneOrFail(VenueProvider, { venue: theatre(), provider: world.sandbox.provider.id });
      link.isActive = false;
      await em.flush();
      try {
        const read = await getOne(created.body.id);
        expect([read.status, read.body]).toEqual([404, { global: ['Event offer not found'] }]);
      } finally {
        link.isActive = true;
        await em.flush();
      }
      expectStatus(await getOne(created.body.id), 200);
    });

    it("reads one event; another provider's is 404", async () => {
      const created = await post(anEventBody());
      const read = await getOne(created.body.id);
      expectStatus(read, 200);
      expect(read.body).toEqual(created.body);
      expect((await getOne(created.body.id, world.other.apiKey)).status).toBe(404);
      expect((await getOne(999999)).status).toBe(404);
      expect((await getOne('abc')).status).toBe(422);
    });

    it('lists events a page at a time, with filters', async () => {
      const all = await list();
      expect(all.status).toBe(200);
      const ids = all.body.events.map((event: { id: number }) => event.id);
      expect(ids.length).toBeGreaterThan(5);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
      const firstPage = await list({ limit: 2 });
      expect(firstPage.body.events.map((event: { id: number }) => event.id)).toEqual(ids.slice(0, 2));
      const nextPage = await list({ limit: 2, firstIndex: ids[1] + 1 });
      expect(nextPage.body.events.map((event: { id: number }) => event.id)).toEqual(ids.slice(2, 4));
      const byVenue = await list({ venueId: world.sandbox.venues[1].id });
      expect(
        byVenue.body.events.every(
          (event: { location: { venueId: number } }) => event.location.venueId === world.sandbox.venues[1].id,
        ),
      ).toBe(true);
      const byIds = await list({ idsAtProvider: 'rock-1,unique-1' });
      expect(byIds.body.events.map((event: { idAtProvider: string }) => event.idAtProvider).sort()).toEqual([
        'rock-1',
        'unique-1',
        'unique-1',
      ]);
      expect((await list({}, world.other.apiKey)).body.events).toEqual([]);
      // Products are not events.
      const product = await world.api.call('PostProductOffer', { body: aProductBody(theatre()) });
      expectStatus(product, 201);
      const atTheatre = await list({ venueId: theatre() });
      expect(atTheatre.body.events.map((event: { id: number }) => event.id)).not.toContain(product.body.id);
      // By address: only the events at that address.
      const address = await anAddress(world.api);
      const there = await post(
        anEventBody({ location: { type: 'address', venueId: theatre(), addressId: address.id } }),
      );
      const byAddress = await list({ addressId: address.id });
      expect(byAddress.body.events.map((event: { id: number }) => event.id)).toEqual([there.body.id]);
      expect((await list({ addressId: 999999 })).body.events).toEqual([]);
    });

    it('reads events of a category no longer creatable, or without their category fields', async () => {
      const retired = await post(anEventBody());
      await world
        .em()
        .nativeUpdate(Offer, retired.body.id, { category: 'DECOUVERTE_METIERS', categoryRelatedFields: {} });
      const readRetired = await getOne(retired.body.id);
      expectStatus(readRetired, 200);
      expect(readRetired.body.categoryRelatedFields).toEqual({ category: 'DECOUVERTE_METIERS' });
      const bare = await post(anEventBody());
      await world.em().nativeUpdate(Offer, bare.body.id, { categoryRelatedFields: {} });
      const readBare = await getOne(bare.body.id);
      expectStatus(readBare, 200);
      expect(readBare.body.categoryRelatedFields).toEqual({ category: 'CONCERT' });
    });

    it('lists events whose stored contact, URL and category fields are odd, rather than failing', async () => {
      const odd = await post(anEventBody({ idAtProvider: 'odd-1' }));
      await world.em().nativeUpdate(Offer, odd.body.id, {
        bookingContact: 'nonValidEmail@email',
        bookingEmail: 'another@non.valid;email',
        externalTicketOfficeUrl: 'http:/invalidUrl.www',
        categoryRelatedFields: { musicType: 'ROCK' },
      });
      const listed = await list({ idsAtProvider: 'odd-1' });
      expectStatus(listed, 200);
      expect(listed.body.events).toHaveLength(1);
      expect(listed.body.events[0]).toMatchObject({
        id: odd.body.id,
        bookingContact: 'nonValidEmail@email',
        bookingEmail: 'another@non.valid;email',
        externalTicketOfficeUrl: 'http:/invalidUrl.www',
        categoryRelatedFields: { category: 'CONCERT', musicType: 'ROCK' },
      });
    });

    it('answers 404 for a venue the key does not reach, rather than an empty page', async () => {
      await expectVenueOutOfReach(list, theatre(), world.other.apiKey);
    });

    it('refuses bad pagination with 422', async () => {
      const queries: Record<string, string | number>[] = [
        { limit: 0 },
        { limit: 51 },
        { firstIndex: 0 },
        { idsAtProvider: Array.from({ length: 101 }, (_, i) => `id${i}`).join(',') },
      ];
      for (const query of queries) {
        const response = await list(query);
        expect(response.status, JSON.stringify(query)).toBe(422);
      }
    });
  });

  describe('edition', () => {
    it('changes the fields sent, clears clearable ones with null, refuses null elsewhere', async () => {
      const created = await post(anEventBody({ description: 'Before', bookingEmail: 'a@example.com' }));
      const edited = await patch(created.body.id, {
        name: 'Rock night, again',
        description: null,
        categoryRelatedFields: { category: 'CONCERT', performer: 'Others' },
      });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({
        name: 'Rock night, again',
        description: null,
        bookingEmail: 'a@example.com',
        categoryRelatedFields: { category: 'CONCERT', musicType: 'ROCK', performer: 'Others' },
      });
      const nullName = await patch(created.body.id, { name: null });
      expect(nullName.status).toBe(422);
      expect(nullName.body[0].loc).toEqual(['name']);
      expect((await stored(created.body.id)).name).toBe('Rock night, again');
      expect((await patch(created.body.id, { name: 'x'.repeat(141) })).status).toBe(422);
      expect((await patch(created.body.id, { name: 'x'.repeat(140) })).status).toBe(200);
    });

    it('refuses an eventDuration out of range, past a 32-bit integer too, with 422 on the field', async () => {
      const created = await post(anEventBody({ eventDuration: 90 }));
      for (const eventDuration of [0, 1440, 2_147_483_648]) {
        const refused = await patch(created.body.id, { eventDuration });
        expect(refused.status, JSON.stringify(refused.body)).toBe(422);
        expect(refused.body[0].loc).toEqual(['eventDuration']);
      }
      expect((await stored(created.body.id)).eventDuration).toBe(90);
    });

    it('never changes the category or hasTicket (400)', async () => {
      const created = await post(anEventBody());
      const category = await patch(created.body.id, { categoryRelatedFields: { category: 'SEANCE_CINE' } });
      expect(category.status).toBe(400);
      const ticket = await patch(created.body.id, { hasTicket: true });
      expect(ticket.status).toBe(422);
    });

    it('deactivates with isActive false (INACTIVE), and republishes later', async () => {
      const created = await post(anEventBody());
      const inactive = await patch(created.body.id, { isActive: false });
      expect(inactive.body.status).toBe('INACTIVE');
      const scheduled = await patch(created.body.id, {
        isActive: true,
        publicationDatetime: '2026-12-24T20:00:00+01:00',
      });
      expect(scheduled.body).toMatchObject({ status: 'SCHEDULED', publicationDatetime: '2026-12-24T19:00:00.000Z' });
      const now = await patch(created.body.id, { publicationDatetime: 'now' });
      expect(now.body.status).toBe('SOLD_OUT');
    });

    it('lets isActive drive the publication when no publicationDatetime is sent; isActive null changes nothing', async () => {
      const created = await post(anEventBody({ publicationDatetime: '2026-12-24T20:00:00Z' }));
      expect(created.body.status).toBe('SCHEDULED');
      // true: published now, the scheduled publication replaced.
      world.testApp.clock.advance(3600 * 1000);
      try {
        const active = await patch(created.body.id, { isActive: true });
        expectStatus(active, 200);
        expect(active.body).toMatchObject({ status: 'SOLD_OUT', publicationDatetime: '2026-11-22T11:00:00.000Z' });
        expect((await stored(created.body.id)).publishedAt?.toISOString()).toBe('2026-11-22T11:00:00.000Z');
        // false: withdrawn, never to be published.
        const inactive = await patch(created.body.id, { isActive: false });
        expect(inactive.body).toMatchObject({ status: 'INACTIVE', publicationDatetime: null });
        const row = await stored(created.body.id);
        expect([row.isActive, row.publicationDatetime, row.publishedAt]).toEqual([false, null, null]);
        // null: as if absent.
        const untouched = await patch(created.body.id, { isActive: null, name: 'Renamed' });
        expectStatus(untouched, 200);
        expect(untouched.body).toMatchObject({ name: 'Renamed', status: 'INACTIVE', publicationDatetime: null });
        expect((await stored(created.body.id)).isActive).toBe(false);
        // A publicationDatetime sent wins over isActive.
        const both = await patch(created.body.id, { isActive: true, publicationDatetime: '2026-12-01T10:00:00Z' });
        expect(both.body).toMatchObject({ status: 'SCHEDULED', publicationDatetime: '2026-12-01T10:00:00.000Z' });
      } finally {
        world.testApp.clock.set(new Date('2026-11-22T10:00:00Z'));
      }
    });

    it("answers 404 for another provider's event", async () => {
      const created = await post(anEventBody());
      const response = await patch(created.body.id, { name: 'Stolen' }, world.other.apiKey);
      expect(response.status).toBe(404);
      expect((await stored(created.body.id)).name).toBe('Rock night');
    });
  });

  describe('edition, field by field as pass Culture edits an event', () => {
    // A key of its own for each test: these tests make more calls than a key may make in a minute.
    let key: string;
    beforeEach(async () => {
      key = await anotherSandboxKey(world);
    });
    const create = (body: unknown, as = key) => world.api.call('PostEventOffer', { body, key: as });
    const edit = (id: number | string, body: unknown, as = key) =>
      world.api.call('EditEvent', { params: { event_id: id }, body, key: as });
    const read = (id: number) => world.api.call('GetEvent', { params: { event_id: id }, key });
    const cinema = (overrides: Record<string, unknown> = {}) =>
      anEventBody({
        name: 'The 400 Blows',
        categoryRelatedFields: { category: 'SEANCE_CINE', stageDirector: 'François Truffaut', visa: '22757' },
        description: 'A boy runs away.',
        bookingEmail: 'notify@cinema.example.com',
        bookingContact: 'contact@cinema.example.com',
        itemCollectionDetails: 'At the box office',
        eventDuration: 99,
        ...overrides,
      });
    const aCinemaEvent = async (overrides: Record<string, unknown> = {}) => {
      const created = await create(cinema(overrides));
      expectStatus(created, 200);
      return created.body as Record<string, unknown> & { id: number };
    };
    let idCounter = 0;
    const nextId = () => `screening-${(idCounter += 1)}`;

    it('changes each field sent alone (200), answered and stored, the others untouched', async () => {
      const event = await aCinemaEvent({ idAtProvider: nextId() });
      const changes: [string, unknown][] = [
        ['name', 'Jules and Jim'],
        ['description', 'Two friends in love with the same woman.'],
        ['bookingEmail', 'new-address@cinema.example.com'],
        ['bookingContact', 'new-contact@cinema.example.com'],
        ['itemCollectionDetails', 'At the machine in the hall'],
        ['eventDuration', 105],
        ['externalTicketOfficeUrl', 'https://cinema.example.com/tickets'],
        ['idAtProvider', nextId()],
      ];
      let before = event;
      for (const [field, value] of changes) {
        const edited = await edit(event.id, { [field]: value });
        expectStatus(edited, 200);
        expect(edited.body).toEqual({ ...before, [field]: value });
        expect((await stored(event.id))[field as keyof Offer]).toEqual(value);
        before = edited.body;
      }
      // An idAtProvider another venue's offer has is fine.
      const elsewhere = nextId();
      expectStatus(await create(anEventBodyAt(world.sandbox.venues[1].id, { idAtProvider: elsewhere })), 200);
      const shared = await edit(event.id, { idAtProvider: elsewhere });
      expectStatus(shared, 200);
      expect((await stored(event.id)).idAtProvider).toBe(elsewhere);
    });

    it('clears with null each field an event may be without (200), answered and stored null', async () => {
      const event = await aCinemaEvent({
        idAtProvider: nextId(),
        publicationDatetime: 'now',
        bookingAllowedDatetime: '2026-12-01T10:00:00Z',
      });
      for (const field of [
        'description',
        'bookingEmail',
        'bookingContact',
        'itemCollectionDetails',
        'eventDuration',
        'idAtProvider',
        'publicationDatetime',
        'bookingAllowedDatetime',
      ]) {
        expect(event[field]).not.toBeNull();
        const cleared = await edit(event.id, { [field]: null });
        expectStatus(cleared, 200);
        expect((cleared.body as Record<string, unknown>)[field]).toBeNull();
        expect((await stored(event.id))[field as keyof Offer]).toBeNull();
      }
    });

    it('changes every accessibility flag, or one and keeps the others, and toggles duo bookings (200)', async () => {
      const event = await aCinemaEvent();
      const flipped = {
        audioDisabilityCompliant: false,
        mentalDisabilityCompliant: true,
        motorDisabilityCompliant: false,
        visualDisabilityCompliant: true,
      };
      const all = await edit(event.id, { accessibility: flipped });
      expectStatus(all, 200);
      expect(all.body.accessibility).toEqual(flipped);
      const one = await edit(event.id, { accessibility: { audioDisabilityCompliant: true } });
      expect(one.body.accessibility).toEqual({ ...flipped, audioDisabilityCompliant: true });
      const row = await stored(event.id);
      expect([row.audioDisabilityCompliant, row.mentalDisabilityCompliant]).toEqual([true, true]);
      for (const enableDoubleBookings of [false, true]) {
        const duo = await edit(event.id, { enableDoubleBookings });
        expectStatus(duo, 200);
        expect(duo.body.enableDoubleBookings).toBe(enableDoubleBookings);
        expect((await stored(event.id)).enableDoubleBookings).toBe(enableDoubleBookings);
      }
    });

    it('refuses (400) an accessibility flag sent null, alone or with others, and changes nothing', async () => {
      const event = await aCinemaEvent({ name: 'Unchanged' });
      const before = (await read(event.id)).body;
      for (const accessibility of [
        { audioDisabilityCompliant: null },
        { audioDisabilityCompliant: false, visualDisabilityCompliant: null },
      ]) {
        const refused = await edit(event.id, { name: 'Changed', accessibility });
        expect([refused.status, refused.body], JSON.stringify(accessibility)).toEqual([
          400,
          { global: ["The offer's accessibility must be defined"] },
        ]);
      }
      expect((await read(event.id)).body).toEqual(before);
      expect((await stored(event.id)).name).toBe('Unchanged');
    });

    it('changes many fields at once, the datetimes sent in +02:00 stored in UTC', async () => {
      const event = await aCinemaEvent();
      const edited = await edit(event.id, {
        name: 'Jules and Jim',
        description: 'Two friends.',
        bookingEmail: 'new-address@cinema.example.com',
        bookingContact: 'new-contact@cinema.example.com',
        itemCollectionDetails: 'At the machine in the hall',
        eventDuration: 105,
        externalTicketOfficeUrl: 'https://cinema.example.com/tickets',
        enableDoubleBookings: false,
        idAtProvider: 'evening-screening',
        accessibility: {
          audioDisabilityCompliant: false,
          mentalDisabilityCompliant: true,
          motorDisabilityCompliant: false,
          visualDisabilityCompliant: true,
        },
        categoryRelatedFields: { category: 'SEANCE_CINE', stageDirector: 'Jean-Luc Godard', visa: '27414' },
        publicationDatetime: '2026-12-01T08:00:00+02:00',
        bookingAllowedDatetime: '2026-12-15T10:00:00+02:00',
      });
      expectStatus(edited, 200);
      const row = await stored(event.id);
      expect({
        name: row.name,
        eventDuration: row.eventDuration,
        enableDoubleBookings: row.enableDoubleBookings,
        idAtProvider: row.idAtProvider,
        mental: row.mentalDisabilityCompliant,
        categoryRelatedFields: row.categoryRelatedFields,
        externalTicketOfficeUrl: row.externalTicketOfficeUrl,
        publicationDatetime: row.publicationDatetime?.toISOString(),
        bookingAllowedDatetime: row.bookingAllowedDatetime?.toISOString(),
      }).toEqual({
        name: 'Jules and Jim',
        eventDuration: 105,
        enableDoubleBookings: false,
        idAtProvider: 'evening-screening',
        mental: true,
        categoryRelatedFields: { stageDirector: 'Jean-Luc Godard', visa: '27414' },
        externalTicketOfficeUrl: 'https://cinema.example.com/tickets',
        publicationDatetime: '2026-12-01T06:00:00.000Z',
        bookingAllowedDatetime: '2026-12-15T08:00:00.000Z',
      });
      expect(edited.body).toMatchObject({
        status: 'SCHEDULED',
        publicationDatetime: '2026-12-01T06:00:00.000Z',
        bookingAllowedDatetime: '2026-12-15T08:00:00.000Z',
      });
    });

    it('changes the category fields sent and keeps the others; null, the category alone or an unknown field change nothing', async () => {
      const event = await aCinemaEvent();
      const both = await edit(event.id, {
        categoryRelatedFields: { category: 'SEANCE_CINE', stageDirector: 'Jean-Luc Godard', visa: '27414' },
      });
      expectStatus(both, 200);
      expect(both.body.categoryRelatedFields).toEqual({
        category: 'SEANCE_CINE',
        stageDirector: 'Jean-Luc Godard',
        visa: '27414',
      });
      const one = await edit(event.id, { categoryRelatedFields: { category: 'SEANCE_CINE', visa: '11111' } });
      expect(one.body.categoryRelatedFields.stageDirector).toBe('Jean-Luc Godard');
      const empty = await edit(event.id, { categoryRelatedFields: { category: 'SEANCE_CINE', stageDirector: '' } });
      expect(empty.body.categoryRelatedFields.stageDirector).toBe('');
      expect((await stored(event.id)).categoryRelatedFields).toEqual({ stageDirector: '', visa: '11111' });
      const unknown = await edit(event.id, {
        categoryRelatedFields: { category: 'SEANCE_CINE', stageDirector: 'Agnès Varda', producer: 'Marcel Berbert' },
      });
      expectStatus(unknown, 200);
      expect(unknown.body.categoryRelatedFields).toEqual({
        category: 'SEANCE_CINE',
        stageDirector: 'Agnès Varda',
        visa: '11111',
      });
      for (const categoryRelatedFields of [null, { category: 'SEANCE_CINE' }]) {
        const unchanged = await edit(event.id, { categoryRelatedFields });
        expectStatus(unchanged, 200);
        expect(unchanged.body).toEqual(unknown.body);
      }
      expect((await stored(event.id)).categoryRelatedFields).toEqual({ stageDirector: 'Agnès Varda', visa: '11111' });
    });

    it('answers a music type and a show type sent as their slugs, the other fields kept', async () => {
      const concert = await create(
        anEventBody({ categoryRelatedFields: { category: 'CONCERT', musicType: 'ROCK', author: 'Ray Charles' } }),
      );
      const jazz = await edit(concert.body.id, {
        categoryRelatedFields: { category: 'CONCERT', musicType: 'JAZZ-BLUES' },
      });
      expectStatus(jazz, 200);
      expect(jazz.body.categoryRelatedFields).toEqual({
        category: 'CONCERT',
        author: 'Ray Charles',
        musicType: 'JAZZ-BLUES',
      });
      const show = await create(
        anEventBody({ categoryRelatedFields: { category: 'SPECTACLE_REPRESENTATION', showType: 'OPERA-GRAND_OPERA' } }),
      );
      const opera = await edit(show.body.id, {
        categoryRelatedFields: { category: 'SPECTACLE_REPRESENTATION', showType: 'OPERA-SINGSPIEL' },
      });
      expectStatus(opera, 200);
      expect(opera.body.categoryRelatedFields).toEqual({
        category: 'SPECTACLE_REPRESENTATION',
        showType: 'OPERA-SINGSPIEL',
      });
    });

    it('moves an event to another venue of the key, physical or at an address; location: null changes nothing', async () => {
      const event = await aCinemaEvent();
      const bookshop = world.sandbox.venues[1].id;
      const unchanged = await edit(event.id, { location: null });
      expectStatus(unchanged, 200);
      expect(unchanged.body.location).toEqual({ type: 'physical', venueId: theatre() });
      const moved = await edit(event.id, { location: { type: 'physical', venueId: bookshop } });
      expectStatus(moved, 200);
      expect(moved.body.location).toEqual({ type: 'physical', venueId: bookshop });
      expect((await stored(event.id)).venue.id).toBe(bookshop);
      const address = await anAddress(world.api);
      const back = await edit(event.id, { location: { type: 'address', venueId: theatre(), addressId: address.id } });
      expectStatus(back, 200);
      expect(back.body.location).toEqual({
        type: 'address',
        venueId: theatre(),
        addressId: address.id,
        addressLabel: null,
      });
      expect((await stored(event.id)).venue.id).toBe(theatre());
      const labelled = await edit(event.id, {
        location: { type: 'address', venueId: theatre(), addressId: address.id, addressLabel: 'Truffaut room' },
      });
      expect(labelled.body.location).toEqual({
        type: 'address',
        venueId: theatre(),
        addressId: address.id,
        addressLabel: 'Truffaut room',
      });
      expect((await read(event.id)).body.location.addressLabel).toBe('Truffaut room');
      // A key the location does not have is ignored, as the contract's locations do not forbid one.
      const misspelt = await edit(event.id, {
        location: { type: 'address', venueId: theatre(), addressId: address.id, adressLabel: 'Typo room' },
      });
      expectStatus(misspelt, 200);
      expect(misspelt.body.location).toEqual({
        type: 'address',
        venueId: theatre(),
        addressId: address.id,
        addressLabel: null,
      });
    });

    it('answers 404 for a location at a venue out of reach or whose link is inactive, or at an unknown address, changing nothing', async () => {
      const event = await aCinemaEvent();
      const outOfReach = await edit(event.id, { name: 'Moved?', location: { type: 'physical', venueId: 999999 } });
      expect([outOfReach.status, outOfReach.body]).toEqual([404, { global: ['Venue not found'] }]);
      const unknownAddress = await edit(event.id, {
        name: 'Moved?',
        location: { type: 'address', venueId: theatre(), addressId: 999999 },
      });
      expect([unknownAddress.status, unknownAddress.body]).toEqual([404, { global: ['Address not found'] }]);
      const em = world.testApp.database.orm.em.fork();
      const link = await em.findOneOrFail(VenueProvider, {
        venue: world.sandbox.venues[1].id,
        provider: world.sandbox.provider.id,
      });
      link.isActive = false;
      await em.flush();
      try {
        const inactive = await edit(event.id, {
          name: 'Moved?',
          location: { type: 'physical', venueId: world.sandbox.venues[1].id },
        });
        expect([inactive.status, inactive.body]).toEqual([404, { global: ['Venue not found'] }]);
      } finally {
        link.isActive = true;
        await em.flush();
      }
      const row = await stored(event.id);
      expect([row.name, row.venue.id]).toEqual(['The 400 Blows', theatre()]);
    });

    it('adds an image with its credit, that image: null keeps', async () => {
      const event = await aCinemaEvent();
      const png = aPng(400, 600);
      const added = await edit(event.id, { image: { file: png.toString('base64'), credit: 'Les Films du Carrosse' } });
      expectStatus(added, 200);
      await expectServedPng(world.testApp, added.body.image, 'Les Films du Carrosse', png);
      const kept = await edit(event.id, { image: null });
      expectStatus(kept, 200);
      expect(kept.body.image).toEqual(added.body.image);
      expect((await read(event.id)).body.image).toEqual(added.body.image);
    });

    it('adds, replaces, keeps and removes a video', async () => {
      const event = await aCinemaEvent();
      const first = 'https://www.youtube.com/watch?v=fW6goBu8aP0';
      const second = 'https://www.youtube.com/watch?v=ECNtXXewvHY';
      for (const videoUrl of [first, second]) {
        const set = await edit(event.id, { videoUrl });
        expectStatus(set, 200);
        expect(set.body.videoUrl).toBe(videoUrl);
        expect((await stored(event.id)).videoUrl).toBe(videoUrl);
      }
      const kept = await edit(event.id, { name: 'Jules and Jim' });
      expect(kept.body.videoUrl).toBe(second);
      const removed = await edit(event.id, { videoUrl: null });
      expectStatus(removed, 200);
      expect(removed.body.videoUrl).toBeNull();
      expect((await stored(event.id)).videoUrl).toBeNull();
    });

    it('answers the new status: INACTIVE, SCHEDULED (isActive false loses to a datetime), PUBLISHED or ACTIVE', async () => {
      const statusAfter = async (body: Record<string, unknown>) => {
        const event = await aCinemaEvent({ publicationDatetime: 'now' });
        const em = world.testApp.database.orm.em.fork();
        const priceCategory = em.create(PriceCategory, {
          offer: event.id,
          label: 'Seat',
          price: 1000,
          createdAt: world.testApp.clock.now(),
        });
        await em.flush();
        em.create(Stock, {
          offer: event.id,
          priceCategory: priceCategory.id,
          beginningDatetime: new Date('2026-12-20T20:00:00Z'),
          bookingLimitDatetime: new Date('2026-12-20T20:00:00Z'),
          price: 1000,
          quantity: 10,
          bookedQuantity: 0,
          isDeleted: false,
          createdAt: world.testApp.clock.now(),
          updatedAt: world.testApp.clock.now(),
        });
        await em.flush();
        const edited = await edit(event.id, body);
        expectStatus(edited, 200);
        return edited.body.status;
      };
      expect(await statusAfter({ publicationDatetime: null })).toBe('INACTIVE');
      expect(await statusAfter({ publicationDatetime: '2026-12-01T08:00:00+02:00' })).toBe('SCHEDULED');
      expect(await statusAfter({ isActive: false, publicationDatetime: '2026-12-01T08:00:00+02:00' })).toBe(
        'SCHEDULED',
      );
      expect(await statusAfter({ bookingAllowedDatetime: '2026-12-01T08:00:00+02:00' })).toBe('PUBLISHED');
      expect(await statusAfter({ name: 'Jules and Jim' })).toBe('ACTIVE');
    });

    it('changes nothing on an empty body (200)', async () => {
      const event = await aCinemaEvent();
      const unchanged = await edit(event.id, {});
      expectStatus(unchanged, 200);
      expect(unchanged.body).toEqual(event);
    });

    it('refuses malformed fields on edition with 422 on the field, and changes nothing', async () => {
      const event = await aCinemaEvent();
      const address = await anAddress(world.api);
      const refusals: [Record<string, unknown>, (string | number)[]][] = [
        [{ withdrawalDetails: 'At the desk' }, ['withdrawalDetails']],
        [{ name: '' }, ['name']],
        [{ name: 'x'.repeat(141) }, ['name']],
        [{ description: 'x'.repeat(10_001) }, ['description']],
        [{ bookingEmail: 'not-an-address' }, ['bookingEmail']],
        [{ bookingContact: 'not-an-address' }, ['bookingContact']],
        [{ externalTicketOfficeUrl: 'https:bloup.com' }, ['externalTicketOfficeUrl']],
        [{ externalTicketOfficeUrl: 5 }, ['externalTicketOfficeUrl']],
        [{ externalTicketOfficeUrl: '' }, ['externalTicketOfficeUrl']],
        [{ idAtProvider: 'x'.repeat(71) }, ['idAtProvider']],
        [{ publicationDatetime: '2027-01-01T00:00:00' }, ['publicationDatetime']],
        [{ bookingAllowedDatetime: '2027-01-01T00:00:00' }, ['bookingAllowedDatetime']],
        [{ publicationDatetime: '2021-01-01T00:00:00+00:00' }, ['publicationDatetime']],
        [{ bookingAllowedDatetime: '2021-01-01T00:00:00+00:00' }, ['bookingAllowedDatetime']],
        [{ publicationDatetime: 'NOW' }, ['publicationDatetime']],
        [{ bookingAllowedDatetime: 'now' }, ['bookingAllowedDatetime']],
        [{ videoUrl: 'https://peer.tube/w/jZ7ky5kZ4Bk3u88aCvRZPe' }, ['videoUrl']],
        [{ location: { type: 'hologram', venueId: theatre() } }, ['location', 'type']],
        [{ location: { type: 'address', venueId: theatre(), addressId: 'coucou' } }, ['location', 'addressId']],
        [
          { location: { type: 'address', venueId: theatre(), addressId: address.id, addressLabel: '' } },
          ['location', 'addressLabel'],
        ],
        [
          { location: { type: 'address', venueId: theatre(), addressId: address.id, addressLabel: 'x'.repeat(201) } },
          ['location', 'addressLabel'],
        ],
        [{ location: { type: 'physical' } }, ['location', 'venueId']],
        [{ location: { type: 'digital', url: 'https://cinema.example.com/online' } }, ['location', 'venueId']],
        [{ location: { type: 'address', addressId: address.id } }, ['location', 'venueId']],
        [{ name: null }, ['name']],
        [{ eventDuration: 1440 }, ['eventDuration']],
        [{ image: { file: aPng(100, 100).toString('base64') } }, ['image', 'file']],
      ];
      for (const [body, loc] of refusals) {
        const refused = await edit(event.id, { ...body, description: body.description ?? 'Changed?' });
        expect(refused.status, JSON.stringify(body).slice(0, 120)).toBe(422);
        expect(refused.body.map((issue: { loc: unknown }) => issue.loc)).toContainEqual(loc);
      }
      expect((await read(event.id)).body).toEqual(event);
    });

    it('refuses a digital location for a cinema event, another category, a null musicType, duo where not allowed, a taken idAtProvider, changing nothing', async () => {
      const event = await aCinemaEvent();
      const digital = await edit(event.id, {
        name: 'Changed?',
        location: { type: 'digital', venueId: theatre(), url: 'https://cinema.example.com/online' },
      });
      expect(digital.status).toBe(400);
      expect(digital.body.location).toBeDefined();
      const category = await edit(event.id, {
        name: 'Changed?',
        categoryRelatedFields: { category: 'CONCERT', musicType: 'JAZZ-BLUES' },
      });
      expect([category.status, Object.keys(category.body)]).toEqual([400, ['categoryRelatedFields.category']]);
      const taken = nextId();
      expectStatus(await create(anEventBody({ idAtProvider: taken })), 200);
      const takenId = await edit(event.id, { name: 'Changed?', idAtProvider: taken });
      expect([takenId.status, Object.keys(takenId.body)]).toEqual([400, ['idAtProvider']]);
      expect((await read(event.id)).body).toEqual(event);
      const concert = await create(anEventBody());
      const nullMusicType = await edit(concert.body.id, {
        categoryRelatedFields: { category: 'CONCERT', musicType: null },
      });
      expect(nullMusicType.status).toBe(422);
      expect(nullMusicType.body[0].loc).toEqual(['categoryRelatedFields', 'musicType']);
      const online = await create(
        anEventBody({
          categoryRelatedFields: { category: notDuo.id },
          location: { type: 'digital', venueId: world.sandbox.venues[2].id, url: 'https://live.example.com/room' },
        }),
      );
      const duo = await edit(online.body.id, { enableDoubleBookings: true });
      expect([duo.status, Object.keys(duo.body)]).toEqual([400, ['enableDoubleBookings']]);
      expect((await stored(online.body.id)).enableDoubleBookings).toBe(false);
    });

    it('keeps the booking contact of an event with tickets: changed with ticketing URLs of the provider or the venue, refused without any or when removed', async () => {
      const ticketed = await create(anEventBody({ hasTicket: true, bookingContact: 'box@example.com' }));
      expectStatus(ticketed, 200);
      const changed = await edit(ticketed.body.id, {
        bookingContact: 'new-box@example.com',
        itemCollectionDetails: 'At the desk',
      });
      expectStatus(changed, 200);
      expect(changed.body).toMatchObject({
        bookingContact: 'new-box@example.com',
        itemCollectionDetails: 'At the desk',
      });
      const removed = await edit(ticketed.body.id, { bookingContact: null });
      expect([removed.status, Object.keys(removed.body)]).toEqual([400, ['bookingContact']]);
      const em = world.testApp.database.orm.em.fork();
      const provider = await em.findOneOrFail(Provider, world.sandbox.provider.id);
      const link = await em.findOneOrFail(VenueProvider, { venue: theatre(), provider: provider.id });
      provider.bookingUrl = null;
      link.bookingUrl = 'https://venue.example.com/booking';
      link.cancelUrl = 'https://venue.example.com/cancel';
      await em.flush();
      try {
        const atVenueLevel = await edit(ticketed.body.id, { bookingContact: 'venue-box@example.com' });
        expectStatus(atVenueLevel, 200);
        link.bookingUrl = null;
        link.cancelUrl = null;
        await em.flush();
        const without = await edit(ticketed.body.id, { bookingContact: 'other-box@example.com' });
        expect(without.status).toBe(400);
      } finally {
        provider.bookingUrl = 'https://ticketing.example.com/booking';
        link.bookingUrl = null;
        link.cancelUrl = null;
        await em.flush();
      }
      expect((await stored(ticketed.body.id)).bookingContact).toBe('venue-box@example.com');
    });

    it('answers 404 for an unknown id, a product, and an event of a venue whose link is inactive; 401 without a key; 403 for an inactive provider', async () => {
      const event = await aCinemaEvent();
      const notFound = [404, { global: ['Event offer not found'] }];
      const unknown = await edit(999999, { name: 'Renamed' });
      expect([unknown.status, unknown.body]).toEqual(notFound);
      const product = await world.api.call('PostProductOffer', { body: aProductBody(theatre()), key });
      const asEvent = await edit(product.body.id, { name: 'Renamed' });
      expect([asEvent.status, asEvent.body]).toEqual(notFound);
      const em = world.testApp.database.orm.em.fork();
      const link = await em.findOneOrFail(VenueProvider, { venue: theatre(), provider: world.sandbox.provider.id });
      link.isActive = false;
      await em.flush();
      try {
        const inactive = await edit(event.id, { name: 'Renamed' });
        expect([inactive.status, inactive.body]).toEqual(notFound);
      } finally {
        link.isActive = true;
        await em.flush();
      }
      const noKey = await edit(event.id, { name: 'Renamed' }, '');
      expect([noKey.status, noKey.body]).toEqual([401, { auth: 'API key required' }]);
      const inactiveProvider = await aProvider(world.em(), world.testApp.clock, { isActive: false });
      const refused = await edit(event.id, { name: 'Renamed' }, inactiveProvider.apiKey);
      expect([refused.status, refused.body]).toEqual([403, { global: ['This provider is inactive'] }]);
      expect((await stored(event.id)).name).toBe('The 400 Blows');
    });
  });

  describe('status from dates, and the publication limit', () => {
    const addDates = async (offerId: number, count: number, overrides: Record<string, unknown> = {}) => {
      const em = world.testApp.database.orm.em.fork();
      const priceCategory = em.create(PriceCategory, {
        offer: offerId,
        label: 'Seat',
        price: 1000,
        createdAt: world.testApp.clock.now(),
      });
      await em.flush();
      const beginning = new Date('2026-12-20T20:00:00Z').getTime();
      await em.insertMany(
        Stock,
        Array.from({ length: count }, (_, index) => ({
          offer: offerId,
          priceCategory: priceCategory.id,
          beginningDatetime: new Date(beginning + index * 60_000),
          bookingLimitDatetime: new Date(beginning + index * 60_000),
          price: 1000,
          quantity: 10,
          bookedQuantity: 0,
          isDeleted: false,
          createdAt: world.testApp.clock.now(),
          updatedAt: world.testApp.clock.now(),
          ...overrides,
        })),
      );
    };

    it('is ACTIVE with an open date with places, SOLD_OUT when booked out, EXPIRED when past', async () => {
      const active = await post(anEventBody());
      const soldOut = await post(anEventBody());
      const expired = await post(anEventBody());
      await drainJobs(world.testApp);
      await addDates(active.body.id, 2);
      await addDates(soldOut.body.id, 2, { bookedQuantity: 10 });
      await addDates(expired.body.id, 1, {
        beginningDatetime: new Date('2026-11-21T20:00:00Z'),
        bookingLimitDatetime: new Date('2026-11-21T18:00:00Z'),
      });
      expect((await getOne(active.body.id)).body.status).toBe('ACTIVE');
      expect((await getOne(soldOut.body.id)).body.status).toBe('SOLD_OUT');
      expect((await getOne(expired.body.id)).body.status).toBe('EXPIRED');
    });

    it('does not publish an event with 2500 dates or more', async () => {
      const crowded = await post(anEventBody({ publicationDatetime: '2026-11-22T12:00:00Z' }));
      const fine = await post(anEventBody({ publicationDatetime: '2026-11-22T12:00:00Z' }));
      await drainJobs(world.testApp);
      await addDates(crowded.body.id, 2500);
      await addDates(fine.body.id, 2499);
      world.testApp.clock.advance(3 * 3600 * 1000);
      try {
        await runPublication();
        expect((await stored(crowded.body.id)).publishedAt).toBeNull();
        expect((await getOne(crowded.body.id)).body.status).toBe('SCHEDULED');
        expect((await stored(fine.body.id)).publishedAt).not.toBeNull();
        expect((await getOne(fine.body.id)).body.status).toBe('ACTIVE');
      } finally {
        world.testApp.clock.set(new Date('2026-11-22T10:00:00Z'));
      }
    });
  });

  describe('rights and review', () => {
    it('answers 403 to a provider whose right to manage individual offers was withdrawn', async () => {
      await withoutIndividualOffersRight(world.testApp, world.other.provider.id, async () => {
        const listed = await list({}, world.other.apiKey);
        expect(listed.status).toBe(403);
        expect(listed.body.global[0]).toMatch(/not allowed to manage individual offers/);
        const created = await post(anEventBody(), world.other.apiKey);
        expect(created.status).toBe(403);
      });
    });

    it('lets internal tools review an offer; provider keys may not', async () => {
      const created = await post(anEventBody());
      const review = (key: string) =>
        graphqlAs(
          world.testApp,
          key,
          'mutation ($id: Int!) { reviewOffer(offerId: $id, decision: "REJECTED", reason: "Not cultural") { offer { id status } } }',
          { id: created.body.id },
        );
      const refused = await review(world.sandbox.apiKey);
      expect(refused.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      const done = await review(internalKey);
      expect(done.body.data.reviewOffer.offer).toEqual({ id: created.body.id, status: 'REJECTED' });
      expect((await getOne(created.body.id)).body.status).toBe('REJECTED');
    });
  });
});

describe('Event Offers: review with an approval delay (AUTO_APPROVAL_DELAY_SECONDS above 0)', () => {
  const world = useOfferWorld({ env: { AUTO_APPROVAL_DELAY_SECONDS: '3600' } });
  const post = (body: unknown) => world.api.call('PostEventOffer', { body });
  const patch = (id: number, body: unknown) => world.api.call('EditEvent', { params: { event_id: id }, body });
  const getOne = (id: number) => world.api.call('GetEvent', { params: { event_id: id } });
  const stored = (id: number) => world.em().findOneOrFail(Offer, id);

  it('refuses (400) to edit a PENDING or REJECTED event, and changes nothing', async () => {
    const pending = await post(anEventBodyAt(world.sandbox.venues[0].id));
    const rejected = await post(anEventBodyAt(world.sandbox.venues[0].id));
    await world.em().nativeUpdate(Offer, rejected.body.id, { validation: 'REJECTED' });
    for (const [created, validation] of [
      [pending, 'PENDING'],
      [rejected, 'REJECTED'],
    ] as const) {
      const response = await patch(created.body.id, { name: 'Renamed', isActive: false });
      expect([response.status, response.body]).toEqual([
        400,
        { global: [`The offer is ${validation}: it cannot be changed`] },
      ]);
      const row = await stored(created.body.id);
      expect([row.name, row.isActive, row.validation]).toEqual(['Rock night', true, validation]);
    }
  });

  it('answers PENDING, then a job queued for the delay approves it: SOLD_OUT without dates', async () => {
    const created = await post(anEventBodyAt(world.sandbox.venues[0].id));
    expectStatus(created, 200);
    expect(created.body.status).toBe('PENDING');
    const jobs = await world.em().find(Job, { type: 'offers.autoApprove' });
    const job = jobs.find((one) => (one.payload.offerIds as number[]).includes(created.body.id))!;
    expect(job.runAt.toISOString()).toBe('2026-11-22T11:00:00.000Z');
    await drainJobs(world.testApp);
    expect((await stored(created.body.id)).validation).toBe('PENDING');
    world.testApp.clock.advance(3600 * 1000);
    try {
      await drainJobs(world.testApp);
      expect((await getOne(created.body.id)).body.status).toBe('SOLD_OUT');
      expect((await stored(created.body.id)).validation).toBe('APPROVED');
      expect((await patch(created.body.id, { name: 'Renamed once approved' })).status).toBe(200);
    } finally {
      world.testApp.clock.set(new Date('2026-11-22T10:00:00Z'));
    }
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CollectiveBooking } from '../../graphql/collective/CollectiveBooking.js';
import { CollectiveOffer } from '../../graphql/collective/CollectiveOffer.js';
import { EAC_FORMATS } from '../../graphql/collective/formats.js';
import { educationalDomains, nationalPrograms } from '../../graphql/collective/reference/educationalData.js';
import { educationalInstitutions } from '../../graphql/collective/reference/institutionData.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectMatchesContract } from '../support/contract.js';
import { aProvider, createSandbox } from '../support/fixtures.js';
import { aPng } from '../support/images.js';

const COLLECTION = '/v2/collective/offers/';
const ONE = '/v2/collective/offers/{offer_id}';
const ARCHIVE = '/v2/collective/offers/archive';
const FORMATS = '/v2/collective/offers/formats';
const BOOK = '/v2/collective/adage_mock/offer/{offer_id}/book';
const NOW = new Date('2026-11-22T10:00:00Z');

const START = '2027-01-15T09:00:00.000Z';
const LIMIT = '2027-01-05T18:00:00.000Z';

/** The booking moves of the school platform's mocks (and the provider's cancellation), by the contract's paths. */
const MOVES = {
  confirm: { method: 'post', path: '/v2/collective/adage_mock/bookings/{booking_id}/confirm' },
  use: { method: 'post', path: '/v2/collective/bookings/{booking_id}/use' },
  reimburse: { method: 'post', path: '/v2/collective/adage_mock/bookings/{booking_id}/reimburse' },
  cancel: { method: 'patch', path: '/v2/collective/bookings/{booking_id}' },
} as const;
type Move = keyof typeof MOVES;

// The reference data the tests lean on, checked against the seed rather than assumed.
const theatreDomain = educationalDomains.find((domain) => domain.id === 15)!;
const cinemaDomain = educationalDomains.find((domain) => domain.id === 6)!;
const theatreAtSchool = nationalPrograms.find((program) => program.id === 6)!;
const schoolCinema = nationalPrograms.find((program) => program.id === 1)!;
const activeInstitution = educationalInstitutions.find((institution) => institution.id === 1)!;
const otherActiveInstitution = educationalInstitutions.find((institution) => institution.id === 2)!;
const inactiveInstitution = educationalInstitutions.find((institution) => institution.id === 9)!;
const otherInactiveInstitution = educationalInstitutions.find((institution) => institution.id === 40)!;

type Json = Record<string, unknown>;

describe('Collective Offers', () => {
  let testApp: TestApp;
  let imageDirectory: string;
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  let internalKey: string;
  /** A fresh key of the sandbox provider per test: the rate limit (200 a minute per key) runs on real time. */
  let key: string;

  const theatre = () => sandbox.venues[0].id;
  const bookshop = () => sandbox.venues[1].id;
  const online = () => sandbox.venues[2].id;

  const aBody = (overrides: Json = {}): Json => ({
    venueId: theatre(),
    name: 'Atelier théâtre',
    description: 'Une semaine de pratique théâtrale avec une troupe.',
    formats: ['Atelier de pratique', 'Représentation'],
    bookingEmails: ['booking@example.com', 'team@example.com'],
    contactEmail: 'contact@example.com',
    contactPhone: '+33199006328',
    domains: [theatreDomain.id],
    students: ['COLLEGE6', 'COLLEGE5'],
    location: { type: 'SCHOOL' },
    startDatetime: START,
    bookingLimitDatetime: LIMIT,
    totalPrice: 650.5,
    numberOfTickets: 30,
    ...overrides,
  });
  /** The body without some fields (absent, not null). */
  const without = (...fields: string[]) => {
    const body = aBody();
    for (const field of fields) delete body[field];
    return body;
  };

  const post = async (body: unknown, apiKey = key) => {
    const response = await request(testApp.app)
      .post(COLLECTION)
      .set('Authorization', `Bearer ${apiKey}`)
      .send(body as object);
    expectMatchesContract(response, 'post', COLLECTION);
    return response;
  };
  const patch = async (id: number | string, body: unknown, apiKey = key) => {
    const response = await request(testApp.app)
      .patch(`/v2/collective/offers/${id}`)
      .set('Authorization', `Bearer ${apiKey}`)
      .send(body as object);
    expectMatchesContract(response, 'patch', ONE);
    return response;
  };
  const getOne = async (id: number | string, apiKey = key) => {
    const response = await request(testApp.app)
      .get(`/v2/collective/offers/${id}`)
      .set('Authorization', `Bearer ${apiKey}`);
    expectMatchesContract(response, 'get', ONE);
    return response;
  };
  const list = async (query = '', apiKey = key) => {
    const response = await request(testApp.app).get(`${COLLECTION}${query}`).set('Authorization', `Bearer ${apiKey}`);
    expectMatchesContract(response, 'get', COLLECTION);
    return response;
  };
  const archive = async (body: unknown, apiKey = key) => {
    const response = await request(testApp.app)
      .post(ARCHIVE)
      .set('Authorization', `Bearer ${apiKey}`)
      .send(body as object);
    expectMatchesContract(response, 'post', ARCHIVE);
    return response;
  };
  const graphql = (query: string, variables: Json, apiKey: string) =>
    request(testApp.app).post('/graphql').set('Authorization', `Bearer ${apiKey}`).send({ query, variables });

  const created = async (overrides: Json = {}, apiKey = key) => {
    const response = await post(aBody(overrides), apiKey);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as Json & { id: number };
  };
  const approveAll = async () => {
    while ((await testApp.runtime.worker.runDueJobs()).claimed > 0);
  };
  /** A new offer, approved: PUBLISHED. (Every offer still under review is approved with it.) */
  const published = async (overrides: Json = {}, apiKey = key) => {
    const offer = await created(overrides, apiKey);
    await approveAll();
    expect((await getOne(offer.id, apiKey)).body.offerStatus).toBe('PUBLISHED');
    return offer;
  };
  /** A school pre-books the offer: its PENDING booking. */
  const book = async (offerId: number, apiKey = key) => {
    const response = await request(testApp.app)
      .post(`/v2/collective/adage_mock/offer/${offerId}/book`)
      .set('Authorization', `Bearer ${apiKey}`);
    expectMatchesContract(response, 'post', BOOK);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.status).toBe('PENDING');
    return response.body.id as number;
  };
  const move = async (bookingId: number, what: Move, apiKey = key) => {
    const { method, path } = MOVES[what];
    const response = await request(testApp.app)
      [method](path.replace('{booking_id}', String(bookingId)))
      .set('Authorization', `Bearer ${apiKey}`);
    expectMatchesContract(response, method, path);
    expect(response.status, `${what}: ${JSON.stringify(response.body)}`).toBe(204);
  };
  /** A published offer whose booking went through these moves (none: PENDING). */
  const bookedOffer = async (moves: Move[], overrides: Json = {}) => {
    const offer = await published(overrides);
    const bookingId = await book(offer.id);
    for (const what of moves) await move(bookingId, what);
    return { offer, bookingId };
  };

  const em = () => testApp.database.orm.em.fork();
  const offerCount = () => em().count(CollectiveOffer, {});
  const stored = (id: number) =>
    em().findOneOrFail(CollectiveOffer, id, { populate: ['address', 'institution', 'nationalProgram', 'venue'] });
  const storedBooking = (id: number) => em().findOneOrFail(CollectiveBooking, id);
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
  /** A new provider with its own offerer (allowed on the school platform or not), one physical venue of it, and a key. */
  const anotherProvider = async (allowedOnAdage: boolean) => {
    const fork = em();
    const added = await aProvider(fork, testApp.clock, { name: allowedOnAdage ? 'School Shows' : 'Not For Schools' });
    const offerer = await fork.findOneOrFail(Offerer, added.offerer.id);
    offerer.allowedOnAdage = allowedOnAdage;
    const venue = fork.create(Venue, {
      offerer,
      legalName: `${offerer.name} Hall`,
      activityDomain: 'PERFORMING_ARTS',
      siret: null,
      siretComment: 'Association without SIRET',
      isVirtual: false,
      createdDatetime: testApp.clock.now(),
    });
    fork.create(VenueProvider, { venue, provider: added.provider.id, isActive: true, createdAt: testApp.clock.now() });
    await fork.flush();
    return { providerId: added.provider.id, venueId: venue.id, key: added.apiKey };
  };
  let streetNumber = 0;
  /** A new address (the same street twice would be the same address). */
  const anAddress = async () => {
    const street = `${(streetNumber += 1)} Rue des Archives`;
    const response = await request(testApp.app)
      .post('/public/offers/v1/addresses')
      .set('Authorization', `Bearer ${key}`)
      .send({ street, city: 'Paris', postalCode: '75004', latitude: 48.858, longitude: 2.356 });
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return { id: response.body.id as number, street };
  };
  const review = (offerId: number, decision: string, apiKey = internalKey) =>
    graphql(
      `
        mutation ($id: Int!, $decision: String!) {
          reviewOffer(offerId: $id, decision: $decision, reason: "Checked", collective: true) {
            offerId
            collective
            decision
            collectiveOffer {
              id
              displayedStatus
            }
          }
        }
      `,
      { id: offerId, decision },
      apiKey,
    );

  beforeAll(async () => {
    imageDirectory = await mkdtemp(join(tmpdir(), 'collective-images-'));
    testApp = await createTestApp({
      env: { IMAGE_DIRECTORY: imageDirectory, PUBLIC_URL: 'http://api.test', AUTO_APPROVAL_DELAY_SECONDS: '0' },
    });
    sandbox = await createSandbox(em(), testApp.clock, 'test');
    const fork = em();
    internalKey = issueApiKey(fork, testApp.clock, { env: 'test', internal: true }).key;
    await fork.flush();
  });
  beforeEach(async () => {
    testApp.clock.set(NOW);
    key = await sandboxKey();
  });
  afterAll(async () => {
    await testApp.close();
    await rm(imageDirectory, { recursive: true, force: true });
  });

  it('leans on reference data and sandbox venues that are as the tests assume', () => {
    expect(theatreDomain.nationalProgramIds).toContain(theatreAtSchool.id);
    expect(theatreDomain.nationalProgramIds).not.toContain(schoolCinema.id);
    expect(cinemaDomain.nationalProgramIds).toContain(schoolCinema.id);
    expect([activeInstitution.isActive, otherActiveInstitution.isActive]).toEqual([true, true]);
    expect([inactiveInstitution.isActive, otherInactiveInstitution.isActive]).toEqual([false, false]);
    expect(sandbox.offerer.allowedOnAdage).toBe(true);
    expect(sandbox.venues.map((venue) => [venue.isVirtual, venue.address !== null])).toEqual([
      [false, true],
      [false, true],
      [true, false],
    ]);
  });

  describe('creation', () => {
    it('creates an offer under review (201) with the full detail, the defaults, and the price stored in cents', async () => {
      const before = await offerCount();
      const response = await post(aBody());
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.any(Number),
        status: 'PENDING',
        offerStatus: 'UNDER_REVIEW',
        venueId: theatre(),
        startDatetime: START,
        endDatetime: START,
        bookings: [],
        audioDisabilityCompliant: false,
        mentalDisabilityCompliant: false,
        motorDisabilityCompliant: false,
        visualDisabilityCompliant: false,
        bookingEmails: ['booking@example.com', 'team@example.com'],
        bookingLimitDatetime: LIMIT,
        contactEmail: 'contact@example.com',
        contactPhone: '+33199006328',
        dateCreated: NOW.toISOString(),
        description: 'Une semaine de pratique théâtrale avec une troupe.',
        domains: [theatreDomain.id],
        durationMinutes: null,
        educationalInstitution: null,
        educationalInstitutionId: null,
        educationalPriceDetail: null,
        formats: ['Atelier de pratique', 'Représentation'],
        hasBookingLimitDatetimesPassed: false,
        imageCredit: null,
        imageUrl: null,
        interventionArea: [],
        isActive: true,
        isSoldOut: false,
        location: { type: 'SCHOOL' },
        name: 'Atelier théâtre',
        nationalProgram: null,
        numberOfTickets: 30,
        offerVenue: { addressType: 'school', otherAddress: null, venueId: null },
        students: ['COLLEGE6', 'COLLEGE5'],
        totalPrice: 650.5,
      });
      expect(await offerCount()).toBe(before + 1);
      const row = await stored(response.body.id);
      expect(row).toMatchObject({
        provider: { id: sandbox.provider.id },
        venue: { id: theatre() },
        totalPriceCents: 65050,
        numberOfTickets: 30,
        locationType: 'SCHOOL',
        atVenueAddress: false,
        address: null,
        interventionArea: [],
        validation: 'PENDING',
        isActive: true,
        archivedAt: null,
        audioDisabilityCompliant: false,
        visualDisabilityCompliant: false,
      });
      expect(row.startDatetime.toISOString()).toBe(START);
      expect(row.endDatetime.toISOString()).toBe(START);
      expect(row.bookingLimitDatetime.toISOString()).toBe(LIMIT);
      expect((await getOne(response.body.id)).body).toEqual(response.body);
    });

    it('keeps every optional field sent: end, duration, price detail, accessibility, institution, programme, hidden', async () => {
      const response = await post(
        aBody({
          endDatetime: '2027-01-19T17:00:00+01:00',
          durationMinutes: 120,
          educationalPriceDetail: 'Intervenants et costumes',
          audioDisabilityCompliant: true,
          motorDisabilityCompliant: true,
          educationalInstitutionId: activeInstitution.id,
          nationalProgramId: theatreAtSchool.id,
          isActive: false,
          totalPrice: 0.29,
          startDatetime: '2027-01-15T10:00:00+01:00',
        }),
      );
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body).toMatchObject({
        startDatetime: START,
        endDatetime: '2027-01-19T16:00:00.000Z',
        durationMinutes: 120,
        educationalPriceDetail: 'Intervenants et costumes',
        audioDisabilityCompliant: true,
        mentalDisabilityCompliant: false,
        motorDisabilityCompliant: true,
        visualDisabilityCompliant: false,
        educationalInstitution: activeInstitution.uai,
        educationalInstitutionId: activeInstitution.id,
        nationalProgram: { id: theatreAtSchool.id, name: theatreAtSchool.name },
        isActive: false,
        totalPrice: 0.29,
      });
      const row = await stored(response.body.id);
      expect(row).toMatchObject({
        totalPriceCents: 29,
        durationMinutes: 120,
        priceDetail: 'Intervenants et costumes',
        institution: { id: activeInstitution.id },
        nationalProgram: { id: theatreAtSchool.id },
        isActive: false,
      });
      // Hidden from schools once approved.
      await approveAll();
      expect((await getOne(response.body.id)).body).toMatchObject({ offerStatus: 'HIDDEN', status: 'INACTIVE' });
    });

    it('names the institution by UAI, in any case', async () => {
      const response = await post(aBody({ educationalInstitution: otherActiveInstitution.uai.toLowerCase() }));
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body).toMatchObject({
        educationalInstitution: otherActiveInstitution.uai,
        educationalInstitutionId: otherActiveInstitution.id,
      });
      expect((await stored(response.body.id)).institution?.id).toBe(otherActiveInstitution.id);
    });

    describe('locations', () => {
      it('SCHOOL: at the school; offerVenue school', async () => {
        const offer = await created({ location: { type: 'SCHOOL' } });
        expect(offer.location).toEqual({ type: 'SCHOOL' });
        expect(offer.offerVenue).toEqual({ addressType: 'school', otherAddress: null, venueId: null });
        expect(await stored(offer.id)).toMatchObject({
          locationType: 'SCHOOL',
          atVenueAddress: false,
          address: null,
          addressLabel: null,
          locationComment: null,
        });
      });

      it('ADDRESS at the venue: offerVenue offererVenue with the venue', async () => {
        const offer = await created({ venueId: bookshop(), location: { type: 'ADDRESS', isVenueAddress: true } });
        expect(offer.location).toEqual({ type: 'ADDRESS', isVenueAddress: true });
        expect(offer.offerVenue).toEqual({ addressType: 'offererVenue', otherAddress: null, venueId: bookshop() });
        expect(await stored(offer.id)).toMatchObject({ locationType: 'ADDRESS', atVenueAddress: true, address: null });
      });

      it('ADDRESS elsewhere: an address created through the API, with a label; offerVenue other, written out', async () => {
        const address = await anAddress();
        const offer = await created({
          location: {
            type: 'ADDRESS',
            isVenueAddress: false,
            addressId: address.id,
            addressLabel: 'Gymnase municipal',
          },
        });
        expect(offer.location).toEqual({
          type: 'ADDRESS',
          isVenueAddress: false,
          addressId: address.id,
          addressLabel: 'Gymnase municipal',
        });
        expect(offer.offerVenue).toEqual({
          addressType: 'other',
          otherAddress: `Gymnase municipal, ${address.street}, 75004 Paris`,
          venueId: null,
        });
        expect(await stored(offer.id)).toMatchObject({
          locationType: 'ADDRESS',
          atVenueAddress: false,
          address: { id: address.id },
          addressLabel: 'Gymnase municipal',
        });
      });

      it('ADDRESS elsewhere: the address of a sandbox venue, without a label', async () => {
        const venueAddress = sandbox.venues[1].address!;
        const offer = await created({
          location: { type: 'ADDRESS', isVenueAddress: false, addressId: venueAddress.id },
        });
        expect(offer.location).toEqual({
          type: 'ADDRESS',
          isVenueAddress: false,
          addressId: venueAddress.id,
          addressLabel: null,
        });
        expect(offer.offerVenue).toEqual({
          addressType: 'other',
          otherAddress: '4 Place Bellecour, 69002 Lyon',
          venueId: null,
        });
      });

      it('ADDRESS elsewhere: an unknown address is 404, and nothing is written', async () => {
        const before = await offerCount();
        const response = await post(
          aBody({ location: { type: 'ADDRESS', isVenueAddress: false, addressId: 999_999 } }),
        );
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ global: ['Address not found'] });
        expect(await offerCount()).toBe(before);
      });

      it('TO_BE_DEFINED, with or without a comment; offerVenue other with the comment', async () => {
        const withComment = await created({ location: { type: 'TO_BE_DEFINED', comment: 'Dans la cour ou au préau' } });
        expect(withComment.location).toEqual({ type: 'TO_BE_DEFINED', comment: 'Dans la cour ou au préau' });
        expect(withComment.offerVenue).toEqual({
          addressType: 'other',
          otherAddress: 'Dans la cour ou au préau',
          venueId: null,
        });
        expect(await stored(withComment.id)).toMatchObject({
          locationType: 'TO_BE_DEFINED',
          locationComment: 'Dans la cour ou au préau',
        });
        const withoutComment = await created({ location: { type: 'TO_BE_DEFINED' } });
        expect(withoutComment.location).toEqual({ type: 'TO_BE_DEFINED', comment: null });
        expect(withoutComment.offerVenue).toEqual({ addressType: 'other', otherAddress: null, venueId: null });
      });

      it('a digital venue has no address to be at: ADDRESS at the venue is 400, and nothing is written', async () => {
        const before = await offerCount();
        const response = await post(aBody({ venueId: online(), location: { type: 'ADDRESS', isVenueAddress: true } }));
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ location: [expect.stringContaining('has no address')] });
        expect(await offerCount()).toBe(before);
        // Elsewhere is fine for it.
        expect((await created({ venueId: online(), location: { type: 'SCHOOL' } })).venueId).toBe(online());
      });

      it('takes the deprecated offerVenue instead of the location: offererVenue, school, other', async () => {
        const { location: _location, ...body } = aBody();
        const cases: [Json, Json, Json][] = [
          [
            { addressType: 'offererVenue', venueId: theatre(), otherAddress: null },
            { type: 'ADDRESS', isVenueAddress: true },
            { addressType: 'offererVenue', otherAddress: null, venueId: theatre() },
          ],
          [{ addressType: 'school' }, { type: 'SCHOOL' }, { addressType: 'school', otherAddress: null, venueId: null }],
          [
            { addressType: 'other', otherAddress: 'Salle des fêtes de la mairie' },
            { type: 'TO_BE_DEFINED', comment: 'Salle des fêtes de la mairie' },
            { addressType: 'other', otherAddress: 'Salle des fêtes de la mairie', venueId: null },
          ],
        ];
        for (const [offerVenue, location, derived] of cases) {
          const response = await post({ ...body, offerVenue });
          expect(response.status, JSON.stringify(response.body)).toBe(201);
          expect(response.body.location, JSON.stringify(offerVenue)).toEqual(location);
          expect(response.body.offerVenue).toEqual(derived);
        }
      });

      it('lets the location win when both it and offerVenue are sent', async () => {
        const offer = await created({
          location: { type: 'TO_BE_DEFINED', comment: 'À convenir' },
          offerVenue: { addressType: 'school' },
        });
        expect(offer.location).toEqual({ type: 'TO_BE_DEFINED', comment: 'À convenir' });
        expect(offer.offerVenue).toEqual({ addressType: 'other', otherAddress: 'À convenir', venueId: null });
      });

      it('needs a location or an offerVenue (422 missing at location)', async () => {
        const before = await offerCount();
        for (const body of [
          without('location'),
          aBody({ location: null }),
          aBody({ location: null, offerVenue: null }),
        ]) {
          const response = await post(body);
          expect(response.status).toBe(422);
          expect(response.body).toEqual([{ loc: ['location'], msg: 'Field required', type: 'missing' }]);
        }
        expect(await offerCount()).toBe(before);
      });
    });

    it('stores an image sent as base64 and answers its URL and credit', async () => {
      const image = aPng(400, 600).toString('base64');
      const offer = await created({ imageFile: image, imageCredit: 'Photo: A. Demo' });
      expect(offer.imageUrl).toMatch(/^http:\/\/api\.test\/images\/[\w-]+\.png$/);
      expect(offer.imageCredit).toBe('Photo: A. Demo');
      const row = await stored(offer.id);
      expect(row.imageKey).not.toBeNull();
      expect(offer.imageUrl).toContain(row.imageKey);
      const served = await request(testApp.app).get(new URL(offer.imageUrl as string).pathname);
      expect(served.status).toBe(200);
      // An image too small is refused at imageFile, and nothing is written.
      const before = await offerCount();
      const tooSmall = await post(aBody({ imageFile: aPng(200, 300).toString('base64') }));
      expect(tooSmall.status).toBe(422);
      expect(tooSmall.body).toEqual([expect.objectContaining({ loc: ['imageFile'] })]);
      expect(await offerCount()).toBe(before);
    });
  });

  describe('validation on creation', () => {
    const REQUIRED = [
      'venueId',
      'name',
      'description',
      'formats',
      'bookingEmails',
      'contactEmail',
      'contactPhone',
      'domains',
      'students',
      'location',
      'startDatetime',
      'bookingLimitDatetime',
      'totalPrice',
      'numberOfTickets',
    ];

    it('reports each required field missing (422 Field required at its loc), and writes nothing', async () => {
      const before = await offerCount();
      for (const field of REQUIRED) {
        const response = await post(without(field));
        expect(response.status, field).toBe(422);
        expect(response.body, field).toEqual([{ loc: [field], msg: 'Field required', type: 'missing' }]);
      }
      expect(await offerCount()).toBe(before);
    });

    it('is strict: an unknown field, at the top or in a location, is 422 extra_forbidden', async () => {
      const before = await offerCount();
      const cases: [Json, string[]][] = [
        [aBody({ surprise: true }), ['surprise']],
        [aBody({ interventionArea: ['75'] }), ['interventionArea']],
        [aBody({ location: { type: 'SCHOOL', comment: 'x' } }), ['location', 'comment']],
        [aBody({ location: { type: 'ADDRESS', isVenueAddress: true, addressId: 1 } }), ['location', 'addressId']],
        [aBody({ location: { type: 'TO_BE_DEFINED', addressLabel: 'x' } }), ['location', 'addressLabel']],
        [aBody({ offerVenue: { addressType: 'school', colour: 'red' } }), ['offerVenue', 'colour']],
      ];
      for (const [body, loc] of cases) {
        const response = await post(body);
        expect(response.status, loc.join('.')).toBe(422);
        expect(response.body).toEqual([{ loc, msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
      }
      expect(await offerCount()).toBe(before);
    });

    it('checks formats, e-mails, phone, lengths, numbers and location types (422), and writes nothing', async () => {
      const before = await offerCount();
      const cases: [Json, string[], string | null][] = [
        [aBody({ formats: ['Cirque'] }), ['formats', '0'], 'enum'],
        [aBody({ formats: [] }), ['formats'], 'too_short'],
        [aBody({ contactEmail: 'not-an-email' }), ['contactEmail'], 'email_parsing'],
        [aBody({ bookingEmails: ['booking@example.com', 'nope'] }), ['bookingEmails', '1'], 'email_parsing'],
        [aBody({ bookingEmails: [] }), ['bookingEmails'], 'too_short'],
        [aBody({ contactPhone: 'call me' }), ['contactPhone'], 'string_pattern_mismatch'],
        [aBody({ name: '' }), ['name'], 'string_too_short'],
        [aBody({ name: 'x'.repeat(111) }), ['name'], 'string_too_long'],
        [aBody({ description: 'x'.repeat(1501) }), ['description'], 'string_too_long'],
        [aBody({ domains: [] }), ['domains'], 'too_short'],
        [aBody({ students: [] }), ['students'], 'too_short'],
        [aBody({ numberOfTickets: 0 }), ['numberOfTickets'], 'greater_than_equal'],
        [aBody({ numberOfTickets: 2.5 }), ['numberOfTickets'], 'int_type'],
        [aBody({ totalPrice: -1 }), ['totalPrice'], 'greater_than_equal'],
        [aBody({ totalPrice: '12.50' }), ['totalPrice'], 'float_parsing'],
        [aBody({ venueId: 0 }), ['venueId'], 'greater_than'],
        [aBody({ startDatetime: '2027-01-15T09:00:00' }), ['startDatetime'], 'timezone_aware'],
        [aBody({ bookingLimitDatetime: 'soon' }), ['bookingLimitDatetime'], 'datetime_parsing'],
        [aBody({ location: { type: 'CASTLE' } }), ['location', 'type'], null],
        [aBody({ location: { type: 'ADDRESS', isVenueAddress: false } }), ['location', 'addressId'], 'missing'],
        [aBody({ offerVenue: { addressType: 'moon' }, location: undefined }), ['offerVenue', 'addressType'], 'enum'],
      ];
      for (const [body, loc, type] of cases) {
        const response = await post(body);
        expect(response.status, loc.join('.')).toBe(422);
        const issue = response.body.find((entry: { loc: string[] }) => entry.loc.join('.') === loc.join('.'));
        expect(issue, `${loc.join('.')}: ${JSON.stringify(response.body)}`).toBeDefined();
        if (type) expect(issue.type, JSON.stringify(issue)).toBe(type);
      }
      expect(await offerCount()).toBe(before);
    });

    it('refuses dates in the past, a booking limit after the start, an end before the start (422), and writes nothing', async () => {
      const before = await offerCount();
      const cases: [Json, Json[]][] = [
        [
          aBody({ startDatetime: '2026-11-20T09:00:00Z', bookingLimitDatetime: '2026-11-19T09:00:00Z' }),
          [
            { loc: ['startDatetime'], msg: 'The datetime must not be in the past', type: 'datetime_future' },
            { loc: ['endDatetime'], msg: 'The datetime must not be in the past', type: 'datetime_future' },
            { loc: ['bookingLimitDatetime'], msg: 'The datetime must not be in the past', type: 'datetime_future' },
          ],
        ],
        [
          aBody({ bookingLimitDatetime: '2026-11-22T09:59:59Z' }),
          [{ loc: ['bookingLimitDatetime'], msg: 'The datetime must not be in the past', type: 'datetime_future' }],
        ],
        [
          aBody({ endDatetime: '2026-11-21T09:00:00Z' }),
          [
            { loc: ['endDatetime'], msg: 'The datetime must not be in the past', type: 'datetime_future' },
            { loc: ['endDatetime'], msg: 'The end must not be before the start', type: 'value_error' },
          ],
        ],
        [
          aBody({ bookingLimitDatetime: '2027-01-15T09:00:01Z' }),
          [
            {
              loc: ['bookingLimitDatetime'],
              msg: 'The booking limit must not be after the start',
              type: 'value_error',
            },
          ],
        ],
        [
          aBody({ endDatetime: '2027-01-15T08:59:59Z' }),
          [{ loc: ['endDatetime'], msg: 'The end must not be before the start', type: 'value_error' }],
        ],
      ];
      for (const [body, issues] of cases) {
        const response = await post(body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(response.body).toEqual(issues);
      }
      expect(await offerCount()).toBe(before);
      // The edges are allowed: a booking limit at the start, an end at the start, a start now.
      const edges = await post(aBody({ bookingLimitDatetime: START, endDatetime: START }));
      expect(edges.status, JSON.stringify(edges.body)).toBe(201);
      const now = await post(aBody({ startDatetime: NOW.toISOString(), bookingLimitDatetime: NOW.toISOString() }));
      expect(now.status, JSON.stringify(now.body)).toBe(201);
    });

    it('takes euros with at most two decimals (422 otherwise), and stores cents', async () => {
      const before = await offerCount();
      for (const totalPrice of [10.015, 0.001, 99.999]) {
        const response = await post(aBody({ totalPrice }));
        expect(response.status, String(totalPrice)).toBe(422);
        expect(response.body).toEqual([{ loc: ['totalPrice'], msg: expect.any(String), type: 'decimal_max_places' }]);
      }
      expect(await offerCount()).toBe(before);
      for (const [totalPrice, cents] of [
        [0, 0],
        [19.99, 1999],
        [1200, 120000],
        [1_000_000, 100_000_000],
      ]) {
        const offer = await created({ totalPrice });
        expect(offer.totalPrice).toBe(totalPrice);
        expect((await stored(offer.id)).totalPriceCents).toBe(cents);
      }
    });

    it('refuses an institution named twice (400), unknown (404), inactive (403), by id and by UAI, and writes nothing', async () => {
      const before = await offerCount();
      const both = await post(
        aBody({ educationalInstitutionId: activeInstitution.id, educationalInstitution: activeInstitution.uai }),
      );
      expect(both.status).toBe(400);
      expect(both.body).toEqual({ educationalInstitutionId: [expect.stringContaining('not both')] });
      for (const named of [{ educationalInstitutionId: 999_999 }, { educationalInstitution: '0000000A' }]) {
        const unknown = await post(aBody(named));
        expect(unknown.status, JSON.stringify(named)).toBe(404);
        expect(unknown.body).toEqual({ global: ['Educational institution not found'] });
      }
      for (const [named, uai] of [
        [{ educationalInstitutionId: inactiveInstitution.id }, inactiveInstitution.uai],
        [{ educationalInstitution: otherInactiveInstitution.uai }, otherInactiveInstitution.uai],
        [{ educationalInstitution: inactiveInstitution.uai.toLowerCase() }, inactiveInstitution.uai],
      ] as const) {
        const inactive = await post(aBody(named));
        expect(inactive.status, JSON.stringify(named)).toBe(403);
        expect(inactive.body).toEqual({ global: [`The educational institution ${uai} is not active`] });
      }
      expect(await offerCount()).toBe(before);
    });

    it('refuses unknown domains and student levels (400), and writes nothing', async () => {
      const before = await offerCount();
      const domain = await post(aBody({ domains: [theatreDomain.id, 99] }));
      expect(domain.status).toBe(400);
      expect(domain.body).toEqual({ domains: [expect.stringContaining('99')] });
      const level = await post(aBody({ students: ['COLLEGE6', 'COLLEGE7'] }));
      expect(level.status).toBe(400);
      expect(level.body).toEqual({ students: [expect.stringContaining('COLLEGE7')] });
      expect(await offerCount()).toBe(before);
    });

    it('takes a national programme of one of the domains only (400 otherwise)', async () => {
      const before = await offerCount();
      const unlinked = await post(aBody({ domains: [theatreDomain.id], nationalProgramId: schoolCinema.id }));
      expect(unlinked.status).toBe(400);
      expect(unlinked.body).toEqual({ nationalProgramId: [expect.stringContaining('none of the offer')] });
      const unknown = await post(aBody({ nationalProgramId: 999 }));
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ nationalProgramId: [expect.stringContaining('999')] });
      expect(await offerCount()).toBe(before);
      // Linked through any one of the domains.
      const linked = await created({
        domains: [theatreDomain.id, cinemaDomain.id],
        nationalProgramId: schoolCinema.id,
      });
      expect(linked.nationalProgram).toEqual({ id: schoolCinema.id, name: schoolCinema.name });
      expect((await stored(linked.id)).nationalProgram?.id).toBe(schoolCinema.id);
    });

    it('refuses a venue out of reach (404) and an offerer not allowed on the school platform (403), and writes nothing', async () => {
      const before = await offerCount();
      const schoolProvider = await anotherProvider(true);
      const notForSchools = await anotherProvider(false);
      for (const venueId of [schoolProvider.venueId, notForSchools.venueId, 999_999]) {
        const response = await post(aBody({ venueId }));
        expect(response.status, String(venueId)).toBe(404);
        expect(response.body).toEqual({ global: ['Venue not found'] });
      }
      const refused = await post(aBody({ venueId: notForSchools.venueId }), notForSchools.key);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ global: [expect.stringContaining('not allowed to publish collective offers')] });
      expect(await offerCount()).toBe(before);
    });
  });

  describe('through /graphql, where no REST schema checks the input', () => {
    const createThroughGraph = (input: Json) =>
      graphql(
        'mutation ($input: CollectiveOfferInput!) { createCollectiveOffer(input: $input) { id } }',
        { input },
        key,
      );

    it('refuses what would not fit the columns or the contract (VALIDATION_FAILED), and writes nothing', async () => {
      const before = await offerCount();
      const cases: [Json, string][] = [
        [{ name: 'n'.repeat(111) }, 'name'],
        [{ name: 'a\u0000b' }, 'name'],
        [{ contactPhone: '0'.repeat(60) }, 'contactPhone'],
        [{ contactEmail: 'not an email' }, 'contactEmail'],
        [{ location: { type: 'TO_BE_DEFINED', comment: 'c'.repeat(201) } }, 'location'],
        [{ totalPrice: 30_000_000 }, 'totalPrice'],
        [{ numberOfTickets: -3 }, 'numberOfTickets'],
        [{ durationMinutes: -5 }, 'durationMinutes'],
        [{ formats: [] }, 'formats'],
        [{ bookingEmails: [] }, 'bookingEmails'],
      ];
      for (const [overrides, field] of cases) {
        const response = await createThroughGraph({
          ...aBody(overrides),
          startDatetime: START,
          bookingLimitDatetime: LIMIT,
        });
        expect(response.status).toBe(200);
        const error = response.body.errors?.[0];
        expect(error?.extensions?.code, JSON.stringify(overrides)).toBe('VALIDATION_FAILED');
        expect(error.extensions.issues[0].loc[0], JSON.stringify(overrides)).toBe(field);
      }
      expect(await offerCount()).toBe(before);
    });

    it('stores a domain, a level or a format named twice once', async () => {
      const response = await createThroughGraph({
        ...aBody({
          domains: [theatreDomain.id, theatreDomain.id],
          students: ['COLLEGE6', 'COLLEGE6'],
          formats: ['Concert', 'Concert'],
        }),
      });
      expect(response.body.errors, JSON.stringify(response.body)).toBeUndefined();
      const row = await stored(response.body.data.createCollectiveOffer.id);
      expect(row).toMatchObject({ domains: [theatreDomain.id], students: ['COLLEGE6'], formats: ['Concert'] });
    });
  });

  describe('reading one', () => {
    it('answers an offer of the caller (200), 404 for an unknown id, 403 for another provider’s', async () => {
      const offer = await created();
      const mine = await getOne(offer.id);
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual(offer);
      const unknown = await getOne(999_999);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ global: ['Collective offer not found'] });
      const unknownChange = await patch(999_999, { name: 'Nobody' });
      expect(unknownChange.status).toBe(404);
      expect(unknownChange.body).toEqual({ global: ['Collective offer not found'] });

      const schoolProvider = await anotherProvider(true);
      const theirs = await created({ venueId: schoolProvider.venueId }, schoolProvider.key);
      expect((await getOne(theirs.id, schoolProvider.key)).status).toBe(200);
      const forbidden = await getOne(theirs.id);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual({ global: ['You are not allowed to access this collective offer'] });
      const before = await stored(theirs.id);
      const changed = await patch(theirs.id, { name: 'Taken over' });
      expect(changed.status).toBe(403);
      expect(changed.body).toEqual({ global: ['You are not allowed to access this collective offer'] });
      expect((await stored(theirs.id)).name).toBe(before.name);
      // Not the caller's to archive either: not found among its offers.
      const archived = await archive({ ids: [theirs.id] });
      expect(archived.status).toBe(404);
      expect((await stored(theirs.id)).archivedAt).toBeNull();
    });

    it('takes an id in the path only (422 otherwise)', async () => {
      for (const id of ['abc', '0', '-1', '1.5']) {
        const response = await getOne(id);
        expect(response.status, id).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc: ['offer_id'] })]);
      }
    });

    it('does not take /formats for an offer id: the 8 formats (200)', async () => {
      const response = await request(testApp.app)
        .get('/v2/collective/offers/formats')
        .set('Authorization', `Bearer ${key}`);
      expectMatchesContract(response, 'get', FORMATS);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([...EAC_FORMATS]);
      expect(response.body).toHaveLength(8);
    });
  });

  describe('the list', () => {
    it('lists only the caller’s offers, in id order, with their bookings', async () => {
      const schoolProvider = await anotherProvider(true);
      const theirs = await created({ venueId: schoolProvider.venueId }, schoolProvider.key);
      const first = await created();
      const second = await created({ venueId: bookshop() });
      const response = await list();
      expect(response.status).toBe(200);
      const ids = response.body.map((offer: { id: number }) => offer.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));
      expect(ids).not.toContain(theirs.id);
      expect(response.body.find((offer: { id: number }) => offer.id === second.id)).toEqual({
        id: second.id,
        status: 'PENDING',
        offerStatus: 'UNDER_REVIEW',
        venueId: bookshop(),
        startDatetime: START,
        endDatetime: START,
        bookings: [],
      });
      const theirList = await list('', schoolProvider.key);
      expect(theirList.body.map((offer: { id: number }) => offer.id)).toEqual([theirs.id]);
    });

    it('filters by displayed status (offerStatus) and by the deprecated status', async () => {
      const live = await published();
      const { offer: prebooked, bookingId } = await bookedOffer([]);
      const underReview = await created();
      const byOfferStatus = async (offerStatus: string) => {
        const response = await list(`?offerStatus=${offerStatus}`);
        expect(response.status).toBe(200);
        expect(response.body.every((offer: { offerStatus: string }) => offer.offerStatus === offerStatus)).toBe(true);
        return response.body.map((offer: { id: number }) => offer.id) as number[];
      };
      expect(await byOfferStatus('PUBLISHED')).toContain(live.id);
      expect(await byOfferStatus('PUBLISHED')).not.toContain(underReview.id);
      expect(await byOfferStatus('UNDER_REVIEW')).toContain(underReview.id);
      expect(await byOfferStatus('UNDER_REVIEW')).not.toContain(live.id);
      const prebookedIds = await byOfferStatus('PREBOOKED');
      expect(prebookedIds).toContain(prebooked.id);
      expect(prebookedIds).not.toContain(live.id);
      const withBooking = (await list('?offerStatus=PREBOOKED')).body.find(
        (offer: { id: number }) => offer.id === prebooked.id,
      );
      expect(withBooking.bookings).toEqual([expect.objectContaining({ id: bookingId, status: 'PENDING' })]);
      expect(await byOfferStatus('ARCHIVED')).not.toContain(live.id);

      const byStatus = async (status: string) => {
        const response = await list(`?status=${status}`);
        expect(response.status).toBe(200);
        expect(response.body.every((offer: { status: string }) => offer.status === status)).toBe(true);
        return response.body.map((offer: { id: number }) => offer.id) as number[];
      };
      expect(await byStatus('ACTIVE')).toContain(live.id);
      expect(await byStatus('PENDING')).toContain(underReview.id);
      expect(await byStatus('SOLD_OUT')).toContain(prebooked.id);
      expect(await byStatus('ACTIVE')).not.toContain(prebooked.id);

      for (const query of ['?offerStatus=LIVE', '?status=PUBLISHED']) {
        const bad = await list(query);
        expect(bad.status, query).toBe(422);
        expect(bad.body).toEqual([expect.objectContaining({ type: 'enum' })]);
      }
    });

    it('filters by venue; a venue out of reach is 404', async () => {
      const atTheatre = await created({ venueId: theatre() });
      const atBookshop = await created({ venueId: bookshop() });
      const theatreOnly = await list(`?venueId=${theatre()}`);
      expect(theatreOnly.status).toBe(200);
      const ids = theatreOnly.body.map((offer: { id: number }) => offer.id);
      expect(ids).toContain(atTheatre.id);
      expect(ids).not.toContain(atBookshop.id);
      expect(theatreOnly.body.every((offer: { venueId: number }) => offer.venueId === theatre())).toBe(true);
      const schoolProvider = await anotherProvider(true);
      for (const venueId of [999_999, schoolProvider.venueId]) {
        const unreachable = await list(`?venueId=${venueId}`);
        expect(unreachable.status, String(venueId)).toBe(404);
        expect(unreachable.body).toEqual({ global: ['Venue not found'] });
      }
      const bad = await list('?venueId=theatre');
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual([expect.objectContaining({ loc: ['venueId'] })]);
    });

    it('filters by the period the start falls in: days (UTC, bounds included) or datetimes; a bad date is 422', async () => {
      const early = await created({
        startDatetime: '2027-03-01T00:00:00Z',
        bookingLimitDatetime: '2027-02-01T00:00:00Z',
      });
      const middle = await created({
        startDatetime: '2027-03-10T12:00:00Z',
        bookingLimitDatetime: '2027-02-01T00:00:00Z',
      });
      const late = await created({
        startDatetime: '2027-03-20T23:59:59Z',
        bookingLimitDatetime: '2027-02-01T00:00:00Z',
      });
      const after = await created({
        startDatetime: '2027-03-21T00:00:00Z',
        bookingLimitDatetime: '2027-02-01T00:00:00Z',
      });
      const ours = [early.id, middle.id, late.id, after.id];
      const within = async (query: string) => {
        const response = await list(query);
        expect(response.status, query).toBe(200);
        return response.body.map((offer: { id: number }) => offer.id).filter((id: number) => ours.includes(id));
      };
      expect(await within('?periodBeginningDate=2027-03-01&periodEndingDate=2027-03-20')).toEqual([
        early.id,
        middle.id,
        late.id,
      ]);
      expect(await within('?periodBeginningDate=2027-03-02')).toEqual([middle.id, late.id, after.id]);
      expect(await within('?periodEndingDate=2027-03-10')).toEqual([early.id, middle.id]);
      expect(await within('?periodBeginningDate=2027-03-10T12:00:00Z&periodEndingDate=2027-03-20T23:59:58Z')).toEqual([
        middle.id,
      ]);
      expect(await within(`?periodBeginningDate=${encodeURIComponent('2027-03-10T13:00:00+01:00')}`)).toEqual([
        middle.id,
        late.id,
        after.id,
      ]);
      expect(await within(`?periodBeginningDate=${encodeURIComponent('2027-03-10T13:00:01+01:00')}`)).toEqual([
        late.id,
        after.id,
      ]);
      expect(await within('?periodBeginningDate=2027-03-21&periodEndingDate=2027-03-01')).toEqual([]);
      for (const [query, loc] of [
        ['?periodBeginningDate=tomorrow', 'periodBeginningDate'],
        ['?periodEndingDate=2027-13-01', 'periodEndingDate'],
        ['?periodBeginningDate=2027-03', 'periodBeginningDate'],
        ['?periodEndingDate=12/03/2027', 'periodEndingDate'],
      ]) {
        const bad = await list(query);
        expect(bad.status, query).toBe(422);
        expect(bad.body).toEqual([expect.objectContaining({ loc: [loc], type: 'date_parsing' })]);
      }
    });

    // Date.parse would roll 2027-02-30 over into March: such a day is refused, as in bodies.
    it('refuses a day that does not exist (422 date_parsing)', async () => {
      for (const query of ['?periodBeginningDate=2027-02-30', '?periodEndingDate=2027-04-31']) {
        const bad = await list(query);
        expect(bad.status, query).toBe(422);
        expect(bad.body).toEqual([expect.objectContaining({ type: 'date_parsing' })]);
      }
    });
  });

  describe('changes', () => {
    it('changes only the fields sent (200), and stores them', async () => {
      const offer = await created({ durationMinutes: 90, educationalPriceDetail: 'Tout compris' });
      const before = await stored(offer.id);
      const response = await patch(offer.id, { name: 'Atelier masques', totalPrice: 700 });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toEqual({ ...offer, name: 'Atelier masques', totalPrice: 700 });
      const after = await stored(offer.id);
      expect(after).toMatchObject({
        name: 'Atelier masques',
        totalPriceCents: 70000,
        description: before.description,
        durationMinutes: 90,
        priceDetail: 'Tout compris',
        domains: before.domains,
        students: before.students,
        locationType: 'SCHOOL',
      });
      expect(after.startDatetime.getTime()).toBe(before.startDatetime.getTime());
      // An empty body changes nothing.
      const nothing = await patch(offer.id, {});
      expect(nothing.status).toBe(200);
      expect(nothing.body).toEqual(response.body);
    });

    it('clears the nullable fields sent null (duration, price detail, institution, programme, image)', async () => {
      const offer = await created({
        durationMinutes: 90,
        educationalPriceDetail: 'Tout compris',
        educationalInstitutionId: activeInstitution.id,
        nationalProgramId: theatreAtSchool.id,
        imageFile: aPng(400, 600).toString('base64'),
        imageCredit: 'Photo: A. Demo',
      });
      expect(offer.imageUrl).not.toBeNull();
      const response = await patch(offer.id, {
        durationMinutes: null,
        educationalPriceDetail: null,
        educationalInstitutionId: null,
        nationalProgramId: null,
        imageFile: null,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({
        durationMinutes: null,
        educationalPriceDetail: null,
        educationalInstitution: null,
        educationalInstitutionId: null,
        nationalProgram: null,
        imageUrl: null,
        imageCredit: null,
      });
      expect(await stored(offer.id)).toMatchObject({
        durationMinutes: null,
        priceDetail: null,
        institution: null,
        nationalProgram: null,
        imageKey: null,
        imageCredit: null,
      });
    });

    it('refuses null on a field that cannot be empty (422 not_nullable), and changes nothing', async () => {
      const offer = await created();
      const notNullable = [
        'venueId',
        'name',
        'description',
        'formats',
        'bookingEmails',
        'contactEmail',
        'contactPhone',
        'domains',
        'students',
      ];
      notNullable.push(
        'location',
        'startDatetime',
        'bookingLimitDatetime',
        'totalPrice',
        'numberOfTickets',
        'interventionArea',
        'isActive',
      );
      for (const field of notNullable) {
        const response = await patch(offer.id, { [field]: null });
        expect(response.status, field).toBe(422);
        expect(response.body, field).toEqual([
          { loc: [field], msg: 'This field cannot be null', type: 'not_nullable' },
        ]);
      }
      expect((await getOne(offer.id)).body).toEqual(offer);
    });

    // The flags are NOT NULL columns: null is refused before it reaches them (it once gave a 500).
    it('refuses null on an accessibility flag (422 not_nullable), as on isActive', async () => {
      const offer = await created({ audioDisabilityCompliant: true });
      for (const field of [
        'audioDisabilityCompliant',
        'mentalDisabilityCompliant',
        'motorDisabilityCompliant',
        'visualDisabilityCompliant',
      ]) {
        const response = await request(testApp.app)
          .patch(`/v2/collective/offers/${offer.id}`)
          .set('Authorization', `Bearer ${key}`)
          .send({ [field]: null });
        expect(response.status, `${field}: ${JSON.stringify(response.body)}`).toBe(422);
        expectMatchesContract(response, 'patch', ONE);
        expect(response.body, field).toEqual([
          { loc: [field], msg: 'This field cannot be null', type: 'not_nullable' },
        ]);
      }
      expect((await stored(offer.id)).audioDisabilityCompliant).toBe(true);
    });

    it('is strict: an unknown field, at the top or in a location, is 422 extra_forbidden; bad values are 422', async () => {
      const offer = await created();
      const extras: [Json, string[]][] = [
        [{ surprise: 1 }, ['surprise']],
        [{ id: 5 }, ['id']],
        [{ location: { type: 'SCHOOL', comment: 'x' } }, ['location', 'comment']],
        [{ location: { type: 'ADDRESS', isVenueAddress: false, addressId: 1, comment: 'x' } }, ['location', 'comment']],
      ];
      for (const [body, loc] of extras) {
        const response = await patch(offer.id, body);
        expect(response.status, loc.join('.')).toBe(422);
        expect(response.body).toEqual([{ loc, msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
      }
      const values: [Json, string[], string][] = [
        [{ formats: ['Cirque'] }, ['formats', '0'], 'enum'],
        [{ contactEmail: 'nope' }, ['contactEmail'], 'email_parsing'],
        [{ totalPrice: 10.015 }, ['totalPrice'], 'decimal_max_places'],
        [{ startDatetime: '2027-01-15 09:00' }, ['startDatetime'], 'timezone_aware'],
        [{ interventionArea: ['x'.repeat(11)] }, ['interventionArea', '0'], 'string_too_long'],
      ];
      for (const [body, loc, type] of values) {
        const response = await patch(offer.id, body);
        expect(response.status, loc.join('.')).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc, type })]);
      }
      expect((await getOne(offer.id)).body).toEqual(offer);
    });

    it('checks the dates as they would be: not in the past, the booking limit not after the start, the end not before it', async () => {
      const offer = await created({ endDatetime: '2027-01-16T09:00:00Z' });
      const cases: [Json, string[]][] = [
        [{ startDatetime: '2026-11-01T09:00:00Z' }, ['startDatetime', 'bookingLimitDatetime']],
        [{ bookingLimitDatetime: '2026-11-21T09:00:00Z' }, ['bookingLimitDatetime']],
        [{ bookingLimitDatetime: '2027-01-15T09:00:01Z' }, ['bookingLimitDatetime']],
        [{ startDatetime: '2027-01-05T17:00:00Z' }, ['bookingLimitDatetime']],
        [{ endDatetime: '2027-01-15T08:00:00Z' }, ['endDatetime']],
        [{ startDatetime: '2027-01-17T09:00:00Z' }, ['endDatetime']],
      ];
      for (const [body, locs] of cases) {
        const response = await patch(offer.id, body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        for (const loc of locs) {
          expect(
            response.body.map((issue: { loc: string[] }) => issue.loc[0]),
            JSON.stringify(response.body),
          ).toContain(loc);
        }
      }
      expect((await getOne(offer.id)).body).toEqual(offer);
      // Both moved together, consistently: fine.
      const moved = await patch(offer.id, {
        startDatetime: '2027-02-01T09:00:00Z',
        endDatetime: '2027-02-02T09:00:00Z',
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body).toMatchObject({
        startDatetime: '2027-02-01T09:00:00.000Z',
        endDatetime: '2027-02-02T09:00:00.000Z',
        bookingLimitDatetime: LIMIT,
      });
    });

    it('moves a one-moment offer’s end with its start', async () => {
      const offer = await created();
      const response = await patch(offer.id, { startDatetime: '2027-02-01T09:00:00Z' });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({
        startDatetime: '2027-02-01T09:00:00.000Z',
        endDatetime: '2027-02-01T09:00:00.000Z',
      });
      expect((await stored(offer.id)).endDatetime.toISOString()).toBe('2027-02-01T09:00:00.000Z');
    });

    it('applies the creation rules to what changes: institution, domains and programme, students, venue, location', async () => {
      const offer = await created({ nationalProgramId: theatreAtSchool.id });
      const before = await offerCount();
      const cases: [Json, number, Json][] = [
        [{ educationalInstitutionId: 999_999 }, 404, { global: ['Educational institution not found'] }],
        [
          { educationalInstitutionId: inactiveInstitution.id },
          403,
          { global: [expect.stringContaining('is not active')] },
        ],
        [
          { educationalInstitutionId: 1, educationalInstitution: activeInstitution.uai },
          400,
          { educationalInstitutionId: [expect.any(String)] },
        ],
        [{ domains: [99] }, 400, { domains: [expect.any(String)] }],
        // The programme stays: it must belong to the new domains.
        [{ domains: [cinemaDomain.id] }, 400, { nationalProgramId: [expect.any(String)] }],
        [{ nationalProgramId: schoolCinema.id }, 400, { nationalProgramId: [expect.any(String)] }],
        [{ students: ['NOPE'] }, 400, { students: [expect.any(String)] }],
        [{ venueId: 999_999 }, 404, { global: ['Venue not found'] }],
        [
          { venueId: online(), location: { type: 'ADDRESS', isVenueAddress: true } },
          400,
          { location: [expect.any(String)] },
        ],
        [
          { location: { type: 'ADDRESS', isVenueAddress: false, addressId: 999_999 } },
          404,
          { global: ['Address not found'] },
        ],
      ];
      for (const [body, status, answer] of cases) {
        const response = await patch(offer.id, body);
        expect(response.status, JSON.stringify(body)).toBe(status);
        expect(response.body, JSON.stringify(body)).toEqual(answer);
      }
      expect((await getOne(offer.id)).body).toEqual(offer);
      expect(await offerCount()).toBe(before);
      const notForSchools = await anotherProvider(false);
      const otherVenue = await patch(offer.id, { venueId: notForSchools.venueId });
      expect(otherVenue.status).toBe(404);
    });

    // Creation refuses ADDRESS at the venue for a venue without an address; moving there is refused alike.
    it('refuses to move an offer at its venue’s address to a venue without one (400)', async () => {
      const offer = await created({ location: { type: 'ADDRESS', isVenueAddress: true } });
      const response = await patch(offer.id, { venueId: online() });
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(await stored(offer.id)).toMatchObject({ venue: { id: theatre() }, atVenueAddress: true });
    });

    describe('as the booking allows', () => {
      /** A change of every kind of field, valid on a fresh offer. */
      const everything = async () => {
        const address = await anAddress();
        return {
          venueId: bookshop(),
          name: 'Visite des coulisses',
          description: 'Les coulisses du théâtre.',
          formats: ['Visite guidée'],
          bookingEmails: ['other@example.com'],
          contactEmail: 'other@example.com',
          contactPhone: '01 99 00 63 28',
          domains: [cinemaDomain.id, theatreDomain.id],
          students: ['GENERAL2'],
          interventionArea: ['75', '2A', '974'],
          location: {
            type: 'ADDRESS',
            isVenueAddress: false,
            addressId: address.id,
            addressLabel: 'Entrée des artistes',
          },
          startDatetime: '2027-02-01T09:00:00Z',
          endDatetime: '2027-02-01T12:00:00Z',
          bookingLimitDatetime: '2027-01-20T09:00:00Z',
          totalPrice: 480.25,
          numberOfTickets: 25,
          educationalPriceDetail: 'Guide compris',
          durationMinutes: 180,
          educationalInstitution: otherActiveInstitution.uai,
          nationalProgramId: schoolCinema.id,
          imageFile: aPng(400, 600).toString('base64'),
          imageCredit: 'Photo: B. Demo',
          isActive: false,
          audioDisabilityCompliant: true,
          mentalDisabilityCompliant: true,
          motorDisabilityCompliant: true,
          visualDisabilityCompliant: true,
          address,
        };
      };
      const expectEverythingChanged = async (
        id: number,
        response: { body: Json },
        change: Awaited<ReturnType<typeof everything>>,
      ) => {
        const {
          address,
          imageFile: _imageFile,
          nationalProgramId: _programme,
          educationalInstitution: _uai,
          ...plain
        } = change;
        expect(response.body).toMatchObject({
          ...plain,
          startDatetime: '2027-02-01T09:00:00.000Z',
          endDatetime: '2027-02-01T12:00:00.000Z',
          bookingLimitDatetime: '2027-01-20T09:00:00.000Z',
          educationalInstitution: otherActiveInstitution.uai,
          educationalInstitutionId: otherActiveInstitution.id,
          nationalProgram: { id: schoolCinema.id, name: schoolCinema.name },
          imageUrl: expect.stringMatching(/^http:\/\/api\.test\/images\//),
          offerVenue: {
            addressType: 'other',
            otherAddress: `Entrée des artistes, ${address.street}, 75004 Paris`,
            venueId: null,
          },
        });
        expect(await stored(id)).toMatchObject({
          venue: { id: bookshop() },
          name: 'Visite des coulisses',
          totalPriceCents: 48025,
          numberOfTickets: 25,
          interventionArea: ['75', '2A', '974'],
          locationType: 'ADDRESS',
          address: { id: address.id },
          addressLabel: 'Entrée des artistes',
          institution: { id: otherActiveInstitution.id },
          nationalProgram: { id: schoolCinema.id },
          priceDetail: 'Guide compris',
          isActive: change.isActive,
          visualDisabilityCompliant: true,
        });
      };

      it('no booking: everything may change', async () => {
        const offer = await created({ educationalInstitutionId: activeInstitution.id });
        const { address, ...change } = await everything();
        const response = await patch(offer.id, change);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        await expectEverythingChanged(offer.id, response, { address, ...change });
      });

      it('a PENDING booking: everything may change, and the pre-booking follows the new dates', async () => {
        const { offer, bookingId } = await bookedOffer([]);
        expect((await getOne(offer.id)).body).toMatchObject({
          offerStatus: 'PREBOOKED',
          status: 'SOLD_OUT',
          isSoldOut: true,
        });
        const { address, ...change } = await everything();
        const response = await patch(offer.id, { ...change, isActive: true });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        await expectEverythingChanged(offer.id, response, { address, ...change, isActive: true });
        expect(response.body.offerStatus).toBe('PREBOOKED');
        const booking = await storedBooking(bookingId);
        expect(booking.confirmationLimitDate.toISOString()).toBe('2027-01-20T09:00:00.000Z');
        // Free cancellation until 15 days before the new start.
        expect(booking.cancellationLimitDate.toISOString()).toBe('2027-01-17T09:00:00.000Z');
      });

      it('a CONFIRMED booking: the price down, the students and the price detail only; each other field is 400 naming it', async () => {
        const { offer } = await bookedOffer(['confirm'], {
          educationalPriceDetail: 'Tout compris',
          educationalInstitution: activeInstitution.uai,
        });
        expect((await getOne(offer.id)).body).toMatchObject({ offerStatus: 'BOOKED', status: 'SOLD_OUT' });

        const down = await patch(offer.id, {
          totalPrice: 600,
          students: ['COLLEGE4'],
          educationalPriceDetail: 'Sans costumes',
        });
        expect(down.status, JSON.stringify(down.body)).toBe(200);
        expect(down.body).toMatchObject({
          totalPrice: 600,
          students: ['COLLEGE4'],
          educationalPriceDetail: 'Sans costumes',
        });
        expect(await stored(offer.id)).toMatchObject({
          totalPriceCents: 60000,
          students: ['COLLEGE4'],
          priceDetail: 'Sans costumes',
        });

        const up = await patch(offer.id, { totalPrice: 600.01 });
        expect(up.status).toBe(400);
        expect(up.body).toEqual({ totalPrice: [expect.stringContaining('only go down')] });

        const { address: _address, ...everyField } = await everything();
        const refusable = Object.keys(everyField).filter(
          (field) => !['students', 'educationalPriceDetail', 'totalPrice'].includes(field),
        );
        for (const field of refusable) {
          const response = await patch(offer.id, { [field]: everyField[field as keyof typeof everyField] });
          expect(response.status, field).toBe(400);
          expect(response.body, field).toEqual({ [field]: [`${field} cannot change once the booking is confirmed`] });
        }
        // Refused together with an allowed change: nothing changes.
        const mixed = await patch(offer.id, { totalPrice: 500, name: 'Autre' });
        expect(mixed.status).toBe(400);
        expect(mixed.body).toEqual({ name: [expect.any(String)] });
        const row = await stored(offer.id);
        expect(row).toMatchObject({
          totalPriceCents: 60000,
          name: 'Atelier théâtre',
          venue: { id: theatre() },
          locationType: 'SCHOOL',
        });
        expect(row.startDatetime.toISOString()).toBe(START);
      });

      it('a CONFIRMED booking: resending unchanged values is no change (200)', async () => {
        const { offer } = await bookedOffer(['confirm'], {
          educationalInstitution: activeInstitution.uai,
          nationalProgramId: theatreAtSchool.id,
          durationMinutes: 60,
        });
        const unchanged = {
          venueId: theatre(),
          name: offer.name,
          description: offer.description,
          formats: offer.formats,
          bookingEmails: offer.bookingEmails,
          contactEmail: offer.contactEmail,
          contactPhone: offer.contactPhone,
          domains: offer.domains,
          numberOfTickets: offer.numberOfTickets,
          durationMinutes: 60,
          nationalProgramId: theatreAtSchool.id,
          educationalInstitutionId: activeInstitution.id,
          isActive: true,
          audioDisabilityCompliant: false,
          // The same moments, written otherwise.
          startDatetime: '2027-01-15T10:00:00+01:00',
          bookingLimitDatetime: '2027-01-05T18:00:00Z',
          totalPrice: 650.5,
        };
        const response = await patch(offer.id, unchanged);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expect(response.body).toMatchObject({
          ...offer,
          offerStatus: 'BOOKED',
          status: 'SOLD_OUT',
          isSoldOut: true,
          bookings: [expect.objectContaining({ status: 'CONFIRMED' })],
        });
      });

      // The UAI resent is compared with the offer's institution, which must be loaded for it (an
      // unloaded reference has no uai: an unchanged UAI would count as a change and be refused).
      it('a CONFIRMED booking: resending the institution’s UAI unchanged is no change (200)', async () => {
        const { offer } = await bookedOffer(['confirm'], { educationalInstitution: activeInstitution.uai });
        const response = await patch(offer.id, { educationalInstitution: activeInstitution.uai });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expect(response.body.educationalInstitutionId).toBe(activeInstitution.id);
      });

      for (const [state, moves, why] of [
        ['USED', ['confirm', 'use'], 'its booking was used'],
        ['CANCELLED', ['cancel'], 'its booking was cancelled'],
        ['CANCELLED after confirmation', ['confirm', 'cancel'], 'its booking was cancelled'],
        ['REIMBURSED', ['confirm', 'use', 'reimburse'], 'its booking was reimbursed'],
      ] as [string, Move[], string][]) {
        it(`a ${state} booking: nothing may change (400 naming the field)`, async () => {
          const { offer } = await bookedOffer(moves);
          const before = await getOne(offer.id);
          for (const change of [
            { totalPrice: 1 },
            { name: 'Autre' },
            { students: ['COLLEGE3'] },
            { educationalPriceDetail: 'Autre' },
            { startDatetime: '2027-02-01T09:00:00Z' },
          ]) {
            const [field] = Object.keys(change);
            const response = await patch(offer.id, change);
            expect(response.status, field).toBe(400);
            expect(response.body).toEqual({ [field]: [`${field} cannot change: ${why}`] });
          }
          expect((await getOne(offer.id)).body).toEqual(before.body);
          // Resending a value unchanged is still no change.
          expect((await patch(offer.id, { name: offer.name })).status).toBe(200);
        });
      }

      it('an ARCHIVED offer: nothing may change (400)', async () => {
        const offer = await published();
        expect((await archive({ ids: [offer.id] })).status).toBe(204);
        for (const change of [{ name: 'Autre' }, { totalPrice: 1 }, { students: ['COLLEGE3'] }]) {
          const [field] = Object.keys(change);
          const response = await patch(offer.id, change);
          expect(response.status, field).toBe(400);
          expect(response.body).toEqual({ [field]: [`${field} cannot change: the offer is archived`] });
        }
        expect(await stored(offer.id)).toMatchObject({ name: 'Atelier théâtre', totalPriceCents: 65050 });
      });
    });
  });

  describe('archiving', () => {
    it('archives offers (204): ARCHIVED, archivedAt stored; archiving again changes nothing', async () => {
      const first = await published();
      const second = await published();
      const response = await archive({ ids: [first.id, second.id, first.id] });
      expect(response.status).toBe(204);
      for (const offer of [first, second]) {
        expect((await getOne(offer.id)).body).toMatchObject({ offerStatus: 'ARCHIVED', status: 'ARCHIVED' });
        expect((await stored(offer.id)).archivedAt?.toISOString()).toBe(NOW.toISOString());
      }
      testApp.clock.advance(3_600_000);
      expect((await archive({ ids: [first.id] })).status).toBe(204);
      expect((await stored(first.id)).archivedAt?.toISOString()).toBe(NOW.toISOString());
      const archivedIds = (await list('?offerStatus=ARCHIVED')).body.map((offer: { id: number }) => offer.id);
      expect(archivedIds).toEqual(expect.arrayContaining([first.id, second.id]));
    });

    it('archives rejected, hidden and expired offers too', async () => {
      const rejected = await created();
      expect((await review(rejected.id, 'REJECTED')).body.errors).toBeUndefined();
      const hidden = await created({ isActive: false });
      await approveAll();
      expect((await getOne(hidden.id)).body.offerStatus).toBe('HIDDEN');
      const expiring = await published({ bookingLimitDatetime: '2026-11-23T10:00:00Z' });
      testApp.clock.set(new Date('2026-11-24T10:00:00Z'));
      expect((await getOne(expiring.id)).body.offerStatus).toBe('EXPIRED');
      expect((await archive({ ids: [rejected.id, hidden.id, expiring.id] })).status).toBe(204);
      for (const offer of [rejected, hidden, expiring])
        expect((await getOne(offer.id)).body.offerStatus).toBe('ARCHIVED');
    });

    it('is all or none: an unknown id is 404 and nothing is archived', async () => {
      const offer = await published();
      const response = await archive({ ids: [offer.id, 999_999] });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ global: [expect.stringContaining('999999')] });
      expect((await stored(offer.id)).archivedAt).toBeNull();
      expect((await getOne(offer.id)).body.offerStatus).toBe('PUBLISHED');
    });

    it('refuses to archive a hidden offer whose school holds a booking, and to confirm a booking of an archived offer', async () => {
      const { offer, bookingId } = await bookedOffer([]);
      expect((await patch(offer.id, { isActive: false })).status).toBe(200);
      expect((await getOne(offer.id)).body.offerStatus).toBe('PREBOOKED');
      const refused = await archive({ ids: [offer.id] });
      expect(refused.status).toBe(400);
      expect(refused.body.ids[0]).toContain('PENDING booking');
      expect((await stored(offer.id)).archivedAt).toBeNull();
      // Cancelled by the school, the hidden offer may be archived; its booking cannot be reopened then.
      const cancelled = await request(testApp.app)
        .post(`/v2/collective/adage_mock/bookings/${bookingId}/cancel`)
        .set('Authorization', `Bearer ${key}`);
      expect(cancelled.status).toBe(204);
      expect((await archive({ ids: [offer.id] })).status).toBe(204);
      const reopened = await request(testApp.app)
        .post(`/v2/collective/adage_mock/bookings/${bookingId}/pending`)
        .set('Authorization', `Bearer ${key}`);
      expectMatchesContract(reopened, 'post', '/v2/collective/adage_mock/bookings/{booking_id}/pending');
      expect(reopened.status).toBe(403);
    });

    it('lets an archive and a booking of one offer race: exactly one wins, and no archived offer holds a live booking', async () => {
      for (let round = 0; round < 5; round += 1) {
        const offer = await published();
        const [archived, booked] = await Promise.all([
          archive({ ids: [offer.id] }),
          request(testApp.app)
            .post(`/v2/collective/adage_mock/offer/${offer.id}/book`)
            .set('Authorization', `Bearer ${key}`),
        ]);
        expect([archived.status, booked.status].sort()).toEqual(archived.status === 204 ? [204, 403] : [200, 400]);
        const row = await stored(offer.id);
        const live = await em().count(CollectiveBooking, { offer: offer.id, status: { $ne: 'CANCELLED' } });
        expect(row.archivedAt === null ? live : 0, `round ${round}`).toBe(row.archivedAt === null ? 1 : 0);
        if (row.archivedAt) expect(live).toBe(0);
      }
    });

    it('is all or none: an offer under review, pre-booked or booked is 400 and nothing is archived', async () => {
      const { offer: prebooked } = await bookedOffer([]);
      const { offer: booked } = await bookedOffer(['confirm']);
      const archivable = await published();
      const underReview = await created();
      for (const refused of [underReview, prebooked, booked]) {
        const response = await archive({ ids: [archivable.id, refused.id] });
        expect(response.status, String(refused.id)).toBe(400);
        expect(response.body).toEqual({
          ids: [expect.stringMatching(new RegExp(`^The offer ${refused.id} (is|has)`))],
        });
      }
      const all = await archive({ ids: [archivable.id, underReview.id, prebooked.id, booked.id] });
      expect(all.status).toBe(400);
      expect(all.body.ids).toHaveLength(3);
      for (const offer of [archivable, underReview, prebooked, booked])
        expect((await stored(offer.id)).archivedAt).toBeNull();
      expect((await getOne(archivable.id)).body.offerStatus).toBe('PUBLISHED');
    });

    it('validates its body (422): ids required, positive integers, no other field', async () => {
      const offer = await published();
      const cases: [unknown, string[], string][] = [
        [{ ids: [offer.id], surprise: true }, ['surprise'], 'extra_forbidden'],
        [{}, ['ids'], 'missing'],
        [{ ids: [] }, ['ids'], 'too_short'],
        [{ ids: ['one'] }, ['ids', '0'], 'int_parsing'],
        [{ ids: [0] }, ['ids', '0'], 'greater_than'],
      ];
      for (const [body, loc, type] of cases) {
        const response = await archive(body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc, type })]);
      }
      expect((await stored(offer.id)).archivedAt).toBeNull();
    });
  });

  describe('review', () => {
    it('REJECTED through reviewOffer (collective: true, internal key) shows REJECTED', async () => {
      const offer = await created();
      const response = await review(offer.id, 'REJECTED');
      expect(response.body.errors, JSON.stringify(response.body)).toBeUndefined();
      // The gateway asks the collective subgraph for the offer's own fields: the federation reference works.
      expect(response.body.data.reviewOffer).toEqual({
        offerId: offer.id,
        collective: true,
        decision: 'REJECTED',
        collectiveOffer: { id: offer.id, displayedStatus: 'REJECTED' },
      });
      expect((await getOne(offer.id)).body).toMatchObject({ offerStatus: 'REJECTED', status: 'REJECTED' });
      expect(await stored(offer.id)).toMatchObject({ validation: 'REJECTED', validationReason: 'Checked' });
      // Not bookable.
      const booking = await request(testApp.app)
        .post(`/v2/collective/adage_mock/offer/${offer.id}/book`)
        .set('Authorization', `Bearer ${key}`);
      expectMatchesContract(booking, 'post', BOOK);
      expect(booking.status).toBe(403);
    });

    it('APPROVED through reviewOffer publishes the offer', async () => {
      const offer = await created();
      const response = await review(offer.id, 'APPROVED');
      expect(response.body.errors, JSON.stringify(response.body)).toBeUndefined();
      expect(response.body.data.reviewOffer).toEqual({
        offerId: offer.id,
        collective: true,
        decision: 'APPROVED',
        collectiveOffer: { id: offer.id, displayedStatus: 'PUBLISHED' },
      });
      expect((await getOne(offer.id)).body).toMatchObject({ offerStatus: 'PUBLISHED', status: 'ACTIVE' });
      expect((await stored(offer.id)).validation).toBe('APPROVED');
    });

    it('is for internal tools only: a provider key is FORBIDDEN', async () => {
      const offer = await created();
      const response = await review(offer.id, 'APPROVED', key);
      expect(response.body.errors?.[0]?.extensions?.code, JSON.stringify(response.body)).toBe('FORBIDDEN');
      expect((await stored(offer.id)).validation).toBe('PENDING');
    });

    it('answers NOT_FOUND for an unknown collective offer', async () => {
      const response = await review(999_999, 'APPROVED');
      expect(response.body.errors?.[0]?.extensions?.code, JSON.stringify(response.body)).toBe('NOT_FOUND');
    });
  });
});

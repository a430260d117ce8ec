import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { CollectiveBooking } from '../../graphql/collective/CollectiveBooking.js';
import { CollectiveOffer } from '../../graphql/collective/CollectiveOffer.js';
import { educationalDomains, nationalPrograms } from '../../graphql/collective/reference/educationalData.js';
import { educationalInstitutions } from '../../graphql/collective/reference/institutionData.js';
import type { CreatedSandbox } from '../../graphql/providers/sandbox.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { type ApiClient, apiClient, expectStatus, type OperationId } from './api.js';
import { createTestApp, type TestApp } from './app.js';
import { drainJobs, graphqlAs } from './builders.js';
import { openApiDocument } from './contract.js';
import { aProvider, createSandbox } from './fixtures.js';

/**
 * What the collective suites (offers, bookings, attributes) share: an app with the sandbox, a
 * fresh key of the sandbox provider per test, a body of a valid offer, and the moves of an offer
 * and of its booking through the public API.
 */

/** The clock of every test: set again before each. */
export const NOW = new Date('2026-11-22T10:00:00Z');
/** The start and the booking limit of the offer `aBody` describes. */
export const START = '2027-01-15T09:00:00.000Z';
export const LIMIT = '2027-01-05T18:00:00.000Z';

export type Json = Record<string, unknown>;

/** The formats of a collective offer as the contract enumerates them (EacFormat), in its order. */
export const contractFormats = () => (openApiDocument.components?.schemas?.EacFormat as { enum: string[] }).enum;
/** The fields the contract's creation body requires (the location aside: the deprecated offerVenue may stand for it). */
export const contractRequiredOnCreation = () =>
  (openApiDocument.components?.schemas?.PostCollectiveOfferBodyModel as { required: string[] }).required;

/** The reference data the suites lean on, checked against the seed (collectiveOfferCreation) rather than assumed. */
export const seed = {
  theatreDomain: educationalDomains.find((domain) => domain.id === 15)!,
  cinemaDomain: educationalDomains.find((domain) => domain.id === 6)!,
  theatreAtSchool: nationalPrograms.find((program) => program.id === 6)!,
  schoolCinema: nationalPrograms.find((program) => program.id === 1)!,
  activeInstitution: educationalInstitutions.find((institution) => institution.id === 1)!,
  otherActiveInstitution: educationalInstitutions.find((institution) => institution.id === 2)!,
  inactiveInstitution: educationalInstitutions.find((institution) => institution.id === 9)!,
  otherInactiveInstitution: educationalInstitutions.find((institution) => institution.id === 40)!,
};

/**
 * The moves of a booking, by their operations: the school platform's (mocks: confirm, cancel,
 * back to pending, reimburse), the use after the event, and the provider's cancellation.
 */
export const BOOKING_MOVES = {
  confirm: 'ConfirmCollectiveBooking',
  cancel: 'AdageMockCancelCollectiveBooking',
  pending: 'ResetCollectiveBooking',
  reimburse: 'ReimburseCollectiveBooking',
  use: 'UseCollectiveBooking',
  cancelByProvider: 'CancelCollectiveBooking',
} as const satisfies Record<string, OperationId>;
export type Move = keyof typeof BOOKING_MOVES;

export interface CollectiveWorldOptions {
  /** An image directory of its own, and the public URL the image URLs start with. */
  images?: boolean;
  /** AUTO_APPROVAL_DELAY_SECONDS; 0 (approved within the creation) unless told. */
  approvalDelaySeconds?: number;
}

/** Registers the suite's hooks and answers its world: read its fields inside tests and hooks only. */
export function collectiveWorld(options: CollectiveWorldOptions = {}) {
  let imageDirectory: string | null = null;
  let streetNumber = 0;

  const state = {
    testApp: undefined as unknown as TestApp,
    sandbox: undefined as unknown as CreatedSandbox,
    /** A provider of its own (its offerer not allowed on the school platform), and its key. */
    other: undefined as unknown as Awaited<ReturnType<typeof aProvider>>,
    internalKey: '',
    /** A fresh key of the sandbox provider per test: the rate limit (200 a minute per key) runs on real time. */
    key: '',
    /** The public API as the sandbox provider calls it, with `key`. */
    api: undefined as unknown as ApiClient,
  };

  const em = () => state.testApp.database.orm.em.fork();
  const theatre = () => state.sandbox.venues[0].id;
  const bookshop = () => state.sandbox.venues[1].id;
  const online = () => state.sandbox.venues[2].id;

  /** Another key of the sandbox provider and offerer. */
  const sandboxKey = async (): Promise<string> => {
    const fork = em();
    const issued = issueApiKey(fork, state.testApp.clock, {
      env: 'test',
      provider: fork.getReference(Provider, state.sandbox.provider.id),
      offerer: fork.getReference(Offerer, state.sandbox.offerer.id),
    });
    await fork.flush();
    return issued.key;
  };

  /**
   * A valid body of a new offer: at the school, in the theatre venue, from START, for the first
   * active institution (named by id, unless the overrides name one by UAI).
   */
  const aBody = (overrides: Json = {}): Json => {
    const body: Json = {
      venueId: theatre(),
      name: 'Atelier théâtre',
      description: 'Une semaine de pratique théâtrale avec une troupe.',
      formats: ['Atelier de pratique', 'Représentation'],
      bookingEmails: ['booking@example.com', 'team@example.com'],
      contactEmail: 'contact@example.com',
      contactPhone: '+33199006328',
      domains: [seed.theatreDomain.id],
      students: ['COLLEGE6', 'COLLEGE5'],
      location: { type: 'SCHOOL' },
      startDatetime: START,
      bookingLimitDatetime: LIMIT,
      totalPrice: 650.5,
      numberOfTickets: 30,
      educationalInstitutionId: seed.activeInstitution.id,
      ...overrides,
    };
    if ('educationalInstitution' in overrides && !('educationalInstitutionId' in overrides))
      delete body.educationalInstitutionId;
    return body;
  };
  /** The body without some fields (absent, not null). */
  const without = (...fields: string[]): Json => {
    const body = aBody();
    for (const field of fields) delete body[field];
    return body;
  };

  const post = (body: unknown, key?: string | null) => state.api.call('PostCollectiveOfferPublic', { body, key });
  const patch = (id: number | string, body: unknown, key?: string | null) =>
    state.api.call('PatchCollectiveOfferPublic', { params: { offer_id: id }, body, key });
  const getOne = (id: number | string, key?: string | null) =>
    state.api.call('GetCollectiveOfferPublic', { params: { offer_id: id }, key });
  /** The list, with a query string such as `?offerStatus=PUBLISHED`. */
  const list = (query = '', key?: string | null) =>
    state.api.call('GetCollectiveOffersPublic', { query: query.replace(/^\?/, '') || undefined, key });
  const archive = (body: unknown, key?: string | null) => state.api.call('ArchiveCollectiveOffers', { body, key });
  const book = (offerId: number | string, key?: string | null) =>
    state.api.call('AdageMockBookOffer', { params: { offer_id: offerId }, key });
  const move = (what: Move, bookingId: number | string, key?: string | null) =>
    state.api.call(BOOKING_MOVES[what], { params: { booking_id: bookingId }, key });
  /** A `/graphql` request, with `key` unless told otherwise. */
  const graphql = (query: string, variables: Json, key?: string) =>
    graphqlAs(state.testApp, key ?? state.key, query, variables);

  /** A new offer: the body answered (201); approved at once unless the world has an approval delay. */
  const created = async (overrides: Json = {}, key?: string) => {
    const response = await post(aBody(overrides), key);
    expectStatus(response, 201);
    return response.body;
  };
  /** A new offer, approved: PUBLISHED, as read then. (Every offer whose approval is due is approved with it.) */
  const published = async (overrides: Json = {}, key?: string) => {
    const offer = await created(overrides, key);
    await drainJobs(state.testApp);
    const read = await getOne(offer.id, key);
    expect(read.body.offerStatus).toBe('PUBLISHED');
    return read.body;
  };
  /**
   * A new offer still under review (UNDER_REVIEW), as one is during a positive approval delay:
   * created through the API, then put back to PENDING in the database.
   */
  const underReview = async (overrides: Json = {}, key?: string) => {
    const offer = await created(overrides, key);
    await em().nativeUpdate(CollectiveOffer, offer.id, {
      validation: 'PENDING',
      validationReason: null,
      validatedAt: null,
    });
    expect((await getOne(offer.id, key)).body.offerStatus).toBe('UNDER_REVIEW');
    return offer;
  };
  /** A published offer whose booking went through these moves (none: PENDING), `between` ms apart. */
  const bookedOffer = async (moves: Move[], overrides: Json = {}, between = 0) => {
    const offer = await published(overrides);
    const booked = await book(offer.id);
    expectStatus(booked, 200);
    expect(booked.body.status).toBe('PENDING');
    const bookingId = booked.body.id;
    for (const what of moves) {
      state.testApp.clock.advance(between);
      const moved = await move(what, bookingId);
      expect(moved.status, `${what}: ${JSON.stringify(moved.body)}`).toBe(204);
    }
    return { offer, bookingId };
  };

  const offerCount = () => em().count(CollectiveOffer, {});
  const stored = (id: number) =>
    em().findOneOrFail(CollectiveOffer, id, { populate: ['address', 'institution', 'nationalProgram', 'venue'] });
  const storedBooking = (id: number) => em().findOneOrFail(CollectiveBooking, id);

  /** A new provider with its own offerer (allowed on the school platform or not), one physical venue of it, and a key. */
  const anotherProvider = async (allowedOnAdage: boolean) => {
    const fork = em();
    const clock = state.testApp.clock;
    const added = await aProvider(fork, clock, { name: allowedOnAdage ? 'School Shows' : 'Not For Schools' });
    const offerer = await fork.findOneOrFail(Offerer, added.offerer.id);
    offerer.allowedOnAdage = allowedOnAdage;
    const venue = fork.create(Venue, {
      offerer,
      legalName: `${offerer.name} Hall`,
      activityDomain: 'PERFORMING_ARTS',
      siret: null,
      siretComment: 'Association without SIRET',
      isVirtual: false,
      createdDatetime: clock.now(),
    });
    fork.create(VenueProvider, { venue, provider: added.provider.id, isActive: true, createdAt: clock.now() });
    await fork.flush();
    return { providerId: added.provider.id, venueId: venue.id, key: added.apiKey };
  };
  /** A new address created through the API (the same street twice would be the same address). */
  const anAddress = async () => {
    const street = `${(streetNumber += 1)} Rue des Archives`;
    const response = await state.api.call('CreateAddress', {
      body: { street, city: 'Paris', postalCode: '75004', latitude: 48.858, longitude: 2.356 },
    });
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return { id: (response.body as { id: number }).id, street };
  };
  /** The compliance review's decision, through `/graphql`, by an internal key unless told otherwise. */
  const review = (offerId: number, decision: string, key = state.internalKey) =>
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
      key,
    );

  const world = Object.assign(state, {
    em,
    theatre,
    bookshop,
    online,
    sandboxKey,
    aBody,
    without,
    post,
    patch,
    getOne,
    list,
    archive,
    book,
    move,
    graphql,
    created,
    published,
    underReview,
    bookedOffer,
    offerCount,
    stored,
    storedBooking,
    anotherProvider,
    anAddress,
    review,
  });

  beforeAll(async () => {
    const env: Record<string, string> = { AUTO_APPROVAL_DELAY_SECONDS: String(options.approvalDelaySeconds ?? 0) };
    if (options.images) {
      imageDirectory = await mkdtemp(join(tmpdir(), 'collective-images-'));
      Object.assign(env, { IMAGE_DIRECTORY: imageDirectory, PUBLIC_URL: 'http://api.test' });
    }
    state.testApp = await createTestApp({ env });
    state.sandbox = await createSandbox(em(), state.testApp.clock, 'test');
    state.other = await aProvider(em(), state.testApp.clock);
    const fork = em();
    state.internalKey = issueApiKey(fork, state.testApp.clock, { env: 'test', internal: true }).key;
    await fork.flush();
  });
  beforeEach(async () => {
    state.testApp.clock.set(NOW);
    state.key = await sandboxKey();
    state.api = apiClient(state.testApp.app, state.key);
  });
  afterAll(async () => {
    await state.testApp.close();
    if (imageDirectory) await rm(imageDirectory, { recursive: true, force: true });
  });

  return world;
}

export type CollectiveWorld = ReturnType<typeof collectiveWorld>;

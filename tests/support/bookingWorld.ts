import type { RequiredEntityData } from '@mikro-orm/core';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { Beneficiary } from '../../graphql/bookings/Beneficiary.js';
import { Booking } from '../../graphql/bookings/Booking.js';
import { ProviderMessage } from '../../graphql/bookings/ProviderMessage.js';
import { catalogueEntries } from '../../graphql/offers/eanCatalogue/catalogueData.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import type { CreatedSandbox } from '../../graphql/providers/sandbox.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { hasValidSignature, SIGNATURE_HEADER } from '../../platform/messaging/signature.js';
import { type ApiClient, apiClient } from './api.js';
import { createTestApp, type TestApp } from './app.js';
import { aBeneficiary, aBookableDate, type BookableDateOptions, drainJobs, graphqlAs } from './builders.js';
import { publishedEventData } from './eventData.js';
import { aProvider, createSandbox } from './fixtures.js';
import { type ReceivedRequest, Receiver } from './receiver.js';

/**
 * The scaffolding of the booking suites (tests/api/bookings/): an app, the sandbox's venues, a
 * receiver standing in for the providers' systems, and "worlds": providers of their own, so that
 * each test's bookings, transitions and messages are its own.
 */

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** The credit of a new beneficiary: 300 euros. */
export const CREDIT = 30_000;

/** Paper books of the EAN catalogue, which a product offer may carry. */
export const books = catalogueEntries.filter((entry) => entry.category === 'LIVRE_PAPIER' && entry.compliant);

const BOOK = `mutation Book($input: SandboxBookingInput!) {
  sandboxBook(input: $input) { id token status quantity cancellationLimitDate }
}`;
const RUN_JOBS = `mutation Run($at: DateTimeISO!) { sandboxRunScheduledJobs(at: $at) { used expired reimbursed } }`;

/** A provider of its own (linked to the sandbox venues, with a fresh key). */
export interface World {
  providerId: number;
  key: string;
  /** The provider's messaging secret, which signs what is sent to it. */
  secret: string;
}

export interface Booked {
  id: number;
  token: string;
  status: string;
  quantity: number;
  cancellationLimitDate: string | null;
}

export interface GraphAnswer {
  data: Record<string, any> | null;
  errors?: { message: string; extensions: Record<string, any> }[];
}

export type Verb = 'use' | 'keep' | 'cancel';
export type BookingOptions = { quantity?: number; beneficiaryId?: number | null };

export interface ProductOptions {
  category?: 'LIVRE_PAPIER' | 'SUPPORT_PHYSIQUE_MUSIQUE_CD';
  price?: number;
  quantity?: number | null;
  ean?: string | null;
  offer?: Partial<RequiredEntityData<Offer>>;
}

/** Where the receiver takes a world's notifications, booking calls and ticket cancellations. */
export const pathOf = (world: World, kind: 'notify' | 'booking' | 'cancel') => `/${kind}/${world.providerId}`;

/** Every request was signed, over its exact bytes, with the world's own secret. */
export function expectSignedFor(world: World, requests: ReceivedRequest[]): void {
  expect(requests.length).toBeGreaterThan(0);
  for (const received of requests) {
    const signature = received.headers[SIGNATURE_HEADER.toLowerCase()];
    expect(hasValidSignature(received.raw, world.secret, typeof signature === 'string' ? signature : undefined)).toBe(
      true,
    );
  }
}

/** The domain error of a /graphql answer: no data, one error with its code. */
export function refusalOf(answer: GraphAnswer) {
  expect(answer.data).toBeNull();
  expect(answer.errors).toHaveLength(1);
  return {
    code: answer.errors![0].extensions.code as string,
    message: answer.errors![0].message,
    fields: answer.errors![0].extensions.fields,
  };
}

export const iso = (date: Date) => date.toISOString();

/** Registers the suite's app (before all its tests, closed after) and answers the helpers that reach it. */
export function useBookingWorld() {
  let testApp: TestApp;
  let sandbox: CreatedSandbox;
  let receiver: Receiver;
  let api: ApiClient;

  beforeAll(async () => {
    receiver = await Receiver.start();
    testApp = await createTestApp();
    sandbox = await createSandbox(testApp.database.orm.em.fork(), testApp.clock, 'test');
    api = apiClient(testApp.app, sandbox.apiKey);
  });
  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
  });
  beforeEach(() => receiver.reset());

  const em = () => testApp.database.orm.em.fork();
  const now = () => testApp.clock.now();
  const at = (hours: number) => new Date(now().getTime() + hours * HOUR);
  const theatre = () => sandbox.venues[0].id;
  const bookshop = () => sandbox.venues[1].id;
  const runAllJobs = () => drainJobs(testApp);

  // --- worlds and offers ---------------------------------------------------------------------

  let worldCounter = 0;
  async function aWorld(options: { ticketing?: boolean } = {}): Promise<World> {
    const fork = em();
    worldCounter += 1;
    const added = await aProvider(fork, testApp.clock, { name: `Booking Ticketing ${worldCounter}` });
    const provider = await fork.findOneOrFail(Provider, added.provider.id);
    const world = { providerId: provider.id, key: '', secret: added.provider.messagingSecret };
    provider.notificationUrl = receiver.url(pathOf(world, 'notify'));
    if (options.ticketing) {
      provider.bookingUrl = receiver.url(pathOf(world, 'booking'));
      provider.cancelUrl = receiver.url(pathOf(world, 'cancel'));
    }
    for (const venue of sandbox.venues) {
      fork.create(VenueProvider, { venue: venue.id, provider: provider.id, isActive: true, createdAt: now() });
    }
    world.key = issueApiKey(fork, testApp.clock, {
      env: 'test',
      provider: fork.getReference(Provider, provider.id),
      offerer: fork.getReference(Offerer, sandbox.offerer.id),
    }).key;
    await fork.flush();
    return world;
  }

  /** A bookable date of the world's, at the theatre. */
  async function anEventDate(world: World, options: BookableDateOptions = {}) {
    const { offerId, category, stock } = await aBookableDate(
      em(),
      testApp.clock,
      { providerId: world.providerId, venueId: theatre() },
      options,
    );
    return { offerId, priceCategoryId: category.id, stockId: stock.id, beginning: stock.beginningDatetime! };
  }

  /** An approved, published product at the bookshop, with its stock. */
  async function aProduct(world: World, options: ProductOptions = {}) {
    const fork = em();
    const category = options.category ?? 'SUPPORT_PHYSIQUE_MUSIQUE_CD';
    const ean = options.ean ?? null;
    const offer = fork.create(
      Offer,
      publishedEventData(
        now(),
        { providerId: world.providerId, venueId: bookshop() },
        {
          name: category === 'LIVRE_PAPIER' ? 'A paper book' : 'A rock CD',
          category,
          isEvent: false,
          categoryRelatedFields:
            category === 'LIVRE_PAPIER' ? { ...(ean ? { ean } : {}) } : { musicType: 'ROCK', ...(ean ? { ean } : {}) },
          ean,
          enableDoubleBookings: false,
          ...options.offer,
        },
      ),
    );
    const stock = fork.create(Stock, {
      offer,
      price: options.price ?? 1500,
      quantity: options.quantity === undefined ? 10 : options.quantity,
      bookedQuantity: 0,
      createdAt: now(),
      updatedAt: now(),
    });
    await fork.flush();
    return { offerId: offer.id, stockId: stock.id };
  }

  // --- /graphql ------------------------------------------------------------------------------

  async function graph(key: string, query: string, variables: Record<string, unknown> = {}): Promise<GraphAnswer> {
    return (await graphqlAs(testApp, key, query, variables)).body as GraphAnswer;
  }
  const bookRaw = (world: World, stockId: number, options: BookingOptions = {}) =>
    graph(world.key, BOOK, { input: { stockId, ...options } });
  async function book(world: World, stockId: number, options: BookingOptions = {}): Promise<Booked> {
    const answer = await bookRaw(world, stockId, options);
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return answer.data!.sandboxBook as Booked;
  }
  /** A beneficiary of the world's, made through the sandbox: their id. */
  const aBeneficiaryOf = async (world: World, overrides: Record<string, unknown> = {}) =>
    (await aBeneficiary(testApp, world.key, overrides)).id;
  const runScheduledJobsAs = (key: string, moment: Date) => graph(key, RUN_JOBS, { at: iso(moment) });
  async function runScheduledJobs(world: World, moment: Date) {
    const answer = await runScheduledJobsAs(world.key, moment);
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return answer.data!.sandboxRunScheduledJobs as { used: number; expired: number; reimbursed: number };
  }

  // --- REST ----------------------------------------------------------------------------------

  const countermarkOperations = {
    use: 'ValidateBookingByToken',
    keep: 'CancelBookingValidationByToken',
    cancel: 'CancelBookingByToken',
  } as const;
  const countermark = (verb: Verb, token: string, key: string) =>
    api.call(countermarkOperations[verb], { params: { token }, key });
  const byToken = (token: string, key: string) => api.call('GetBookingByToken', { params: { token }, key });
  const list = (query: Record<string, string | number>, key: string) => api.call('GetBookingsByOffer', { query, key });

  // --- stored state --------------------------------------------------------------------------

  const storedBooking = (id: number) => em().findOneOrFail(Booking, id);
  const creditOf = async (beneficiaryId: number) => (await em().findOneOrFail(Beneficiary, beneficiaryId)).credit;
  const bookedQuantityOf = async (stockId: number) => (await em().findOneOrFail(Stock, stockId)).bookedQuantity;
  const bookingsOf = (world: World) => em().count(Booking, { provider: world.providerId });
  /** The bodies of the messages queued for a booking, in order. */
  const messagesOf = async (bookingId: number) =>
    (await em().find(ProviderMessage, { booking: bookingId }, { orderBy: { id: 'asc' } })).map(
      (message) => JSON.parse(message.body) as Record<string, any>,
    );
  /** The actions of the BOOK/CANCEL notifications queued for a booking, in order. */
  const notificationsOf = async (bookingId: number) =>
    (await messagesOf(bookingId)).map((body) => body.action as string);

  /** What a countermark operation may change: the booking, its beneficiary's credit, its stock's places. */
  async function stateOf(bookingId: number) {
    const booking = await storedBooking(bookingId);
    return {
      status: booking.status,
      dateUsed: booking.dateUsed?.toISOString() ?? null,
      cancellationDate: booking.cancellationDate?.toISOString() ?? null,
      cancellationReason: booking.cancellationReason,
      reimbursementDate: booking.reimbursementDate?.toISOString() ?? null,
      credit: await creditOf(booking.beneficiary.id),
      bookedQuantity: await bookedQuantityOf(booking.stock.id),
    };
  }

  return {
    get testApp() {
      return testApp;
    },
    get api() {
      return api;
    },
    get receiver() {
      return receiver;
    },
    em,
    now,
    at,
    theatre,
    bookshop,
    runAllJobs,
    aWorld,
    anEventDate,
    aProduct,
    graph,
    bookRaw,
    book,
    aBeneficiaryOf,
    runScheduledJobsAs,
    runScheduledJobs,
    countermark,
    byToken,
    list,
    storedBooking,
    creditOf,
    bookedQuantityOf,
    bookingsOf,
    messagesOf,
    notificationsOf,
    stateOf,
  };
}

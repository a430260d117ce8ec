import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequiredEntityData } from '@mikro-orm/core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Beneficiary } from '../../graphql/bookings/Beneficiary.js';
import { Booking } from '../../graphql/bookings/Booking.js';
import { BookingTicket } from '../../graphql/bookings/BookingTicket.js';
import { ProviderMessage } from '../../graphql/bookings/ProviderMessage.js';
import { catalogueEntries } from '../../graphql/offers/eanCatalogue/catalogueData.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { PriceCategory } from '../../graphql/offers/PriceCategory.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { hasValidSignature, SIGNATURE_HEADER } from '../../graphql/shared/messaging/signature.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectMatchesContract } from '../support/contract.js';
import { publishedEventData } from '../support/eventData.js';
import { anEvent, createSandbox, aProvider } from '../support/fixtures.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CREDIT = 30_000;

const LIST = '/public/bookings/v1/bookings';
const BY_TOKEN = '/public/bookings/v1/token/{token}';
const COUNTERMARK = (verb: Verb) => `/public/bookings/v1/${verb}/token/{token}`;
type Verb = 'use' | 'keep' | 'cancel';

const books = catalogueEntries.filter((entry) => entry.category === 'LIVRE_PAPIER' && entry.compliant);

const BOOK = `mutation Book($input: SandboxBookingInput!) {
  sandboxBook(input: $input) { id token status quantity cancellationLimitDate }
}`;
const CREATE_BENEFICIARY = `mutation Beneficiary($input: SandboxBeneficiaryInput!) {
  sandboxCreateBeneficiary(input: $input) { id email firstName lastName birthDate phoneNumber postalCode credit }
}`;
const RUN_JOBS = `mutation Run($at: DateTimeISO!) { sandboxRunScheduledJobs(at: $at) { used expired reimbursed } }`;

/** A provider of its own per test (linked to the sandbox venues, with a fresh key): its bookings, rate limit and transitions are its own. */
interface World {
  providerId: number;
  key: string;
  /** The provider's messaging secret, which signs what is sent to it. */
  secret: string;
}

interface Booked {
  id: number;
  token: string;
  status: string;
  quantity: number;
  cancellationLimitDate: string | null;
}

interface GraphAnswer {
  data: Record<string, any> | null;
  errors?: { message: string; extensions: Record<string, any> }[];
}

describe('Bookings', () => {
  let testApp: TestApp;
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  /** Stands in for the providers' notification URLs, so that jobs sending messages succeed at once. */
  let hooks: Server;
  let hooksUrl: string;
  const received: { url: string; text: string; body: any; signature: string | undefined }[] = [];
  /** What the stand-in ticketing system answers to a booking request. */
  let ticketingAnswer: { status: number; body: unknown } = { status: 200, body: {} };

  const em = () => testApp.database.orm.em.fork();
  const now = () => testApp.clock.now();
  const at = (hours: number) => new Date(now().getTime() + hours * HOUR);
  const iso = (date: Date) => date.toISOString();
  const theatre = () => sandbox.venues[0].id;
  const bookshop = () => sandbox.venues[1].id;
  const runAllJobs = async () => {
    while ((await testApp.runtime.worker.runDueJobs()).claimed > 0);
  };

  // --- worlds and offers ---------------------------------------------------------------------

  let worldCounter = 0;
  async function aWorld(options: { ticketing?: boolean } = {}): Promise<World> {
    const fork = em();
    worldCounter += 1;
    const added = await aProvider(fork, testApp.clock, { name: `Booking Ticketing ${worldCounter}` });
    const provider = await fork.findOneOrFail(Provider, added.provider.id);
    provider.notificationUrl = `${hooksUrl}/notify/${provider.id}`;
    if (options.ticketing) {
      provider.bookingUrl = `${hooksUrl}/booking/${provider.id}`;
      provider.cancelUrl = `${hooksUrl}/cancel/${provider.id}`;
    }
    for (const venue of sandbox.venues) {
      fork.create(VenueProvider, { venue: venue.id, provider: provider.id, isActive: true, createdAt: now() });
    }
    const { key } = issueApiKey(fork, testApp.clock, {
      env: 'test',
      provider: fork.getReference(Provider, provider.id),
      offerer: fork.getReference(Offerer, sandbox.offerer.id),
    });
    await fork.flush();
    return { providerId: provider.id, key, secret: added.provider.messagingSecret };
  }

  interface DateOptions {
    /** Beginning, in hours from now. */
    hours?: number;
    /** Booking limit, in hours from now; null for none; by default an hour before the beginning. */
    bookingLimitHours?: number | null;
    price?: number;
    quantity?: number | null;
    bookedQuantity?: number;
    label?: string;
    /** A date of this event rather than of a new one. */
    offerId?: number;
    /** A date of this price category rather than of a new one. */
    priceCategoryId?: number;
    isDeleted?: boolean;
    offer?: Partial<RequiredEntityData<Offer>>;
  }

  /** An approved, published event (or one given) with a date at a price category of its own (or one given). */
  async function anEventDate(world: World, options: DateOptions = {}) {
    const fork = em();
    const offerId =
      options.offerId ??
      (await anEvent(fork, testApp.clock, { providerId: world.providerId, venueId: theatre() }, options.offer ?? {}))
        .id;
    const category = options.priceCategoryId
      ? await fork.findOneOrFail(PriceCategory, options.priceCategoryId)
      : fork.create(PriceCategory, {
          offer: offerId,
          label: options.label ?? 'Orchestra',
          price: options.price ?? 2500,
          createdAt: now(),
        });
    const hours = options.hours ?? 240;
    const stock = fork.create(Stock, {
      offer: offerId,
      priceCategory: category,
      price: category.price,
      beginningDatetime: at(hours),
      bookingLimitDatetime: options.bookingLimitHours === null ? null : at(options.bookingLimitHours ?? hours - 1),
      quantity: options.quantity === undefined ? 100 : options.quantity,
      bookedQuantity: options.bookedQuantity ?? 0,
      isDeleted: options.isDeleted ?? false,
      createdAt: now(),
      updatedAt: now(),
    });
    await fork.flush();
    return { offerId, priceCategoryId: category.id, stockId: stock.id, beginning: stock.beginningDatetime! };
  }

  interface ProductOptions {
    category?: 'LIVRE_PAPIER' | 'SUPPORT_PHYSIQUE_MUSIQUE_CD';
    price?: number;
    quantity?: number | null;
    ean?: string | null;
    offer?: Partial<RequiredEntityData<Offer>>;
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
    const response = await request(testApp.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${key}`)
      .send({ query, variables });
    return response.body as GraphAnswer;
  }
  const bookRaw = (world: World, stockId: number, options: { quantity?: number; beneficiaryId?: number | null } = {}) =>
    graph(world.key, BOOK, { input: { stockId, ...options } });
  async function book(
    world: World,
    stockId: number,
    options: { quantity?: number; beneficiaryId?: number | null } = {},
  ): Promise<Booked> {
    const answer = await bookRaw(world, stockId, options);
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return answer.data!.sandboxBook as Booked;
  }
  let beneficiaryCounter = 0;
  async function aBeneficiary(world: World, overrides: Record<string, unknown> = {}): Promise<number> {
    beneficiaryCounter += 1;
    const answer = await graph(world.key, CREATE_BENEFICIARY, {
      input: {
        email: `jeune${beneficiaryCounter}@example.com`,
        firstName: 'Alex',
        lastName: `Martin${beneficiaryCounter}`,
        birthDate: '2008-03-01',
        ...overrides,
      },
    });
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return answer.data!.sandboxCreateBeneficiary.id as number;
  }
  async function runScheduledJobs(world: World, moment: Date) {
    const answer = await graph(world.key, RUN_JOBS, { at: iso(moment) });
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return answer.data!.sandboxRunScheduledJobs as { used: number; expired: number; reimbursed: number };
  }
  /** The domain error of a /graphql answer: no data, one error with its code. */
  function refusalOf(answer: GraphAnswer) {
    expect(answer.data).toBeNull();
    expect(answer.errors).toHaveLength(1);
    return {
      code: answer.errors![0].extensions.code as string,
      message: answer.errors![0].message,
      fields: answer.errors![0].extensions.fields,
    };
  }

  // --- REST ----------------------------------------------------------------------------------

  async function countermark(verb: Verb, token: string, key: string) {
    const response = await request(testApp.app)
      .patch(`/public/bookings/v1/${verb}/token/${token}`)
      .set('Authorization', `Bearer ${key}`);
    expectMatchesContract(response, 'patch', COUNTERMARK(verb));
    return response;
  }
  async function byToken(token: string, key: string) {
    const response = await request(testApp.app)
      .get(`/public/bookings/v1/token/${token}`)
      .set('Authorization', `Bearer ${key}`);
    expectMatchesContract(response, 'get', BY_TOKEN);
    return response;
  }
  async function list(query: string, key: string) {
    const response = await request(testApp.app).get(`${LIST}${query}`).set('Authorization', `Bearer ${key}`);
    expectMatchesContract(response, 'get', LIST);
    return response;
  }
  async function send(
    method: 'patch' | 'post' | 'delete',
    path: string,
    openApiPath: string,
    key: string,
    body?: object,
  ) {
    const call = request(testApp.app)[method](path).set('Authorization', `Bearer ${key}`);
    const response = body === undefined ? await call : await call.send(body);
    expectMatchesContract(response, method, openApiPath);
    return response;
  }

  // --- stored state --------------------------------------------------------------------------

  const storedBooking = (id: number) => em().findOneOrFail(Booking, id);
  const creditOf = async (beneficiaryId: number) => (await em().findOneOrFail(Beneficiary, beneficiaryId)).credit;
  const bookedQuantityOf = async (stockId: number) => (await em().findOneOrFail(Stock, stockId)).bookedQuantity;
  const bookingsOf = (world: World) => em().count(Booking, { provider: world.providerId });
  /** The actions of the BOOK/CANCEL notifications queued for a booking, in order. */
  const notificationsOf = async (bookingId: number) =>
    (await em().find(ProviderMessage, { booking: bookingId }, { orderBy: { id: 'asc' } })).map(
      (message) => JSON.parse(message.body).action as string,
    );

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

  beforeAll(async () => {
    hooks = createServer((incoming, answer) => {
      let body = '';
      incoming.on('data', (chunk) => (body += chunk));
      incoming.on('end', () => {
        const url = incoming.url ?? '';
        const signature = incoming.headers[SIGNATURE_HEADER.toLowerCase()];
        received.push({
          url,
          text: body,
          body: body ? JSON.parse(body) : null,
          signature: typeof signature === 'string' ? signature : undefined,
        });
        const { status, body: answered } = url.startsWith('/booking/') ? ticketingAnswer : { status: 200, body: {} };
        answer.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answered));
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    hooksUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
    testApp = await createTestApp();
    sandbox = await createSandbox(em(), testApp.clock, 'test');
  });
  afterAll(async () => {
    await testApp.close();
    await new Promise((resolve) => hooks.close(resolve));
  });

  // ===========================================================================================

  describe('sandboxBook', () => {
    it('books an event date for a beneficiary: CONFIRMED, a six-character token, the credit debited, the places reserved', async () => {
      const world = await aWorld();
      const date = await anEventDate(world, { hours: 240, price: 2500, quantity: 10 });
      const beneficiaryId = await aBeneficiary(world);
      expect(await creditOf(beneficiaryId)).toBe(CREDIT);

      const booked = await book(world, date.stockId, { beneficiaryId });

      expect(booked).toEqual({
        id: expect.any(Number),
        token: expect.stringMatching(/^[A-HJKMNP-Z2-9]{6}$/),
        status: 'CONFIRMED',
        quantity: 1,
        // Ten days ahead: 48 hours after booking comes before 48 hours before the event.
        cancellationLimitDate: iso(at(48)),
      });
      const stored = await storedBooking(booked.id);
      expect(stored).toMatchObject({
        token: booked.token,
        quantity: 1,
        amount: 2500,
        status: 'CONFIRMED',
        dateUsed: null,
        cancellationDate: null,
      });
      expect(stored.creationDate.toISOString()).toBe(iso(now()));
      expect(stored.provider.id).toBe(world.providerId);
      expect(await creditOf(beneficiaryId)).toBe(CREDIT - 2500);
      expect(await bookedQuantityOf(date.stockId)).toBe(1);
      expect(await notificationsOf(booked.id)).toEqual(['BOOK']);
    });

    it('sets the cancellation limit of an event to 48 hours before it when that comes first, and none for a product', async () => {
      const world = await aWorld();
      const soon = await anEventDate(world, { hours: 60 });
      const tomorrow = await anEventDate(world, { hours: 24 });
      const product = await aProduct(world);
      expect((await book(world, soon.stockId)).cancellationLimitDate).toBe(iso(at(12)));
      expect((await book(world, tomorrow.stockId)).cancellationLimitDate).toBe(iso(at(-24)));
      expect((await book(world, product.stockId)).cancellationLimitDate).toBeNull();
    });

    it('books 2 places of a duo offer for twice the price', async () => {
      const world = await aWorld();
      const date = await anEventDate(world, { price: 4000, offer: { enableDoubleBookings: true } });
      const beneficiaryId = await aBeneficiary(world);
      const booked = await book(world, date.stockId, { quantity: 2, beneficiaryId });
      expect(booked.quantity).toBe(2);
      expect(await creditOf(beneficiaryId)).toBe(CREDIT - 8000);
      expect(await bookedQuantityOf(date.stockId)).toBe(2);
      expect((await storedBooking(booked.id)).amount).toBe(4000);
    });

    it("books as the provider's first beneficiary when none is named, created on demand", async () => {
      const world = await aWorld();
      const product = await aProduct(world, { price: 1000 });
      const first = await book(world, product.stockId);
      const beneficiaries = await em().find(Beneficiary, { provider: world.providerId });
      expect(beneficiaries.map((one) => [one.firstName, one.lastName, one.credit])).toEqual([
        ['Camille', 'Sandbox', CREDIT - 1000],
      ]);
      const second = await book(world, product.stockId);
      expect((await storedBooking(first.id)).beneficiary.id).toBe(beneficiaries[0].id);
      expect((await storedBooking(second.id)).beneficiary.id).toBe(beneficiaries[0].id);
      expect(await creditOf(beneficiaries[0].id)).toBe(CREDIT - 2000);
      expect(await em().count(Beneficiary, { provider: world.providerId })).toBe(1);
    });

    it('creates test beneficiaries with the 300 euro credit, and refuses invalid ones (VALIDATION_FAILED)', async () => {
      const world = await aWorld();
      const answer = await graph(world.key, CREATE_BENEFICIARY, {
        input: {
          email: 'lea@example.com',
          firstName: 'Léa',
          lastName: 'Dupont',
          birthDate: '2008-02-29',
          phoneNumber: '+33 6 12 34 56 78',
          postalCode: '69002',
        },
      });
      expect(answer.errors).toBeUndefined();
      expect(answer.data!.sandboxCreateBeneficiary).toEqual({
        id: expect.any(Number),
        email: 'lea@example.com',
        firstName: 'Léa',
        lastName: 'Dupont',
        birthDate: '2008-02-29',
        phoneNumber: '+33 6 12 34 56 78',
        postalCode: '69002',
        credit: CREDIT,
      });
      const refused = await graph(world.key, CREATE_BENEFICIARY, {
        input: {
          email: 'not-an-email',
          firstName: ' ',
          lastName: 'Dupont',
          birthDate: '2007-02-29',
          postalCode: '6900',
        },
      });
      expect(refusalOf(refused).code).toBe('VALIDATION_FAILED');
      expect(refused.errors![0].extensions.issues.map((issue: { loc: string[] }) => issue.loc)).toEqual([
        ['email'],
        ['firstName'],
        ['birthDate'],
        ['postalCode'],
      ]);
      expect(await em().count(Beneficiary, { provider: world.providerId })).toBe(1);
    });

    describe('refusals, which write nothing', () => {
      /** Books and expects a refusal; then checks that no booking, credit, place or message moved. */
      async function expectRefused(
        world: World,
        stockId: number,
        options: { quantity?: number; beneficiaryId?: number | null },
        expected: { code: string; fields?: Record<string, string[]>; message?: string },
      ) {
        const beneficiaryId = options.beneficiaryId ?? null;
        const before = {
          bookings: await bookingsOf(world),
          credit: beneficiaryId
            ? await em()
                .findOne(Beneficiary, beneficiaryId)
                .then((found) => found?.credit ?? null)
            : null,
          booked: await em()
            .findOne(Stock, stockId)
            .then((found) => found?.bookedQuantity ?? null),
          messages: await em().count(ProviderMessage, { provider: world.providerId }),
        };
        const refusal = refusalOf(await bookRaw(world, stockId, options));
        expect(refusal.code).toBe(expected.code);
        if (expected.fields) expect(refusal.fields).toEqual(expected.fields);
        if (expected.message) expect(refusal.message).toBe(expected.message);
        expect({
          bookings: await bookingsOf(world),
          credit: beneficiaryId
            ? await em()
                .findOne(Beneficiary, beneficiaryId)
                .then((found) => found?.credit ?? null)
            : null,
          booked: await em()
            .findOne(Stock, stockId)
            .then((found) => found?.bookedQuantity ?? null),
          messages: await em().count(ProviderMessage, { provider: world.providerId }),
        }).toEqual(before);
      }

      it('refuses a quantity other than 1 or 2, and 2 where the offer does not allow duos (BAD_REQUEST on quantity)', async () => {
        const world = await aWorld();
        const beneficiaryId = await aBeneficiary(world);
        const solo = await anEventDate(world, { offer: { enableDoubleBookings: false } });
        const duo = await anEventDate(world, { offer: { enableDoubleBookings: true } });
        for (const quantity of [0, 3, -1]) {
          await expectRefused(
            world,
            duo.stockId,
            { quantity, beneficiaryId },
            { code: 'BAD_REQUEST', fields: { quantity: ['A booking is of 1 place, or 2 for a duo'] } },
          );
        }
        await expectRefused(
          world,
          solo.stockId,
          { quantity: 2, beneficiaryId },
          { code: 'BAD_REQUEST', fields: { quantity: ['This offer does not allow duo bookings'] } },
        );
        const product = await aProduct(world);
        await expectRefused(
          world,
          product.stockId,
          { quantity: 2, beneficiaryId },
          { code: 'BAD_REQUEST', fields: { quantity: ['This offer does not allow duo bookings'] } },
        );
      });

      it('refuses an offer that cannot be booked: pending, rejected, inactive, not published yet, booking not open (BAD_REQUEST on stockId)', async () => {
        const world = await aWorld();
        const beneficiaryId = await aBeneficiary(world);
        const cases: [Partial<RequiredEntityData<Offer>>, string][] = [
          [{ validation: 'PENDING', validatedAt: null }, 'PENDING'],
          [{ validation: 'REJECTED' }, 'REJECTED'],
          [{ isActive: false }, 'INACTIVE'],
          [{ publishedAt: null, publicationDatetime: at(48) }, 'SCHEDULED'],
          [{ bookingOpenedAt: null, bookingAllowedDatetime: at(48) }, 'PUBLISHED'],
        ];
        for (const [offer, status] of cases) {
          const date = await anEventDate(world, { offer });
          await expectRefused(
            world,
            date.stockId,
            { beneficiaryId },
            { code: 'BAD_REQUEST', fields: { stockId: [`The offer is ${status}: it cannot be booked`] } },
          );
        }
        const inactiveProduct = await aProduct(world, { offer: { isActive: false } });
        await expectRefused(
          world,
          inactiveProduct.stockId,
          { beneficiaryId },
          { code: 'BAD_REQUEST', fields: { stockId: ['The offer is INACTIVE: it cannot be booked'] } },
        );
        // Its only date past its booking limit: the offer has expired.
        const expired = await anEventDate(world, { hours: 10, bookingLimitHours: -1 });
        await expectRefused(
          world,
          expired.stockId,
          { beneficiaryId },
          { code: 'BAD_REQUEST', fields: { stockId: ['The offer is EXPIRED: it cannot be booked'] } },
        );
      });

      it('refuses a date past its booking limit, or begun, while the offer has other dates open (BAD_REQUEST on stockId)', async () => {
        const world = await aWorld();
        const beneficiaryId = await aBeneficiary(world);
        const open = await anEventDate(world, { hours: 240 });
        const closed = await anEventDate(world, { offerId: open.offerId, hours: 48, bookingLimitHours: -1 });
        const begun = await anEventDate(world, { offerId: open.offerId, hours: -1, bookingLimitHours: null });
        await expectRefused(
          world,
          closed.stockId,
          { beneficiaryId },
          { code: 'BAD_REQUEST', fields: { stockId: ['The booking limit of this stock has passed'] } },
        );
        await expectRefused(
          world,
          begun.stockId,
          { beneficiaryId },
          { code: 'BAD_REQUEST', fields: { stockId: ['This date has begun'] } },
        );
        // The booking limit is exclusive: at that very moment, booking has closed.
        const limitNow = await anEventDate(world, { offerId: open.offerId, hours: 48, bookingLimitHours: 0 });
        await expectRefused(
          world,
          limitNow.stockId,
          { beneficiaryId },
          { code: 'BAD_REQUEST', fields: { stockId: ['The booking limit of this stock has passed'] } },
        );
        await book(world, open.stockId, { beneficiaryId });
      });

      it("refuses a deleted stock, an unknown one and another provider's (NOT_FOUND)", async () => {
        const world = await aWorld();
        const other = await aWorld();
        const beneficiaryId = await aBeneficiary(world);
        const live = await anEventDate(world);
        const deleted = await anEventDate(world, { offerId: live.offerId, hours: 300, isDeleted: true });
        const foreign = await anEventDate(other);
        for (const stockId of [deleted.stockId, foreign.stockId, 2_000_000_000]) {
          await expectRefused(world, stockId, { beneficiaryId }, { code: 'NOT_FOUND', message: 'Stock not found' });
        }
        expect(await bookedQuantityOf(foreign.stockId)).toBe(0);
      });

      it('never oversells: no places left, or fewer than asked (BAD_REQUEST on stockId)', async () => {
        const world = await aWorld();
        const beneficiaryId = await aBeneficiary(world);
        const date = await anEventDate(world, { quantity: 3, offer: { enableDoubleBookings: true } });
        await book(world, date.stockId, { quantity: 2, beneficiaryId });
        await expectRefused(
          world,
          date.stockId,
          { quantity: 2, beneficiaryId },
          { code: 'BAD_REQUEST', fields: { stockId: ['No places left on this stock'] } },
        );
        await book(world, date.stockId, { beneficiaryId });
        expect(await bookedQuantityOf(date.stockId)).toBe(3);
        await expectRefused(
          world,
          date.stockId,
          { beneficiaryId },
          { code: 'BAD_REQUEST', fields: { stockId: ['No places left on this stock'] } },
        );
        // A sold-out date with nothing else on sale: the offer is SOLD_OUT, and still no place is sold.
        const full = await anEventDate(world, { quantity: 1, bookedQuantity: 1 });
        await expectRefused(
          world,
          full.stockId,
          { beneficiaryId },
          { code: 'BAD_REQUEST', fields: { stockId: ['No places left on this stock'] } },
        );
        expect(await creditOf(beneficiaryId)).toBe(CREDIT - 3 * 2500);
      });

      it('never oversells under concurrent bookings', async () => {
        const world = await aWorld();
        const date = await anEventDate(world, { quantity: 3, price: 100 });
        const beneficiaries = await Promise.all(Array.from({ length: 6 }, () => aBeneficiary(world)));
        const answers = await Promise.all(
          beneficiaries.map((beneficiaryId) => bookRaw(world, date.stockId, { beneficiaryId })),
        );
        expect(answers.filter((answer) => !answer.errors)).toHaveLength(3);
        for (const answer of answers.filter((one) => one.errors)) {
          expect(refusalOf(answer).fields).toEqual({ stockId: ['No places left on this stock'] });
        }
        expect(await bookedQuantityOf(date.stockId)).toBe(3);
        expect(await bookingsOf(world)).toBe(3);
        const credits = await Promise.all(beneficiaries.map(creditOf));
        expect(credits.filter((credit) => credit === CREDIT - 100)).toHaveLength(3);
        expect(credits.filter((credit) => credit === CREDIT)).toHaveLength(3);
      });

      it('refuses a booking above the credit left (BAD_REQUEST on quantity)', async () => {
        const world = await aWorld();
        const beneficiaryId = await aBeneficiary(world);
        const expensive = await anEventDate(world, { price: 16_000, offer: { enableDoubleBookings: true } });
        await expectRefused(
          world,
          expensive.stockId,
          { quantity: 2, beneficiaryId },
          {
            code: 'BAD_REQUEST',
            fields: { quantity: ['Not enough credit: 30000 cents left for 32000'] },
          },
        );
        await book(world, expensive.stockId, { beneficiaryId });
        await expectRefused(
          world,
          expensive.stockId,
          { beneficiaryId },
          { code: 'BAD_REQUEST', fields: { quantity: ['Not enough credit: 14000 cents left for 16000'] } },
        );
        const exact = await aProduct(world, { price: 14_000 });
        await book(world, exact.stockId, { beneficiaryId });
        expect(await creditOf(beneficiaryId)).toBe(0);
      });

      it('leaves no default beneficiary behind when a booking without beneficiaryId is refused', async () => {
        const world = await aWorld();
        const refusal = refusalOf(await bookRaw(world, 2_000_000_000));
        expect(refusal).toMatchObject({ code: 'NOT_FOUND', message: 'Stock not found' });
        expect(await em().count(Beneficiary, { provider: world.providerId })).toBe(0);
      });

      it("refuses another provider's beneficiary, or an unknown one (NOT_FOUND)", async () => {
        const world = await aWorld();
        const other = await aWorld();
        const foreignBeneficiary = await aBeneficiary(other);
        const date = await anEventDate(world);
        await expectRefused(
          world,
          date.stockId,
          { beneficiaryId: foreignBeneficiary },
          { code: 'NOT_FOUND', message: 'Beneficiary not found' },
        );
        await expectRefused(
          world,
          date.stockId,
          { beneficiaryId: 2_000_000_000 },
          { code: 'NOT_FOUND', message: 'Beneficiary not found' },
        );
        expect(await creditOf(foreignBeneficiary)).toBe(CREDIT);
        expect(await em().count(Beneficiary, { provider: world.providerId })).toBe(0);
      });
    });
  });

  // ===========================================================================================

  describe('countermarks', () => {
    /** One way of reaching a state of the table: each operation is tried on a fresh booking made so. */
    interface Row {
      name: string;
      /** Makes a booking in the row's state, at `price` (one place) for its own beneficiary. */
      setUp: (world: World) => Promise<{ booking: Booked; price: number; beneficiaryId: number }>;
    }
    const KEEP_NOTHING = 'This booking has not been validated: there is nothing to undo';
    const NOT_FOUND = { global: ['This countermark matches none of your bookings'] };

    async function confirmedProduct(world: World) {
      const beneficiaryId = await aBeneficiary(world);
      const product = await aProduct(world, { price: 1500 });
      return { booking: await book(world, product.stockId, { beneficiaryId }), price: 1500, beneficiaryId };
    }
    /** An event tomorrow: its cancellation limit (48 hours before it) has already passed. */
    async function confirmedEventPastLimit(world: World) {
      const beneficiaryId = await aBeneficiary(world);
      const date = await anEventDate(world, { hours: 24, price: 2000 });
      return { booking: await book(world, date.stockId, { beneficiaryId }), price: 2000, beneficiaryId };
    }
    /** An event in ten days: cancellable for 48 hours after booking. */
    async function confirmedEventBeforeLimit(world: World) {
      const beneficiaryId = await aBeneficiary(world);
      const date = await anEventDate(world, { hours: 240, price: 2000 });
      return { booking: await book(world, date.stockId, { beneficiaryId }), price: 2000, beneficiaryId };
    }

    describe('a CONFIRMED product', () => {
      it('GET token answers the booking (200), and changes nothing', async () => {
        const world = await aWorld();
        const beneficiaryId = await aBeneficiary(world, {
          email: 'noa@example.com',
          firstName: 'Noa',
          lastName: 'Bernard',
          birthDate: '2007-09-30',
          phoneNumber: '0612345678',
          postalCode: '69003',
        });
        const product = await aProduct(world, { category: 'LIVRE_PAPIER', price: 1234, ean: books[0].ean });
        const booked = await book(world, product.stockId, { beneficiaryId });
        const before = await stateOf(booked.id);
        const response = await byToken(booked.token, world.key);
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          id: booked.id,
          status: 'CONFIRMED',
          quantity: 1,
          price: 1234,
          creationDate: iso(now()),
          confirmationDate: null,
          offerId: product.offerId,
          offerName: 'A paper book',
          offerEan: books[0].ean,
          offerAddress: '4 Place Bellecour, 69002 Lyon',
          offerDepartmentCode: '69',
          stockId: product.stockId,
          priceCategoryId: null,
          priceCategoryLabel: null,
          venueId: bookshop(),
          venueName: 'Librairie de la Démo',
          userEmail: 'noa@example.com',
          userFirstName: 'Noa',
          userLastName: 'Bernard',
          userBirthDate: '2007-09-30',
          userPhoneNumber: '0612345678',
          userPostalCode: '69003',
        });
        // The token is read case-insensitively.
        expect((await byToken(booked.token.toLowerCase(), world.key)).body.id).toBe(booked.id);
        expect(await stateOf(booked.id)).toEqual(before);
      });

      it('use marks it USED now (204): credit and places unchanged', async () => {
        const world = await aWorld();
        const { booking, price } = await confirmedProduct(world);
        const response = await countermark('use', booking.token, world.key);
        expect(response.status).toBe(204);
        expect(await stateOf(booking.id)).toEqual({
          status: 'USED',
          dateUsed: iso(now()),
          cancellationDate: null,
          cancellationReason: null,
          reimbursementDate: null,
          credit: CREDIT - price,
          bookedQuantity: 1,
        });
      });

      it('keep is refused (403): there is nothing to undo', async () => {
        const world = await aWorld();
        const { booking } = await confirmedProduct(world);
        const before = await stateOf(booking.id);
        const response = await countermark('keep', booking.token, world.key);
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ global: [KEEP_NOTHING] });
        expect(await stateOf(booking.id)).toEqual(before);
      });

      it('cancel marks it CANCELLED (204): the credit refunded, the place given back, a CANCEL notification queued', async () => {
        const world = await aWorld();
        const { booking } = await confirmedProduct(world);
        const response = await countermark('cancel', booking.token, world.key);
        expect(response.status).toBe(204);
        expect(await stateOf(booking.id)).toEqual({
          status: 'CANCELLED',
          dateUsed: null,
          cancellationDate: iso(now()),
          cancellationReason: 'OFFERER',
          reimbursementDate: null,
          credit: CREDIT,
          bookedQuantity: 0,
        });
        expect(await notificationsOf(booking.id)).toEqual(['BOOK', 'CANCEL']);
      });

      it('cancel gives both places of a duo back and refunds both', async () => {
        const world = await aWorld();
        const beneficiaryId = await aBeneficiary(world);
        const date = await anEventDate(world, {
          hours: 240,
          price: 3000,
          quantity: 5,
          offer: { enableDoubleBookings: true },
        });
        const booked = await book(world, date.stockId, { quantity: 2, beneficiaryId });
        expect((await countermark('cancel', booked.token, world.key)).status).toBe(204);
        expect(await creditOf(beneficiaryId)).toBe(CREDIT);
        expect(await bookedQuantityOf(date.stockId)).toBe(0);
      });
    });

    describe('a CONFIRMED event past its cancellation limit', () => {
      it('GET token answers it (200), with its cancellation limit as confirmationDate', async () => {
        const world = await aWorld();
        const beneficiaryId = await aBeneficiary(world, {
          email: 'sam@example.com',
          firstName: 'Sam',
          lastName: 'Petit',
          birthDate: '2008-01-15',
        });
        const date = await anEventDate(world, { hours: 24, price: 2000, label: 'Balcony' });
        const booked = await book(world, date.stockId, { beneficiaryId });
        const response = await byToken(booked.token, world.key);
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          id: booked.id,
          status: 'CONFIRMED',
          quantity: 1,
          price: 2000,
          creationDate: iso(now()),
          confirmationDate: iso(at(-24)),
          offerId: date.offerId,
          offerName: 'Concert at the demo theatre',
          offerEan: null,
          offerAddress: '12 Rue de Rivoli, 75004 Paris',
          offerDepartmentCode: '75',
          stockId: date.stockId,
          priceCategoryId: date.priceCategoryId,
          priceCategoryLabel: 'Balcony',
          venueId: theatre(),
          venueName: 'Théâtre de la Démo',
          userEmail: 'sam@example.com',
          userFirstName: 'Sam',
          userLastName: 'Petit',
          userBirthDate: '2008-01-15',
          userPhoneNumber: null,
          userPostalCode: null,
        });
      });

      it('use marks it USED (204)', async () => {
        const world = await aWorld();
        const { booking, price } = await confirmedEventPastLimit(world);
        expect((await countermark('use', booking.token, world.key)).status).toBe(204);
        expect(await stateOf(booking.id)).toEqual({
          status: 'USED',
          dateUsed: iso(now()),
          cancellationDate: null,
          cancellationReason: null,
          reimbursementDate: null,
          credit: CREDIT - price,
          bookedQuantity: 1,
        });
      });

      it('keep is refused (403)', async () => {
        const world = await aWorld();
        const { booking } = await confirmedEventPastLimit(world);
        const before = await stateOf(booking.id);
        const response = await countermark('keep', booking.token, world.key);
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ global: [KEEP_NOTHING] });
        expect(await stateOf(booking.id)).toEqual(before);
      });

      it('cancel is refused (403): the booking is due', async () => {
        const world = await aWorld();
        const { booking } = await confirmedEventPastLimit(world);
        const before = await stateOf(booking.id);
        const response = await countermark('cancel', booking.token, world.key);
        expect(response.status).toBe(403);
        expect(response.body).toEqual({
          global: ['This event booking is past its cancellation limit: it can no longer be cancelled'],
        });
        expect(await stateOf(booking.id)).toEqual(before);
        expect(await notificationsOf(booking.id)).toEqual(['BOOK']);
      });
    });

    describe('a CONFIRMED event before its cancellation limit', () => {
      it('GET token and use are refused (403), saying until when; from the limit on, both are allowed', async () => {
        const world = await aWorld();
        const { booking } = await confirmedEventBeforeLimit(world);
        const limit = iso(at(48));
        expect(booking.cancellationLimitDate).toBe(limit);
        const before = await stateOf(booking.id);
        const message = {
          global: [`The beneficiary may still cancel this booking until ${limit}: validate it after that`],
        };
        const lookup = await byToken(booking.token, world.key);
        expect(lookup.status).toBe(403);
        expect(lookup.body).toEqual(message);
        const use = await countermark('use', booking.token, world.key);
        expect(use.status).toBe(403);
        expect(use.body).toEqual(message);
        expect(await stateOf(booking.id)).toEqual(before);

        testApp.clock.advance(48 * HOUR - 1);
        expect((await countermark('use', booking.token, world.key)).status).toBe(403);
        testApp.clock.advance(1);
        expect((await byToken(booking.token, world.key)).status).toBe(200);
        expect((await countermark('use', booking.token, world.key)).status).toBe(204);
        expect(await stateOf(booking.id)).toMatchObject({ status: 'USED', dateUsed: limit });
      });

      it('keep is refused (403)', async () => {
        const world = await aWorld();
        const { booking } = await confirmedEventBeforeLimit(world);
        const before = await stateOf(booking.id);
        const response = await countermark('keep', booking.token, world.key);
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ global: [KEEP_NOTHING] });
        expect(await stateOf(booking.id)).toEqual(before);
      });

      it('cancel marks it CANCELLED (204), refunded, the place given back; from the limit on, cancel is refused', async () => {
        const world = await aWorld();
        const { booking } = await confirmedEventBeforeLimit(world);
        testApp.clock.advance(48 * HOUR - 1);
        expect((await countermark('cancel', booking.token, world.key)).status).toBe(204);
        expect(await stateOf(booking.id)).toEqual({
          status: 'CANCELLED',
          dateUsed: null,
          cancellationDate: iso(now()),
          cancellationReason: 'OFFERER',
          reimbursementDate: null,
          credit: CREDIT,
          bookedQuantity: 0,
        });
        expect(await notificationsOf(booking.id)).toEqual(['BOOK', 'CANCEL']);

        const late = await confirmedEventBeforeLimit(world);
        testApp.clock.advance(48 * HOUR);
        const before = await stateOf(late.booking.id);
        const refused = await countermark('cancel', late.booking.token, world.key);
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({
          global: ['This event booking is past its cancellation limit: it can no longer be cancelled'],
        });
        expect(await stateOf(late.booking.id)).toEqual(before);
        testApp.clock.advance(1);
      });
    });

    describe('a USED booking', () => {
      const rows: Row[] = [
        { name: 'product', setUp: confirmedProduct },
        { name: 'event', setUp: confirmedEventPastLimit },
      ];
      async function used(world: World, row: Row) {
        const made = await row.setUp(world);
        expect((await countermark('use', made.booking.token, world.key)).status).toBe(204);
        return { ...made, usedAt: iso(now()) };
      }

      for (const row of rows) {
        it(`(${row.name}) GET token and use are gone (410), and the validation date stays`, async () => {
          const world = await aWorld();
          const { booking } = await used(world, row);
          testApp.clock.advance(HOUR);
          const before = await stateOf(booking.id);
          for (const response of [
            await byToken(booking.token, world.key),
            await countermark('use', booking.token, world.key),
          ]) {
            expect(response.status).toBe(410);
            expect(response.body).toEqual({ global: ['This booking has already been validated'] });
          }
          expect(await stateOf(booking.id)).toEqual(before);
        });

        it(`(${row.name}) keep turns it back to CONFIRMED (204), then it can be used again`, async () => {
          const world = await aWorld();
          const { booking, price } = await used(world, row);
          expect((await countermark('keep', booking.token, world.key)).status).toBe(204);
          expect(await stateOf(booking.id)).toEqual({
            status: 'CONFIRMED',
            dateUsed: null,
            cancellationDate: null,
            cancellationReason: null,
            reimbursementDate: null,
            credit: CREDIT - price,
            bookedQuantity: 1,
          });
          expect((await countermark('use', booking.token, world.key)).status).toBe(204);
          expect((await storedBooking(booking.id)).status).toBe('USED');
        });

        it(`(${row.name}) cancel is gone (410): undo the validation first`, async () => {
          const world = await aWorld();
          const { booking } = await used(world, row);
          const before = await stateOf(booking.id);
          const response = await countermark('cancel', booking.token, world.key);
          expect(response.status).toBe(410);
          expect(response.body).toEqual({ global: ['This booking has already been validated: undo it (keep) first'] });
          expect(await stateOf(booking.id)).toEqual(before);
        });
      }
    });

    describe('a CANCELLED booking', () => {
      it('GET token, use, keep and cancel are gone (410); nothing is refunded twice', async () => {
        const world = await aWorld();
        const { booking } = await confirmedProduct(world);
        expect((await countermark('cancel', booking.token, world.key)).status).toBe(204);
        const before = await stateOf(booking.id);
        expect(before).toMatchObject({ status: 'CANCELLED', credit: CREDIT, bookedQuantity: 0 });
        testApp.clock.advance(HOUR);
        const cases: [string, () => Promise<request.Response>, string][] = [
          ['get', () => byToken(booking.token, world.key), 'This booking has been cancelled'],
          ['use', () => countermark('use', booking.token, world.key), 'This booking has been cancelled'],
          ['keep', () => countermark('keep', booking.token, world.key), 'This booking has been cancelled'],
          ['cancel', () => countermark('cancel', booking.token, world.key), 'This booking has already been cancelled'],
        ];
        for (const [name, call, message] of cases) {
          const response = await call();
          expect(response.status, name).toBe(410);
          expect(response.body, name).toEqual({ global: [message] });
        }
        expect(await stateOf(booking.id)).toEqual(before);
        expect(await notificationsOf(booking.id)).toEqual(['BOOK', 'CANCEL']);
      });

      it('an event cancelled within its period is gone too (410)', async () => {
        const world = await aWorld();
        const { booking } = await confirmedEventBeforeLimit(world);
        expect((await countermark('cancel', booking.token, world.key)).status).toBe(204);
        for (const verb of ['use', 'keep', 'cancel'] as const)
          expect((await countermark(verb, booking.token, world.key)).status).toBe(410);
        expect((await byToken(booking.token, world.key)).status).toBe(410);
      });
    });

    describe('a REIMBURSED booking', () => {
      it('GET token, use, keep and cancel are refused (403), and nothing changes', async () => {
        const world = await aWorld();
        const product = await confirmedProduct(world);
        const event = await confirmedEventPastLimit(world);
        for (const { booking } of [product, event])
          expect((await countermark('use', booking.token, world.key)).status).toBe(204);
        expect(await runScheduledJobs(world, now())).toEqual({ used: 0, expired: 0, reimbursed: 2 });
        for (const { booking } of [product, event]) {
          const before = await stateOf(booking.id);
          expect(before).toMatchObject({ status: 'REIMBURSED', reimbursementDate: iso(now()), dateUsed: iso(now()) });
          const responses = [
            await byToken(booking.token, world.key),
            await countermark('use', booking.token, world.key),
            await countermark('keep', booking.token, world.key),
            await countermark('cancel', booking.token, world.key),
          ];
          for (const response of responses) {
            expect(response.status).toBe(403);
            expect(response.body).toEqual({ global: ['This booking has been reimbursed'] });
          }
          expect(await stateOf(booking.id)).toEqual(before);
        }
      });
    });

    describe('an unknown token, or another provider’s', () => {
      it('is not found (404) by GET token, use, keep and cancel; the other provider’s booking is untouched', async () => {
        const world = await aWorld();
        const other = await aWorld();
        const foreign = await confirmedProduct(other);
        const before = await stateOf(foreign.booking.id);
        for (const token of ['ZZZZZZ', foreign.booking.token, foreign.booking.token.toLowerCase()]) {
          const responses = [
            await byToken(token, world.key),
            await countermark('use', token, world.key),
            await countermark('keep', token, world.key),
            await countermark('cancel', token, world.key),
          ];
          for (const response of responses) {
            expect(response.status).toBe(404);
            expect(response.body).toEqual(NOT_FOUND);
          }
        }
        expect(await stateOf(foreign.booking.id)).toEqual(before);
        // Its own provider still reaches it.
        expect((await byToken(foreign.booking.token, other.key)).status).toBe(200);
      });
    });
  });

  // ===========================================================================================

  describe('GET /public/bookings/v1/bookings', () => {
    let world: World;
    let other: World;
    let event: { offerId: number; categoryA: number; categoryB: number; s1: number; s2: number; s3: number; t1: Date };
    let ids: { b1: number; b2: number; b3: number; b4: number; b5: number };
    let beneficiaries: { x: number; y: number };

    beforeAll(async () => {
      world = await aWorld();
      other = await aWorld();
      // S1 (category A) and S2 (category B) begin at T1, in ten days; S3 (category A) tomorrow.
      const first = await anEventDate(world, { hours: 240, price: 2500, label: 'A' });
      const second = await anEventDate(world, { offerId: first.offerId, hours: 240, price: 1500, label: 'B' });
      const third = await anEventDate(world, {
        offerId: first.offerId,
        priceCategoryId: first.priceCategoryId,
        hours: 24,
      });
      await em().nativeUpdate(Offer, first.offerId, { enableDoubleBookings: true });
      event = {
        offerId: first.offerId,
        categoryA: first.priceCategoryId,
        categoryB: second.priceCategoryId,
        s1: first.stockId,
        s2: second.stockId,
        s3: third.stockId,
        t1: first.beginning,
      };
      beneficiaries = {
        x: await aBeneficiary(world, {
          email: 'x@example.com',
          firstName: 'Xavier',
          lastName: 'X',
          birthDate: '2007-01-01',
          postalCode: '75011',
        }),
        y: await aBeneficiary(world, {
          email: 'y@example.com',
          firstName: 'Yasmine',
          lastName: 'Y',
          birthDate: '2008-06-30',
          phoneNumber: '+33612345678',
        }),
      };
      const b1 = await book(world, event.s1, { beneficiaryId: beneficiaries.x });
      const b2 = await book(world, event.s2, { beneficiaryId: beneficiaries.y, quantity: 2 });
      const b3 = await book(world, event.s3, { beneficiaryId: beneficiaries.x });
      const b4 = await book(world, event.s1, { beneficiaryId: beneficiaries.y });
      const b5 = await book(world, event.s3, { beneficiaryId: beneficiaries.y });
      // Bookings of another offer of the same provider, and of another provider, never show.
      const elsewhere = await anEventDate(world);
      await book(world, elsewhere.stockId, { beneficiaryId: beneficiaries.x });
      const foreign = await anEventDate(other);
      await book(other, foreign.stockId);
      expect((await countermark('cancel', b4.token, world.key)).status).toBe(204);
      expect((await countermark('use', b5.token, world.key)).status).toBe(204);
      ids = { b1: b1.id, b2: b2.id, b3: b3.id, b4: b4.id, b5: b5.id };
    });

    const idsOf = (response: request.Response) =>
      (response.body.bookings as { id: number }[]).map((booking) => booking.id);

    it("answers the offer's bookings in id order, each with its beneficiary (200)", async () => {
      const response = await list(`?offerId=${event.offerId}`, world.key);
      expect(response.status).toBe(200);
      expect(idsOf(response)).toEqual([ids.b1, ids.b2, ids.b3, ids.b4, ids.b5]);
      const stored = await storedBooking(ids.b2);
      expect(response.body.bookings[1]).toEqual({
        id: ids.b2,
        status: 'CONFIRMED',
        quantity: 2,
        price: 1500,
        creationDate: stored.creationDate.toISOString(),
        confirmationDate: stored.cancellationLimitDate!.toISOString(),
        offerId: event.offerId,
        offerName: 'Concert at the demo theatre',
        offerEan: null,
        offerAddress: '12 Rue de Rivoli, 75004 Paris',
        offerDepartmentCode: '75',
        stockId: event.s2,
        priceCategoryId: event.categoryB,
        priceCategoryLabel: 'B',
        venueId: theatre(),
        venueName: 'Théâtre de la Démo',
        userEmail: 'y@example.com',
        userFirstName: 'Yasmine',
        userLastName: 'Y',
        userBirthDate: '2008-06-30',
        userPhoneNumber: '+33612345678',
        userPostalCode: null,
      });
      expect(response.body.bookings.map((booking: { status: string }) => booking.status)).toEqual([
        'CONFIRMED',
        'CONFIRMED',
        'CONFIRMED',
        'CANCELLED',
        'USED',
      ]);
      expect(response.body.bookings[0]).toMatchObject({
        userEmail: 'x@example.com',
        userPostalCode: '75011',
        priceCategoryLabel: 'A',
        price: 2500,
      });
    });

    it('filters by stock, price category, status and beginning (timezone-aware), alone or together', async () => {
      const t1 = event.t1;
      const inParis = new Date(t1.getTime() + HOUR).toISOString().replace('Z', '+01:00').replace('.000', '');
      const cases: [string, number[]][] = [
        [`&stockId=${event.s1}`, [ids.b1, ids.b4]],
        [`&stockId=${event.s3}`, [ids.b3, ids.b5]],
        [`&priceCategoryId=${event.categoryA}`, [ids.b1, ids.b3, ids.b4, ids.b5]],
        [`&priceCategoryId=${event.categoryB}`, [ids.b2]],
        ['&status=CONFIRMED', [ids.b1, ids.b2, ids.b3]],
        ['&status=CANCELLED', [ids.b4]],
        ['&status=USED', [ids.b5]],
        ['&status=REIMBURSED', []],
        [`&beginningDatetime=${encodeURIComponent(t1.toISOString())}`, [ids.b1, ids.b2, ids.b4]],
        [`&beginningDatetime=${encodeURIComponent(inParis)}`, [ids.b1, ids.b2, ids.b4]],
        [`&beginningDatetime=${encodeURIComponent(new Date(t1.getTime() + 1000).toISOString())}`, []],
        [`&priceCategoryId=${event.categoryA}&status=CONFIRMED`, [ids.b1, ids.b3]],
        [`&stockId=${event.s1}&status=CANCELLED`, [ids.b4]],
        [`&beginningDatetime=${encodeURIComponent(inParis)}&priceCategoryId=${event.categoryB}`, [ids.b2]],
        [`&stockId=${event.s1}&priceCategoryId=${event.categoryB}`, []],
        ['&stockId=2000000000', []],
      ];
      for (const [query, expected] of cases) {
        const response = await list(`?offerId=${event.offerId}${query}`, world.key);
        expect(response.status, query).toBe(200);
        expect(idsOf(response), query).toEqual(expected);
      }
    });

    it('pages by id: limit, then firstIndex = last id + 1', async () => {
      const pages: number[][] = [];
      let firstIndex = 1;
      for (;;) {
        const response = await list(`?offerId=${event.offerId}&limit=2&firstIndex=${firstIndex}`, world.key);
        expect(response.status).toBe(200);
        const page = idsOf(response);
        if (page.length === 0) break;
        pages.push(page);
        firstIndex = page.at(-1)! + 1;
      }
      expect(pages).toEqual([[ids.b1, ids.b2], [ids.b3, ids.b4], [ids.b5]]);
      expect(idsOf(await list(`?offerId=${event.offerId}&firstIndex=${ids.b3}`, world.key))).toEqual([
        ids.b3,
        ids.b4,
        ids.b5,
      ]);
      expect(
        idsOf(await list(`?offerId=${event.offerId}&limit=1&status=CONFIRMED&firstIndex=${ids.b2}`, world.key)),
      ).toEqual([ids.b2]);
      expect(idsOf(await list(`?offerId=${event.offerId}&limit=50`, world.key))).toHaveLength(5);
      expect(idsOf(await list(`?offerId=${event.offerId}&firstIndex=99999999999`, world.key))).toEqual([]);
    });

    it('answers 404 for an offer the key does not reach (another provider’s, or none)', async () => {
      const foreign = await anEventDate(other);
      for (const offerId of [foreign.offerId, 2_000_000_000]) {
        const response = await list(`?offerId=${offerId}`, world.key);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ global: ['Offer not found'] });
      }
      expect((await list(`?offerId=${event.offerId}`, other.key)).status).toBe(404);
    });

    it('refuses a missing offerId, a bad status, a naive or invalid datetime, a bad limit or id (422)', async () => {
      const cases: [string, { loc: (string | number)[]; type: string }][] = [
        ['', { loc: ['offerId'], type: 'missing' }],
        [`?stockId=${event.s1}`, { loc: ['offerId'], type: 'missing' }],
        ['?offerId=abc', { loc: ['offerId'], type: 'int_parsing' }],
        ['?offerId=0', { loc: ['offerId'], type: 'greater_than' }],
        [`?offerId=${event.offerId}&status=PENDING`, { loc: ['status'], type: 'enum' }],
        [`?offerId=${event.offerId}&status=used`, { loc: ['status'], type: 'enum' }],
        [
          `?offerId=${event.offerId}&beginningDatetime=2026-12-02T10:00:00`,
          { loc: ['beginningDatetime'], type: 'timezone_aware' },
        ],
        [
          `?offerId=${event.offerId}&beginningDatetime=2026-12-02`,
          { loc: ['beginningDatetime'], type: 'timezone_aware' },
        ],
        [
          `?offerId=${event.offerId}&beginningDatetime=tomorrow`,
          { loc: ['beginningDatetime'], type: 'datetime_parsing' },
        ],
        [`?offerId=${event.offerId}&limit=51`, { loc: ['limit'], type: 'less_than_equal' }],
        [`?offerId=${event.offerId}&limit=0`, { loc: ['limit'], type: 'greater_than' }],
        [`?offerId=${event.offerId}&firstIndex=0`, { loc: ['firstIndex'], type: 'greater_than_equal' }],
        [`?offerId=${event.offerId}&stockId=x`, { loc: ['stockId'], type: 'int_parsing' }],
      ];
      for (const [query, issue] of cases) {
        const response = await list(query, world.key);
        expect(response.status, query).toBe(422);
        expect(response.body, query).toEqual([expect.objectContaining(issue)]);
      }
    });
  });

  // ===========================================================================================

  describe('periodic transitions', () => {
    describe('through sandboxRunScheduledJobs', () => {
      it('marks an event booking USED 48 hours after the event, not a moment before; the next run reimburses it', async () => {
        const world = await aWorld();
        const date = await anEventDate(world, { hours: 24 });
        const beforeLimit = await anEventDate(world, { hours: 240 });
        const booked = await book(world, date.stockId);
        const later = await book(world, beforeLimit.stockId);
        const due = new Date(date.beginning.getTime() + 48 * HOUR);

        expect(await runScheduledJobs(world, new Date(due.getTime() - 1))).toEqual({
          used: 0,
          expired: 0,
          reimbursed: 0,
        });
        expect(await stateOf(booked.id)).toMatchObject({ status: 'CONFIRMED', dateUsed: null });

        expect(await runScheduledJobs(world, due)).toEqual({ used: 1, expired: 0, reimbursed: 0 });
        const stored = await storedBooking(booked.id);
        expect(stored.dateUsed?.toISOString()).toBe(iso(due));
        // The reimbursement pays what was used before the run: the booking shows USED until the next one.
        expect(stored.status).toBe('USED');
        expect((await storedBooking(later.id)).status).toBe('CONFIRMED');
        const next = new Date(due.getTime() + HOUR);
        expect(await runScheduledJobs(world, next)).toEqual({ used: 0, expired: 0, reimbursed: 1 });
        const reimbursed = await storedBooking(booked.id);
        expect(reimbursed.status).toBe('REIMBURSED');
        expect(reimbursed.reimbursementDate?.toISOString()).toBe(iso(next));
        // A second run at the same moment finds nothing left to do.
        expect(await runScheduledJobs(world, next)).toEqual({ used: 0, expired: 0, reimbursed: 0 });
      });

      it('cancels a book not picked up after 10 days, any other product after 30, refunding them; events never expire', async () => {
        const world = await aWorld();
        const beneficiaryId = await aBeneficiary(world);
        const paperBook = await aProduct(world, { category: 'LIVRE_PAPIER', price: 1000 });
        const cd = await aProduct(world, { category: 'SUPPORT_PHYSIQUE_MUSIQUE_CD', price: 2000 });
        const date = await anEventDate(world, { hours: 24 * 60, price: 500 });
        const bookBooking = await book(world, paperBook.stockId, { beneficiaryId });
        const cdBooking = await book(world, cd.stockId, { beneficiaryId });
        const eventBooking = await book(world, date.stockId, { beneficiaryId });
        const bookedAt = now().getTime();
        expect(await creditOf(beneficiaryId)).toBe(CREDIT - 3500);

        expect(await runScheduledJobs(world, new Date(bookedAt + 10 * DAY - 1))).toEqual({
          used: 0,
          expired: 0,
          reimbursed: 0,
        });
        const tenDays = new Date(bookedAt + 10 * DAY);
        expect(await runScheduledJobs(world, tenDays)).toEqual({ used: 0, expired: 1, reimbursed: 0 });
        expect(await stateOf(bookBooking.id)).toEqual({
          status: 'CANCELLED',
          dateUsed: null,
          cancellationDate: iso(tenDays),
          cancellationReason: 'EXPIRED',
          reimbursementDate: null,
          credit: CREDIT - 2500,
          bookedQuantity: 0,
        });
        expect(await notificationsOf(bookBooking.id)).toEqual(['BOOK', 'CANCEL']);
        expect((await storedBooking(cdBooking.id)).status).toBe('CONFIRMED');

        expect(await runScheduledJobs(world, new Date(bookedAt + 30 * DAY - 1))).toEqual({
          used: 0,
          expired: 0,
          reimbursed: 0,
        });
        const thirtyDays = new Date(bookedAt + 30 * DAY);
        expect(await runScheduledJobs(world, thirtyDays)).toEqual({ used: 0, expired: 1, reimbursed: 0 });
        expect(await stateOf(cdBooking.id)).toEqual({
          status: 'CANCELLED',
          dateUsed: null,
          cancellationDate: iso(thirtyDays),
          cancellationReason: 'EXPIRED',
          reimbursementDate: null,
          credit: CREDIT - 500,
          bookedQuantity: 0,
        });
        expect((await storedBooking(eventBooking.id)).status).toBe('CONFIRMED');
      });

      it('does not expire a product that was picked up (USED): it is reimbursed instead', async () => {
        const world = await aWorld();
        const paperBook = await aProduct(world, { category: 'LIVRE_PAPIER', price: 1000 });
        const pickedUp = await book(world, paperBook.stockId);
        const forgotten = await book(world, paperBook.stockId);
        expect((await countermark('use', pickedUp.token, world.key)).status).toBe(204);
        const usedAt = iso(now());
        const moment = new Date(now().getTime() + 11 * DAY);
        expect(await runScheduledJobs(world, moment)).toEqual({ used: 0, expired: 1, reimbursed: 1 });
        expect(await stateOf(pickedUp.id)).toMatchObject({
          status: 'REIMBURSED',
          dateUsed: usedAt,
          reimbursementDate: iso(moment),
          cancellationDate: null,
        });
        expect(await stateOf(forgotten.id)).toMatchObject({
          status: 'CANCELLED',
          cancellationReason: 'EXPIRED',
          bookedQuantity: 1,
        });
      });

      it('reimburses USED bookings only, keeping their validation date', async () => {
        const world = await aWorld();
        const product = await aProduct(world, { price: 1000 });
        const used = await book(world, product.stockId);
        const confirmed = await book(world, product.stockId);
        const cancelled = await book(world, product.stockId);
        expect((await countermark('use', used.token, world.key)).status).toBe(204);
        expect((await countermark('cancel', cancelled.token, world.key)).status).toBe(204);
        const usedAt = iso(now());
        const moment = at(1);
        const before = { confirmed: await stateOf(confirmed.id), cancelled: await stateOf(cancelled.id) };
        expect(await runScheduledJobs(world, moment)).toEqual({ used: 0, expired: 0, reimbursed: 1 });
        expect(await stateOf(used.id)).toMatchObject({
          status: 'REIMBURSED',
          dateUsed: usedAt,
          reimbursementDate: iso(moment),
        });
        expect({ confirmed: await stateOf(confirmed.id), cancelled: await stateOf(cancelled.id) }).toEqual(before);
        expect(await runScheduledJobs(world, moment)).toEqual({ used: 0, expired: 0, reimbursed: 0 });
      });

      it("leaves another provider's bookings untouched", async () => {
        const world = await aWorld();
        const other = await aWorld();
        const setUp = async (owner: World) => {
          const date = await anEventDate(owner, { hours: 24 });
          const paperBook = await aProduct(owner, { category: 'LIVRE_PAPIER' });
          const cd = await aProduct(owner);
          const event = await book(owner, date.stockId);
          const unpicked = await book(owner, paperBook.stockId);
          const used = await book(owner, cd.stockId);
          expect((await countermark('use', used.token, owner.key)).status).toBe(204);
          return [event.id, unpicked.id, used.id];
        };
        const own = await setUp(world);
        const foreign = await setUp(other);
        const foreignBefore = await Promise.all(foreign.map(stateOf));
        expect(await runScheduledJobs(world, new Date(now().getTime() + 40 * DAY))).toEqual({
          used: 1,
          expired: 1,
          reimbursed: 1,
        });
        expect((await Promise.all(own.map(stateOf))).map((state) => state.status)).toEqual([
          'USED',
          'CANCELLED',
          'REIMBURSED',
        ]);
        expect(await Promise.all(foreign.map(stateOf))).toEqual(foreignBefore);
        expect(foreignBefore.map((state) => state.status)).toEqual(['CONFIRMED', 'CONFIRMED', 'USED']);
      });

      it('needs a provider key (FORBIDDEN otherwise)', async () => {
        const fork = em();
        const internal = issueApiKey(fork, testApp.clock, { env: 'test', internal: true, label: 'back office' });
        await fork.flush();
        const answer = await graph(internal.key, RUN_JOBS, { at: iso(now()) });
        expect(refusalOf(answer).code).toBe('FORBIDDEN');
      });
    });

    describe('through the scheduler', () => {
      it('bookings.autoUse marks event bookings USED 48 hours after the event, and not before', async () => {
        const world = await aWorld();
        const date = await anEventDate(world, { hours: 24 });
        const product = await aProduct(world);
        const booked = await book(world, date.stockId);
        const productBooking = await book(world, product.stockId);
        testApp.clock.advance(72 * HOUR - 1);
        await testApp.runtime.scheduler.runNow('bookings.autoUse');
        expect(await stateOf(booked.id)).toMatchObject({ status: 'CONFIRMED', dateUsed: null });
        testApp.clock.advance(1);
        await testApp.runtime.scheduler.runNow('bookings.autoUse');
        expect(await stateOf(booked.id)).toMatchObject({
          status: 'USED',
          dateUsed: iso(now()),
          reimbursementDate: null,
        });
        expect((await storedBooking(productBooking.id)).status).toBe('CONFIRMED');
      });

      it('bookings.expireProducts cancels a book after 10 days and a CD after 30, with a refund', async () => {
        const world = await aWorld();
        const beneficiaryId = await aBeneficiary(world);
        const paperBook = await aProduct(world, { category: 'LIVRE_PAPIER', price: 1000 });
        const cd = await aProduct(world, { price: 2000 });
        const bookBooking = await book(world, paperBook.stockId, { beneficiaryId });
        const cdBooking = await book(world, cd.stockId, { beneficiaryId });
        testApp.clock.advance(10 * DAY - 1);
        await testApp.runtime.scheduler.runNow('bookings.expireProducts');
        expect((await storedBooking(bookBooking.id)).status).toBe('CONFIRMED');
        testApp.clock.advance(1);
        await testApp.runtime.scheduler.runNow('bookings.expireProducts');
        expect(await stateOf(bookBooking.id)).toMatchObject({
          status: 'CANCELLED',
          cancellationReason: 'EXPIRED',
          cancellationDate: iso(now()),
          credit: CREDIT - 2000,
          bookedQuantity: 0,
        });
        expect((await storedBooking(cdBooking.id)).status).toBe('CONFIRMED');
        testApp.clock.advance(20 * DAY);
        await testApp.runtime.scheduler.runNow('bookings.expireProducts');
        expect(await stateOf(cdBooking.id)).toMatchObject({
          status: 'CANCELLED',
          cancellationReason: 'EXPIRED',
          cancellationDate: iso(now()),
          credit: CREDIT,
          bookedQuantity: 0,
        });
      });

      it('bookings.reimburse marks USED bookings REIMBURSED, and only them', async () => {
        const world = await aWorld();
        const product = await aProduct(world);
        const used = await book(world, product.stockId);
        const confirmed = await book(world, product.stockId);
        expect((await countermark('use', used.token, world.key)).status).toBe(204);
        testApp.clock.advance(HOUR);
        await testApp.runtime.scheduler.runNow('bookings.reimburse');
        expect(await stateOf(used.id)).toMatchObject({ status: 'REIMBURSED', reimbursementDate: iso(now()) });
        expect((await storedBooking(confirmed.id)).status).toBe('CONFIRMED');
      });
    });
  });

  // ===========================================================================================

  describe('effects of changes to offers', () => {
    it('deleting a date cancels its CONFIRMED bookings with a refund; used and cancelled ones stay as they are', async () => {
      const world = await aWorld();
      const beneficiaryId = await aBeneficiary(world);
      const date = await anEventDate(world, { hours: 240, price: 1000, offer: { enableDoubleBookings: true } });
      const kept = await anEventDate(world, { offerId: date.offerId, hours: 300, price: 1000 });
      const cancelled = await book(world, date.stockId, { beneficiaryId });
      expect((await countermark('cancel', cancelled.token, world.key)).status).toBe(204);
      const used = await book(world, date.stockId, { beneficiaryId });
      testApp.clock.advance(48 * HOUR);
      expect((await countermark('use', used.token, world.key)).status).toBe(204);
      const confirmed = await book(world, date.stockId, { beneficiaryId, quantity: 2 });
      const elsewhere = await book(world, kept.stockId, { beneficiaryId });
      const before = {
        used: await stateOf(used.id),
        cancelled: await stateOf(cancelled.id),
        elsewhere: await stateOf(elsewhere.id),
      };
      expect(await creditOf(beneficiaryId)).toBe(CREDIT - 4000);
      expect(await bookedQuantityOf(date.stockId)).toBe(3);

      testApp.clock.advance(HOUR);
      const response = await send(
        'delete',
        `/public/offers/v1/events/${date.offerId}/dates/${date.stockId}`,
        '/public/offers/v1/events/{event_id}/dates/{stock_id}',
        world.key,
      );
      expect(response.status).toBe(204);

      const after = await stateOf(confirmed.id);
      expect(after).toMatchObject({
        status: 'CANCELLED',
        cancellationDate: iso(now()),
        cancellationReason: 'STOCK_DELETED',
        dateUsed: null,
        credit: CREDIT - 2000,
      });
      // The deleted stock keeps its count: places are given back only to a stock still on sale.
      expect(after.bookedQuantity).toBe(3);
      expect(await notificationsOf(confirmed.id)).toEqual(['BOOK', 'CANCEL']);
      expect({
        used: await stateOf(used.id),
        cancelled: await stateOf(cancelled.id),
        elsewhere: await stateOf(elsewhere.id),
      }).toEqual({
        used: { ...before.used, credit: CREDIT - 2000 },
        cancelled: { ...before.cancelled, credit: CREDIT - 2000 },
        elsewhere: { ...before.elsewhere, credit: CREDIT - 2000 },
      });
      expect(before.used.status).toBe('USED');
      expect(before.elsewhere.status).toBe('CONFIRMED');
      const use = await countermark('use', confirmed.token, world.key);
      expect(use.status).toBe(410);
      expect(use.body).toEqual({ global: ['This booking has been cancelled'] });
    });

    it('PATCH of a product with stock: null cancels its CONFIRMED bookings with a refund', async () => {
      const world = await aWorld();
      const beneficiaryId = await aBeneficiary(world);
      const product = await aProduct(world, { price: 1200 });
      const first = await book(world, product.stockId, { beneficiaryId });
      const second = await book(world, product.stockId, { beneficiaryId });
      const used = await book(world, product.stockId, { beneficiaryId });
      expect((await countermark('use', used.token, world.key)).status).toBe(204);
      const response = await send('patch', '/public/offers/v1/products', '/public/offers/v1/products', world.key, {
        offerId: product.offerId,
        stock: null,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.stock).toBeNull();
      for (const booking of [first, second]) {
        expect(await stateOf(booking.id)).toMatchObject({
          status: 'CANCELLED',
          cancellationReason: 'STOCK_DELETED',
          cancellationDate: iso(now()),
        });
      }
      expect((await storedBooking(used.id)).status).toBe('USED');
      expect(await creditOf(beneficiaryId)).toBe(CREDIT - 1200);
      expect((await em().findOneOrFail(Stock, product.stockId)).isDeleted).toBe(true);
    });

    it('a bulk upsert with quantity 0 cancels the CONFIRMED bookings of that stock with a refund', async () => {
      const world = await aWorld();
      const beneficiaryId = await aBeneficiary(world);
      const ean = books[1].ean;
      const product = await aProduct(world, { category: 'LIVRE_PAPIER', price: 900, ean });
      const booked = await book(world, product.stockId, { beneficiaryId });
      const response = await send(
        'post',
        '/public/offers/v1/products/ean',
        '/public/offers/v1/products/ean',
        world.key,
        {
          location: { type: 'physical', venueId: bookshop() },
          products: [{ ean, stock: { price: 900, quantity: 0 } }],
        },
      );
      expect(response.status, JSON.stringify(response.body)).toBe(204);
      expect((await storedBooking(booked.id)).status).toBe('CONFIRMED');
      await runAllJobs();
      expect(await stateOf(booked.id)).toMatchObject({
        status: 'CANCELLED',
        cancellationReason: 'STOCK_DELETED',
        credit: CREDIT,
      });
      expect((await em().findOneOrFail(Stock, product.stockId)).isDeleted).toBe(true);
      expect(await notificationsOf(booked.id)).toEqual(['BOOK', 'CANCEL']);
    });

    it('deactivating an offer (isActive: false) cancels nothing', async () => {
      const world = await aWorld();
      const beneficiaryId = await aBeneficiary(world);
      const product = await aProduct(world, { price: 1000 });
      const date = await anEventDate(world, { hours: 240, price: 2000 });
      const productBooking = await book(world, product.stockId, { beneficiaryId });
      const eventBooking = await book(world, date.stockId, { beneficiaryId });
      const before = { product: await stateOf(productBooking.id), event: await stateOf(eventBooking.id) };
      const patchedProduct = await send(
        'patch',
        '/public/offers/v1/products',
        '/public/offers/v1/products',
        world.key,
        { offerId: product.offerId, isActive: false },
      );
      expect(patchedProduct.status, JSON.stringify(patchedProduct.body)).toBe(200);
      const patchedEvent = await send(
        'patch',
        `/public/offers/v1/events/${date.offerId}`,
        '/public/offers/v1/events/{event_id}',
        world.key,
        { isActive: false },
      );
      expect(patchedEvent.status, JSON.stringify(patchedEvent.body)).toBe(200);
      expect({ product: await stateOf(productBooking.id), event: await stateOf(eventBooking.id) }).toEqual(before);
      expect(before.product).toMatchObject({ status: 'CONFIRMED', credit: CREDIT - 3000 });
      // The booking made is still honoured.
      expect((await countermark('use', productBooking.token, world.key)).status).toBe(204);
    });

    it("rescheduling a date recomputes its CONFIRMED bookings' cancellation limits", async () => {
      const world = await aWorld();
      const date = await anEventDate(world, { hours: 240 });
      const early = await book(world, date.stockId);
      testApp.clock.advance(49 * HOUR);
      // Past its limit (booking + 48 h): validated.
      expect((await countermark('use', early.token, world.key)).status).toBe(204);
      const bookedAt = now();
      const late = await book(world, date.stockId);
      expect(late.cancellationLimitDate).toBe(iso(at(48)));

      // Moved to 72 hours from now: the limit becomes 48 hours before it.
      const sooner = at(72);
      const moved = await send(
        'patch',
        `/public/offers/v1/events/${date.offerId}/dates/${date.stockId}`,
        '/public/offers/v1/events/{event_id}/dates/{stock_id}',
        world.key,
        {
          beginningDatetime: iso(sooner),
          bookingLimitDatetime: iso(at(71)),
        },
      );
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect((await storedBooking(late.id)).cancellationLimitDate?.toISOString()).toBe(iso(at(24)));
      expect((await storedBooking(early.id)).cancellationLimitDate?.toISOString()).toBe(
        iso(new Date(bookedAt.getTime() - HOUR)),
      );
      const lookup = await byToken(late.token, world.key);
      expect(lookup.status).toBe(403);
      expect(lookup.body).toEqual({
        global: [`The beneficiary may still cancel this booking until ${iso(at(24))}: validate it after that`],
      });

      // Moved to tomorrow: the limit has passed, the booking can be validated and no longer cancelled.
      const moved2 = await send(
        'patch',
        `/public/offers/v1/events/${date.offerId}/dates/${date.stockId}`,
        '/public/offers/v1/events/{event_id}/dates/{stock_id}',
        world.key,
        {
          beginningDatetime: iso(at(24)),
          bookingLimitDatetime: iso(at(23)),
        },
      );
      expect(moved2.status, JSON.stringify(moved2.body)).toBe(200);
      expect((await storedBooking(late.id)).cancellationLimitDate?.toISOString()).toBe(iso(at(-24)));
      expect((await countermark('cancel', late.token, world.key)).status).toBe(403);
      const listed = await list(`?offerId=${date.offerId}&status=CONFIRMED`, world.key);
      expect(
        listed.body.bookings.map((booking: { id: number; confirmationDate: string }) => [
          booking.id,
          booking.confirmationDate,
        ]),
      ).toEqual([[late.id, iso(at(-24))]]);

      // Moved far away: the limit is 48 hours after booking again.
      const moved3 = await send(
        'patch',
        `/public/offers/v1/events/${date.offerId}/dates/${date.stockId}`,
        '/public/offers/v1/events/{event_id}/dates/{stock_id}',
        world.key,
        {
          beginningDatetime: iso(at(24 * 30)),
          bookingLimitDatetime: iso(at(24 * 29)),
        },
      );
      expect(moved3.status, JSON.stringify(moved3.body)).toBe(200);
      expect((await storedBooking(late.id)).cancellationLimitDate?.toISOString()).toBe(
        iso(new Date(bookedAt.getTime() + 48 * HOUR)),
      );
    });
  });

  // ===========================================================================================

  describe('messages to the provider', () => {
    const bookshopAsSent = () => ({
      id: bookshop(),
      name: 'Librairie de la Démo',
      street: '4 Place Bellecour',
      city: 'Lyon',
      postalCode: '69002',
      departmentCode: '69',
      siret: '12345678200028',
    });
    const bodiesOf = async (bookingId: number) =>
      (await em().find(ProviderMessage, { booking: bookingId }, { orderBy: { id: 'asc' } })).map((message) =>
        JSON.parse(message.body),
      );

    it('the BOOK notification describes the venue with its address, as the CANCEL one does', async () => {
      const world = await aWorld();
      const product = await aProduct(world, { price: 1000 });
      const booked = await book(world, product.stockId);
      expect((await countermark('cancel', booked.token, world.key)).status).toBe(204);
      const [bookMessage, cancelMessage] = await bodiesOf(booked.id);
      expect(cancelMessage).toMatchObject({ action: 'CANCEL', venue: bookshopAsSent() });
      expect(bookMessage).toMatchObject({
        action: 'BOOK',
        booking: { id: booked.id, token: booked.token, status: 'CONFIRMED' },
        venue: bookshopAsSent(),
      });
    });

    it("delivers the BOOK and CANCEL notifications to the provider's notification URL, signed with its secret", async () => {
      const world = await aWorld();
      const product = await aProduct(world, { price: 1000 });
      const booked = await book(world, product.stockId);
      expect((await countermark('cancel', booked.token, world.key)).status).toBe(204);
      await runAllJobs();
      const messages = await em().find(ProviderMessage, { booking: booked.id }, { orderBy: { id: 'asc' } });
      expect(messages.map((message) => [message.status, message.lastError])).toEqual([
        ['SENT', null],
        ['SENT', null],
      ]);
      const delivered = received.filter((message) => message.url === `/notify/${world.providerId}`);
      expect(delivered.map((message) => message.body.action)).toEqual(['BOOK', 'CANCEL']);
      for (const message of delivered)
        expect(hasValidSignature(message.text, world.secret, message.signature)).toBe(true);
    });

    it("books an event with tickets at the provider's ticketing system, signed, and keeps its tickets", async () => {
      const world = await aWorld({ ticketing: true });
      const date = await anEventDate(world, { hours: 240, price: 2000, quantity: 50, offer: { hasTicket: true } });
      ticketingAnswer = {
        status: 200,
        body: { tickets: [{ barcode: 'BARCODE-1', seat: 'A12' }], remainingQuantity: 41 },
      };
      const answer = await bookRaw(world, date.stockId);
      expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
      const booked = answer.data!.sandboxBook as Booked;
      const calls = received.filter((message) => message.url === `/booking/${world.providerId}`);
      expect(calls).toHaveLength(1);
      expect(hasValidSignature(calls[0].text, world.secret, calls[0].signature)).toBe(true);
      expect(calls[0].body).toMatchObject({ booking: { quantity: 1, unitPrice: 2000 }, stock: { id: date.stockId } });
      const tickets = await em().find(BookingTicket, { booking: booked.id });
      expect(tickets.map((ticket) => [ticket.barcode, ticket.seat])).toEqual([['BARCODE-1', 'A12']]);
      const stock = await em().findOneOrFail(Stock, date.stockId);
      expect([stock.bookedQuantity, stock.quantity]).toEqual([1, 42]);
    });
  });

  // ===========================================================================================

  describe('concurrent operations on one booking', () => {
    it('concurrent cancellations cancel it once: one 204, the others 410, one place given back', async () => {
      const world = await aWorld();
      const beneficiaryId = await aBeneficiary(world);
      const product = await aProduct(world, { price: 1000, quantity: 20 });
      const someoneElse = await aBeneficiary(world);
      for (let index = 0; index < 3; index += 1) await book(world, product.stockId, { beneficiaryId: someoneElse });
      const booked = await book(world, product.stockId, { beneficiaryId });
      expect(await bookedQuantityOf(product.stockId)).toBe(4);
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => countermark('cancel', booked.token, world.key)),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([204, 410, 410, 410, 410]);
      expect(await stateOf(booked.id)).toMatchObject({ status: 'CANCELLED', credit: CREDIT, bookedQuantity: 3 });
      expect(await notificationsOf(booked.id)).toEqual(['BOOK', 'CANCEL']);
    });

    it('a validation racing a cancellation leaves one consistent outcome', async () => {
      const world = await aWorld();
      for (let round = 0; round < 10; round += 1) {
        const beneficiaryId = await aBeneficiary(world);
        const product = await aProduct(world, { price: 1000 });
        const booked = await book(world, product.stockId, { beneficiaryId });
        const [use, cancel] = await Promise.all([
          countermark('use', booked.token, world.key),
          countermark('cancel', booked.token, world.key),
        ]);
        const state = await stateOf(booked.id);
        const outcome = `${use.status}/${cancel.status}`;
        if (state.status === 'USED') {
          expect(outcome).toBe('204/410');
          expect(state, outcome).toMatchObject({ cancellationDate: null, credit: CREDIT - 1000, bookedQuantity: 1 });
        } else {
          expect(outcome).toBe('410/204');
          expect(state, outcome).toMatchObject({
            status: 'CANCELLED',
            dateUsed: null,
            credit: CREDIT,
            bookedQuantity: 0,
          });
        }
      }
    });

    it("a cancellation racing a new booking of the same beneficiary loses neither's credit change", async () => {
      const world = await aWorld();
      const beneficiaryId = await aBeneficiary(world);
      const product = await aProduct(world, { price: 500, quantity: null });
      const toCancel: Booked[] = [];
      for (let index = 0; index < 20; index += 1) toCancel.push(await book(world, product.stockId, { beneficiaryId }));
      await Promise.all(
        toCancel.map((booked) =>
          Promise.all([
            countermark('cancel', booked.token, world.key),
            bookRaw(world, product.stockId, { beneficiaryId }),
          ]),
        ),
      );
      const live = await em().find(Booking, { beneficiary: beneficiaryId, status: 'CONFIRMED' });
      expect(await creditOf(beneficiaryId)).toBe(
        CREDIT - live.reduce((total, booking) => total + booking.amount * booking.quantity, 0),
      );
    });
  });

  describe('scope and races found in review', () => {
    it("keeps a key on its own offerer's bookings: another offerer's key of the same provider gets 404", async () => {
      const world = await aWorld();
      const { stockId } = await aProduct(world);
      const booked = await book(world, stockId);
      const fork = em();
      const otherOfferer = fork.create(Offerer, {
        name: 'Another offerer of the provider',
        siren: '732829320',
        allowedOnAdage: false,
        createdDatetime: now(),
      });
      const { key: otherKey } = issueApiKey(fork, testApp.clock, {
        env: 'test',
        provider: fork.getReference(Provider, world.providerId),
        offerer: otherOfferer,
      });
      await fork.flush();

      expect((await byToken(booked.token, otherKey)).status).toBe(404);
      expect((await countermark('cancel', booked.token, otherKey)).status).toBe(404);
      expect(refusalOf(await graph(otherKey, `query { booking(id: ${booked.id}) { id } }`)).code).toBe('NOT_FOUND');
      expect(refusalOf(await bookRaw({ ...world, key: otherKey }, stockId)).code).toBe('NOT_FOUND');
      expect((await storedBooking(booked.id)).status).toBe('CONFIRMED');
    });

    it('cancels and refunds a product not picked up once, however many expiry runs race', async () => {
      const world = await aWorld();
      const beneficiaryId = await aBeneficiary(world);
      const { stockId } = await aProduct(world, { category: 'LIVRE_PAPIER', price: 1000 });
      const booked = await book(world, stockId, { beneficiaryId });
      const runs = await Promise.all(Array.from({ length: 4 }, () => runScheduledJobs(world, at(11 * 24))));
      expect(runs.reduce((total, run) => total + run.expired, 0)).toBe(1);
      expect((await storedBooking(booked.id)).status).toBe('CANCELLED');
      expect(await creditOf(beneficiaryId)).toBe(CREDIT);
      expect((await em().findOneOrFail(Stock, stockId)).bookedQuantity).toBe(0);
      const cancellations = await em().find(ProviderMessage, {
        booking: booked.id,
        body: { $like: '%"action":"CANCEL"%' },
      });
      expect(cancellations).toHaveLength(1);
    });

    it('lets a use and an expiry run race into one consistent state', async () => {
      const world = await aWorld();
      const beneficiaryId = await aBeneficiary(world);
      const { stockId } = await aProduct(world, { category: 'LIVRE_PAPIER', price: 1000 });
      const booked = await book(world, stockId, { beneficiaryId });
      const [use] = await Promise.all([
        countermark('use', booked.token, world.key),
        runScheduledJobs(world, at(11 * 24)),
      ]);
      const stored = await storedBooking(booked.id);
      if (use.status === 204) {
        // Used before the run: the run may even reimburse it; never cancelled.
        expect(['USED', 'REIMBURSED']).toContain(stored.status);
        expect(await creditOf(beneficiaryId)).toBe(CREDIT - 1000);
      } else {
        expect(use.status).toBe(410);
        expect(stored.status).toBe('CANCELLED');
        expect(await creditOf(beneficiaryId)).toBe(CREDIT);
      }
    });
  });
});

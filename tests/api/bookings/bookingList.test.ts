import { beforeAll, describe, expect, it } from 'vitest';
import { type Answer, expectStatus } from '../../support/api.js';
import { books, HOUR, useBookingWorld, type World } from '../../support/bookingWorld.js';

const suite = useBookingWorld();

describe('GET /public/bookings/v1/bookings', () => {
  let world: World;
  let other: World;
  let event: { offerId: number; categoryA: number; categoryB: number; s1: number; s2: number; s3: number; t1: Date };
  let ids: { b1: number; b2: number; b3: number; b4: number; b5: number };
  let beneficiaries: { x: number; y: number };

  beforeAll(async () => {
    world = await suite.aWorld();
    other = await suite.aWorld();
    // S1 (category A) and S2 (category B) begin at T1, in ten days; S3 (category A) tomorrow.
    const first = await suite.anEventDate(world, {
      hours: 240,
      price: 2500,
      label: 'A',
      offer: { enableDoubleBookings: true },
    });
    const second = await suite.anEventDate(world, { offerId: first.offerId, hours: 240, price: 1500, label: 'B' });
    const third = await suite.anEventDate(world, {
      offerId: first.offerId,
      priceCategoryId: first.priceCategoryId,
      hours: 24,
    });
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
      x: await suite.aBeneficiaryOf(world, {
        email: 'x@example.com',
        firstName: 'Xavier',
        lastName: 'X',
        birthDate: '2007-01-01',
        postalCode: '75011',
      }),
      y: await suite.aBeneficiaryOf(world, {
        email: 'y@example.com',
        firstName: 'Yasmine',
        lastName: 'Y',
        birthDate: '2008-06-30',
        phoneNumber: '+33612345678',
      }),
    };
    const b1 = await suite.book(world, event.s1, { beneficiaryId: beneficiaries.x });
    const b2 = await suite.book(world, event.s2, { beneficiaryId: beneficiaries.y, quantity: 2 });
    const b3 = await suite.book(world, event.s3, { beneficiaryId: beneficiaries.x });
    const b4 = await suite.book(world, event.s1, { beneficiaryId: beneficiaries.y });
    const b5 = await suite.book(world, event.s3, { beneficiaryId: beneficiaries.y });
    // Bookings of another offer of the same provider, and of another provider, never show.
    const elsewhere = await suite.anEventDate(world);
    await suite.book(world, elsewhere.stockId, { beneficiaryId: beneficiaries.x });
    const foreign = await suite.anEventDate(other);
    await suite.book(other, foreign.stockId);
    expect((await suite.countermark('cancel', b4.token, world.key)).status).toBe(204);
    expect((await suite.countermark('use', b5.token, world.key)).status).toBe(204);
    ids = { b1: b1.id, b2: b2.id, b3: b3.id, b4: b4.id, b5: b5.id };
  });

  /** The ids of the bookings of a page, which is answered (200). */
  function idsOf(answer: Answer<'GetBookingsByOffer'>): number[] {
    expectStatus(answer, 200);
    return answer.body.bookings.map((booking) => booking.id);
  }
  const ofTheEvent = (query: Record<string, string | number> = {}) =>
    suite.list({ offerId: event.offerId, ...query }, world.key);

  it("answers the offer's bookings in id order, each with its beneficiary (200)", async () => {
    const response = await ofTheEvent();
    expectStatus(response, 200);
    expect(idsOf(response)).toEqual([ids.b1, ids.b2, ids.b3, ids.b4, ids.b5]);
    const stored = await suite.storedBooking(ids.b2);
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
      venueId: suite.theatre(),
      venueName: 'Théâtre de la Démo',
      userEmail: 'y@example.com',
      userFirstName: 'Yasmine',
      userLastName: 'Y',
      userBirthDate: '2008-06-30',
      userPhoneNumber: '+33612345678',
      userPostalCode: null,
    });
    expect(response.body.bookings.map((booking) => booking.status)).toEqual([
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

  it("answers a product's bookings with its EAN and no price category, and an empty list for an offer without bookings", async () => {
    const product = await suite.aProduct(world, { category: 'LIVRE_PAPIER', price: 1234, ean: books[1].ean });
    const booked = await suite.book(world, product.stockId, { beneficiaryId: beneficiaries.x });
    const response = await suite.list({ offerId: product.offerId }, world.key);
    expectStatus(response, 200);
    expect(response.body).toEqual({
      bookings: [
        {
          id: booked.id,
          status: 'CONFIRMED',
          quantity: 1,
          price: 1234,
          creationDate: (await suite.storedBooking(booked.id)).creationDate.toISOString(),
          confirmationDate: null,
          offerId: product.offerId,
          offerName: 'A paper book',
          offerEan: books[1].ean,
          offerAddress: '4 Place Bellecour, 69002 Lyon',
          offerDepartmentCode: '69',
          stockId: product.stockId,
          priceCategoryId: null,
          priceCategoryLabel: null,
          venueId: suite.bookshop(),
          venueName: 'Librairie de la Démo',
          userEmail: 'x@example.com',
          userFirstName: 'Xavier',
          userLastName: 'X',
          userBirthDate: '2007-01-01',
          userPhoneNumber: null,
          userPostalCode: '75011',
        },
      ],
    });

    const unbooked = await suite.aProduct(world, { price: 500 });
    const empty = await suite.list({ offerId: unbooked.offerId }, world.key);
    expectStatus(empty, 200);
    expect(empty.body).toEqual({ bookings: [] });
  });

  it('answers a reimbursed booking with status REIMBURSED, and finds it by that status', async () => {
    const own = await suite.aWorld();
    const date = await suite.anEventDate(own, { hours: 24, price: 2000 });
    const reimbursed = await suite.book(own, date.stockId);
    const confirmed = await suite.book(own, date.stockId);
    expect((await suite.countermark('use', reimbursed.token, own.key)).status).toBe(204);
    expect(await suite.runScheduledJobs(own, suite.now())).toMatchObject({ reimbursed: 1 });
    const all = await suite.list({ offerId: date.offerId }, own.key);
    expectStatus(all, 200);
    expect(all.body.bookings.map((booking) => [booking.id, booking.status])).toEqual([
      [reimbursed.id, 'REIMBURSED'],
      [confirmed.id, 'CONFIRMED'],
    ]);
    expect(idsOf(await suite.list({ offerId: date.offerId, status: 'REIMBURSED' }, own.key))).toEqual([reimbursed.id]);
  });

  it('filters by stock, price category, status and beginning (timezone-aware), alone or together', async () => {
    const t1 = event.t1;
    const inParis = new Date(t1.getTime() + HOUR).toISOString().replace('Z', '+01:00').replace('.000', '');
    const cases: [Record<string, string | number>, number[]][] = [
      [{ stockId: event.s1 }, [ids.b1, ids.b4]],
      [{ stockId: event.s3 }, [ids.b3, ids.b5]],
      [{ priceCategoryId: event.categoryA }, [ids.b1, ids.b3, ids.b4, ids.b5]],
      [{ priceCategoryId: event.categoryB }, [ids.b2]],
      [{ status: 'CONFIRMED' }, [ids.b1, ids.b2, ids.b3]],
      [{ status: 'CANCELLED' }, [ids.b4]],
      [{ status: 'USED' }, [ids.b5]],
      [{ status: 'REIMBURSED' }, []],
      [{ beginningDatetime: t1.toISOString() }, [ids.b1, ids.b2, ids.b4]],
      [{ beginningDatetime: inParis }, [ids.b1, ids.b2, ids.b4]],
      [{ beginningDatetime: new Date(t1.getTime() + 1000).toISOString() }, []],
      [{ priceCategoryId: event.categoryA, status: 'CONFIRMED' }, [ids.b1, ids.b3]],
      [{ stockId: event.s1, status: 'CANCELLED' }, [ids.b4]],
      [{ beginningDatetime: inParis, priceCategoryId: event.categoryB }, [ids.b2]],
      [{ stockId: event.s1, priceCategoryId: event.categoryB }, []],
      [{ stockId: 2000000000 }, []],
    ];
    for (const [query, expected] of cases) {
      expect(idsOf(await ofTheEvent(query)), JSON.stringify(query)).toEqual(expected);
    }
  });

  it('pages by id: limit, then firstIndex = last id + 1', async () => {
    const pages: number[][] = [];
    let firstIndex = 1;
    for (;;) {
      const page = idsOf(await ofTheEvent({ limit: 2, firstIndex }));
      if (page.length === 0) break;
      pages.push(page);
      firstIndex = page.at(-1)! + 1;
    }
    expect(pages).toEqual([[ids.b1, ids.b2], [ids.b3, ids.b4], [ids.b5]]);
    expect(idsOf(await ofTheEvent({ firstIndex: ids.b3 }))).toEqual([ids.b3, ids.b4, ids.b5]);
    expect(idsOf(await ofTheEvent({ limit: 1, status: 'CONFIRMED', firstIndex: ids.b2 }))).toEqual([ids.b2]);
    expect(idsOf(await ofTheEvent({ limit: 50 }))).toHaveLength(5);
    expect(idsOf(await ofTheEvent({ firstIndex: 99999999999 }))).toEqual([]);
  });

  it('answers 404 for an offer the key does not reach (another provider’s, or none)', async () => {
    const foreign = await suite.anEventDate(other);
    for (const offerId of [foreign.offerId, 2_000_000_000]) {
      const response = await suite.list({ offerId }, world.key);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ global: ['Offer not found'] });
    }
    expect((await suite.list({ offerId: event.offerId }, other.key)).status).toBe(404);
  });

  it('refuses a missing offerId, a bad status, a naive or invalid datetime, a bad limit or id (422)', async () => {
    const offerId = event.offerId;
    const cases: [Record<string, string | number>, { loc: (string | number)[]; type: string }][] = [
      [{}, { loc: ['offerId'], type: 'missing' }],
      [{ stockId: event.s1 }, { loc: ['offerId'], type: 'missing' }],
      [{ offerId: 'abc' }, { loc: ['offerId'], type: 'int_parsing' }],
      [{ offerId: 0 }, { loc: ['offerId'], type: 'greater_than' }],
      [
        { offerId, status: 'PENDING' },
        { loc: ['status'], type: 'enum' },
      ],
      [
        { offerId, status: 'used' },
        { loc: ['status'], type: 'enum' },
      ],
      [
        { offerId, beginningDatetime: '2026-12-02T10:00:00' },
        { loc: ['beginningDatetime'], type: 'timezone_aware' },
      ],
      [
        { offerId, beginningDatetime: '2026-12-02' },
        { loc: ['beginningDatetime'], type: 'timezone_aware' },
      ],
      [
        { offerId, beginningDatetime: 'tomorrow' },
        { loc: ['beginningDatetime'], type: 'datetime_parsing' },
      ],
      [
        { offerId, limit: 51 },
        { loc: ['limit'], type: 'less_than_equal' },
      ],
      [
        { offerId, limit: 0 },
        { loc: ['limit'], type: 'greater_than' },
      ],
      [
        { offerId, firstIndex: 0 },
        { loc: ['firstIndex'], type: 'greater_than_equal' },
      ],
      [
        { offerId, stockId: 'x' },
        { loc: ['stockId'], type: 'int_parsing' },
      ],
    ];
    for (const [query, issue] of cases) {
      const response = await suite.list(query, world.key);
      expect(response.status, JSON.stringify(query)).toBe(422);
      expect(response.body, JSON.stringify(query)).toEqual([expect.objectContaining(issue)]);
    }
  });
});

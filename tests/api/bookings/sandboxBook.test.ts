import type { RequiredEntityData } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { Beneficiary } from '../../../graphql/bookings/Beneficiary.js';
import { ProviderMessage } from '../../../graphql/bookings/ProviderMessage.js';
import type { Offer } from '../../../graphql/offers/Offer.js';
import { Stock } from '../../../graphql/offers/Stock.js';
import {
  type BookingOptions,
  CREDIT,
  iso,
  refusalOf,
  useBookingWorld,
  type World,
} from '../../support/bookingWorld.js';
import { aBeneficiary, CREATE_BENEFICIARY } from '../../support/builders.js';

const suite = useBookingWorld();

describe('sandboxBook', () => {
  it('books an event date for a beneficiary: CONFIRMED, a six-character token, the credit debited, the places reserved', async () => {
    const world = await suite.aWorld();
    const date = await suite.anEventDate(world, { hours: 240, price: 2500, quantity: 10 });
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    expect(await suite.creditOf(beneficiaryId)).toBe(CREDIT);

    const booked = await suite.book(world, date.stockId, { beneficiaryId });

    expect(booked).toEqual({
      id: expect.any(Number),
      token: expect.stringMatching(/^[A-HJKMNP-Z2-9]{6}$/),
      status: 'CONFIRMED',
      quantity: 1,
      // Ten days ahead: 48 hours after booking comes before 48 hours before the event.
      cancellationLimitDate: iso(suite.at(48)),
    });
    const stored = await suite.storedBooking(booked.id);
    expect(stored).toMatchObject({
      token: booked.token,
      quantity: 1,
      amount: 2500,
      status: 'CONFIRMED',
      dateUsed: null,
      cancellationDate: null,
    });
    expect(stored.creationDate.toISOString()).toBe(iso(suite.now()));
    expect(stored.provider.id).toBe(world.providerId);
    expect(await suite.creditOf(beneficiaryId)).toBe(CREDIT - 2500);
    expect(await suite.bookedQuantityOf(date.stockId)).toBe(1);
    expect(await suite.notificationsOf(booked.id)).toEqual(['BOOK']);
  });

  it('sets the cancellation limit of an event to 48 hours before it when that comes first, never before the booking, and none for a product', async () => {
    const world = await suite.aWorld();
    const soon = await suite.anEventDate(world, { hours: 60 });
    const tomorrow = await suite.anEventDate(world, { hours: 24 });
    const product = await suite.aProduct(world);
    expect((await suite.book(world, soon.stockId)).cancellationLimitDate).toBe(iso(suite.at(12)));
    // Booked a day before the event: firm at once, its limit the moment it was made.
    const firm = await suite.book(world, tomorrow.stockId);
    expect(firm.cancellationLimitDate).toBe(iso(suite.at(0)));
    expect((await suite.storedBooking(firm.id)).cancellationLimitDate?.toISOString()).toBe(iso(suite.at(0)));
    expect((await suite.book(world, product.stockId)).cancellationLimitDate).toBeNull();
  });

  it('books 2 places of a duo offer for twice the price', async () => {
    const world = await suite.aWorld();
    const date = await suite.anEventDate(world, { price: 4000, offer: { enableDoubleBookings: true } });
    const beneficiaryId = await suite.aBeneficiaryOf(world);
    const booked = await suite.book(world, date.stockId, { quantity: 2, beneficiaryId });
    expect(booked.quantity).toBe(2);
    expect(await suite.creditOf(beneficiaryId)).toBe(CREDIT - 8000);
    expect(await suite.bookedQuantityOf(date.stockId)).toBe(2);
    expect((await suite.storedBooking(booked.id)).amount).toBe(4000);
  });

  it("books as the provider's first beneficiary when none is named, created on demand", async () => {
    const world = await suite.aWorld();
    const product = await suite.aProduct(world, { price: 1000 });
    const first = await suite.book(world, product.stockId);
    const beneficiaries = await suite.em().find(Beneficiary, { provider: world.providerId });
    expect(beneficiaries.map((one) => [one.firstName, one.lastName, one.credit])).toEqual([
      ['Camille', 'Sandbox', CREDIT - 1000],
    ]);
    const second = await suite.book(world, product.stockId);
    expect((await suite.storedBooking(first.id)).beneficiary.id).toBe(beneficiaries[0].id);
    expect((await suite.storedBooking(second.id)).beneficiary.id).toBe(beneficiaries[0].id);
    expect(await suite.creditOf(beneficiaries[0].id)).toBe(CREDIT - 2000);
    expect(await suite.em().count(Beneficiary, { provider: world.providerId })).toBe(1);
  });

  it('creates test beneficiaries with the 300 euro credit, and refuses invalid ones (VALIDATION_FAILED)', async () => {
    const world = await suite.aWorld();
    const lea = {
      email: 'lea@example.com',
      firstName: 'Léa',
      lastName: 'Dupont',
      birthDate: '2008-02-29',
      phoneNumber: '+33 6 12 34 56 78',
      postalCode: '69002',
    };
    expect(await aBeneficiary(suite.testApp, world.key, lea)).toEqual({
      id: expect.any(Number),
      ...lea,
      // Kept in E.164, as pass Culture answers its beneficiaries' numbers.
      phoneNumber: '+33612345678',
      credit: CREDIT,
    });
    const national = await aBeneficiary(suite.testApp, world.key, {
      ...lea,
      email: 'lea2@example.com',
      phoneNumber: '06 12 34 56 78',
    });
    expect(national.phoneNumber).toBe('+33612345678');
    // The refused one below is not recorded: Léa and her second account only.
    const refused = await suite.graph(world.key, CREATE_BENEFICIARY, {
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
    expect(await suite.em().count(Beneficiary, { provider: world.providerId })).toBe(2);
  });

  describe('refusals, which write nothing', () => {
    /** Books and expects a refusal; then checks that no booking, credit, place or message moved. */
    async function expectRefused(
      world: World,
      stockId: number,
      options: BookingOptions,
      expected: { code: string; fields?: Record<string, string[]>; message?: string },
    ) {
      const beneficiaryId = options.beneficiaryId ?? null;
      /** What a booking could write: a booking, the credit, the places, a message. */
      const written = async () => ({
        bookings: await suite.bookingsOf(world),
        credit: beneficiaryId ? ((await suite.em().findOne(Beneficiary, beneficiaryId))?.credit ?? null) : null,
        booked: (await suite.em().findOne(Stock, stockId))?.bookedQuantity ?? null,
        messages: await suite.em().count(ProviderMessage, { provider: world.providerId }),
      });
      const before = await written();
      const refusal = refusalOf(await suite.bookRaw(world, stockId, options));
      expect(refusal.code).toBe(expected.code);
      if (expected.fields) expect(refusal.fields).toEqual(expected.fields);
      if (expected.message) expect(refusal.message).toBe(expected.message);
      expect(await written()).toEqual(before);
    }

    it('refuses a quantity other than 1 or 2, and 2 where the offer does not allow duos (BAD_REQUEST on quantity)', async () => {
      const world = await suite.aWorld();
      const beneficiaryId = await suite.aBeneficiaryOf(world);
      const solo = await suite.anEventDate(world, { offer: { enableDoubleBookings: false } });
      const duo = await suite.anEventDate(world, { offer: { enableDoubleBookings: true } });
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
      const product = await suite.aProduct(world);
      await expectRefused(
        world,
        product.stockId,
        { quantity: 2, beneficiaryId },
        { code: 'BAD_REQUEST', fields: { quantity: ['This offer does not allow duo bookings'] } },
      );
    });

    it('refuses an offer that cannot be booked: pending, rejected, inactive, not published yet, booking not open (BAD_REQUEST on stockId)', async () => {
      const world = await suite.aWorld();
      const beneficiaryId = await suite.aBeneficiaryOf(world);
      const cases: [Partial<RequiredEntityData<Offer>>, string][] = [
        [{ validation: 'PENDING', validatedAt: null }, 'PENDING'],
        [{ validation: 'REJECTED' }, 'REJECTED'],
        [{ isActive: false }, 'INACTIVE'],
        [{ publishedAt: null, publicationDatetime: suite.at(48) }, 'SCHEDULED'],
        [{ bookingOpenedAt: null, bookingAllowedDatetime: suite.at(48) }, 'PUBLISHED'],
      ];
      for (const [offer, status] of cases) {
        const date = await suite.anEventDate(world, { offer });
        await expectRefused(
          world,
          date.stockId,
          { beneficiaryId },
          { code: 'BAD_REQUEST', fields: { stockId: [`The offer is ${status}: it cannot be booked`] } },
        );
      }
      const inactiveProduct = await suite.aProduct(world, { offer: { isActive: false } });
      await expectRefused(
        world,
        inactiveProduct.stockId,
        { beneficiaryId },
        { code: 'BAD_REQUEST', fields: { stockId: ['The offer is INACTIVE: it cannot be booked'] } },
      );
      // Its only date past its booking limit: the offer has expired.
      const expired = await suite.anEventDate(world, { hours: 10, bookingLimitHours: -1 });
      await expectRefused(
        world,
        expired.stockId,
        { beneficiaryId },
        { code: 'BAD_REQUEST', fields: { stockId: ['The offer is EXPIRED: it cannot be booked'] } },
      );
    });

    it('refuses a date past its booking limit, or begun, while the offer has other dates open (BAD_REQUEST on stockId)', async () => {
      const world = await suite.aWorld();
      const beneficiaryId = await suite.aBeneficiaryOf(world);
      const open = await suite.anEventDate(world, { hours: 240 });
      const closed = await suite.anEventDate(world, { offerId: open.offerId, hours: 48, bookingLimitHours: -1 });
      const begun = await suite.anEventDate(world, { offerId: open.offerId, hours: -1, bookingLimitHours: null });
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
      const limitNow = await suite.anEventDate(world, { offerId: open.offerId, hours: 48, bookingLimitHours: 0 });
      await expectRefused(
        world,
        limitNow.stockId,
        { beneficiaryId },
        { code: 'BAD_REQUEST', fields: { stockId: ['The booking limit of this stock has passed'] } },
      );
      await suite.book(world, open.stockId, { beneficiaryId });
    });

    it("refuses a deleted stock, an unknown one and another provider's (NOT_FOUND)", async () => {
      const world = await suite.aWorld();
      const other = await suite.aWorld();
      const beneficiaryId = await suite.aBeneficiaryOf(world);
      const live = await suite.anEventDate(world);
      const deleted = await suite.anEventDate(world, { offerId: live.offerId, hours: 300, isDeleted: true });
      const foreign = await suite.anEventDate(other);
      for (const stockId of [deleted.stockId, foreign.stockId, 2_000_000_000]) {
        await expectRefused(world, stockId, { beneficiaryId }, { code: 'NOT_FOUND', message: 'Stock not found' });
      }
      expect(await suite.bookedQuantityOf(foreign.stockId)).toBe(0);
    });

    it('never oversells: no places left, or fewer than asked (BAD_REQUEST on stockId)', async () => {
      const world = await suite.aWorld();
      const beneficiaryId = await suite.aBeneficiaryOf(world);
      const date = await suite.anEventDate(world, { quantity: 3, offer: { enableDoubleBookings: true } });
      await suite.book(world, date.stockId, { quantity: 2, beneficiaryId });
      await expectRefused(
        world,
        date.stockId,
        { quantity: 2, beneficiaryId },
        { code: 'BAD_REQUEST', fields: { stockId: ['No places left on this stock'] } },
      );
      await suite.book(world, date.stockId, { beneficiaryId });
      expect(await suite.bookedQuantityOf(date.stockId)).toBe(3);
      await expectRefused(
        world,
        date.stockId,
        { beneficiaryId },
        { code: 'BAD_REQUEST', fields: { stockId: ['No places left on this stock'] } },
      );
      // A sold-out date with nothing else on sale: the offer is SOLD_OUT, and still no place is sold.
      const full = await suite.anEventDate(world, { quantity: 1, bookedQuantity: 1 });
      await expectRefused(
        world,
        full.stockId,
        { beneficiaryId },
        { code: 'BAD_REQUEST', fields: { stockId: ['No places left on this stock'] } },
      );
      expect(await suite.creditOf(beneficiaryId)).toBe(CREDIT - 3 * 2500);
    });

    it('never oversells under concurrent bookings', async () => {
      const world = await suite.aWorld();
      const date = await suite.anEventDate(world, { quantity: 3, price: 100 });
      const beneficiaries = await Promise.all(Array.from({ length: 6 }, () => suite.aBeneficiaryOf(world)));
      const answers = await Promise.all(
        beneficiaries.map((beneficiaryId) => suite.bookRaw(world, date.stockId, { beneficiaryId })),
      );
      expect(answers.filter((answer) => !answer.errors)).toHaveLength(3);
      for (const answer of answers.filter((one) => one.errors)) {
        expect(refusalOf(answer).fields).toEqual({ stockId: ['No places left on this stock'] });
      }
      expect(await suite.bookedQuantityOf(date.stockId)).toBe(3);
      expect(await suite.bookingsOf(world)).toBe(3);
      const credits = await Promise.all(beneficiaries.map(suite.creditOf));
      expect(credits.filter((credit) => credit === CREDIT - 100)).toHaveLength(3);
      expect(credits.filter((credit) => credit === CREDIT)).toHaveLength(3);
    });

    it('refuses a booking above the credit left (BAD_REQUEST on quantity)', async () => {
      const world = await suite.aWorld();
      const beneficiaryId = await suite.aBeneficiaryOf(world);
      const expensive = await suite.anEventDate(world, { price: 16_000, offer: { enableDoubleBookings: true } });
      await expectRefused(
        world,
        expensive.stockId,
        { quantity: 2, beneficiaryId },
        {
          code: 'BAD_REQUEST',
          fields: { quantity: ['Not enough credit: 30000 cents left for 32000'] },
        },
      );
      await suite.book(world, expensive.stockId, { beneficiaryId });
      await expectRefused(
        world,
        expensive.stockId,
        { beneficiaryId },
        { code: 'BAD_REQUEST', fields: { quantity: ['Not enough credit: 14000 cents left for 16000'] } },
      );
      const exact = await suite.aProduct(world, { price: 14_000 });
      await suite.book(world, exact.stockId, { beneficiaryId });
      expect(await suite.creditOf(beneficiaryId)).toBe(0);
    });

    it('leaves no default beneficiary behind when a booking without beneficiaryId is refused', async () => {
      const world = await suite.aWorld();
      const refusal = refusalOf(await suite.bookRaw(world, 2_000_000_000));
      expect(refusal).toMatchObject({ code: 'NOT_FOUND', message: 'Stock not found' });
      expect(await suite.em().count(Beneficiary, { provider: world.providerId })).toBe(0);
    });

    it("refuses another provider's beneficiary, or an unknown one (NOT_FOUND)", async () => {
      const world = await suite.aWorld();
      const other = await suite.aWorld();
      const foreignBeneficiary = await suite.aBeneficiaryOf(other);
      const date = await suite.anEventDate(world);
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
      expect(await suite.creditOf(foreignBeneficiary)).toBe(CREDIT);
      expect(await suite.em().count(Beneficiary, { provider: world.providerId })).toBe(0);
    });
  });
});

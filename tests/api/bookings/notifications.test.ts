import { describe, expect, it } from 'vitest';
import { BookingTicket } from '../../../graphql/bookings/BookingTicket.js';
import { ProviderMessage } from '../../../graphql/bookings/ProviderMessage.js';
import { Stock } from '../../../graphql/offers/Stock.js';
import { expectSignedFor, pathOf, useBookingWorld } from '../../support/bookingWorld.js';

const suite = useBookingWorld();

describe('messages to the provider', () => {
  it('a product’s BOOK and CANCEL notifications are pass Culture’s flat message: the stock’s price, no price category, no cancellation limit', async () => {
    const world = await suite.aWorld();
    const product = await suite.aProduct(world, { price: 1000, offer: { idAtProvider: 'cd-42' } });
    const beneficiaryId = await suite.aBeneficiaryOf(world, {
      email: 'flat@example.com',
      firstName: 'Zoé',
      lastName: 'Plate',
      birthDate: '2007-01-31',
      phoneNumber: '+33 6 00 00 00 01',
    });
    const booked = await suite.book(world, product.stockId, { beneficiaryId });
    expect((await suite.countermark('cancel', booked.token, world.key)).status).toBe(204);
    const [bookMessage, cancelMessage] = await suite.messagesOf(booked.id);
    const details = {
      booking_confirmation_date: null,
      booking_creation_date: suite.now().toISOString().slice(0, 19),
      booking_quantity: 1,
      offer_ean: null,
      offer_id: product.offerId,
      offer_id_at_provider: 'cd-42',
      offer_name: 'A rock CD',
      offer_price: 1000,
      price_category_id: null,
      price_category_id_at_provider: null,
      price_category_label: null,
      stock_id: product.stockId,
      stock_id_at_provider: null,
      user_birth_date: '2007-01-31',
      user_email: 'flat@example.com',
      user_first_name: 'Zoé',
      user_last_name: 'Plate',
      user_phone: '+33600000001',
      venue_address: '4 Place Bellecour',
      venue_department_code: '69',
      venue_id: suite.bookshop(),
      venue_name: 'Demo Bookshop',
    };
    expect(bookMessage).toEqual({ ...details, action: 'BOOK' });
    expect(cancelMessage).toEqual({ ...details, action: 'CANCEL' });
  });

  it("delivers the BOOK and CANCEL notifications to the provider's notification URL, signed with its secret", async () => {
    const world = await suite.aWorld();
    const product = await suite.aProduct(world, { price: 1000 });
    const booked = await suite.book(world, product.stockId);
    expect((await suite.countermark('cancel', booked.token, world.key)).status).toBe(204);
    await suite.runAllJobs();
    const messages = await suite.em().find(ProviderMessage, { booking: booked.id }, { orderBy: { id: 'asc' } });
    expect(messages.map((message) => [message.status, message.lastError])).toEqual([
      ['SENT', null],
      ['SENT', null],
    ]);
    const delivered = suite.receiver.to(pathOf(world, 'notify'));
    expect(delivered.map((message) => message.body.action)).toEqual(['BOOK', 'CANCEL']);
    expectSignedFor(world, delivered);
  });

  it("books an event with tickets at the provider's ticketing system, signed, and keeps its tickets", async () => {
    const world = await suite.aWorld({ ticketing: true });
    const date = await suite.anEventDate(world, { hours: 240, price: 2000, quantity: 50, offer: { hasTicket: true } });
    suite.receiver.answer(pathOf(world, 'booking'), {
      status: 200,
      json: { tickets: [{ barcode: 'BARCODE-1', seat: 'A12' }], remainingQuantity: 41 },
    });
    const booked = await suite.book(world, date.stockId);
    const calls = suite.receiver.to(pathOf(world, 'booking'));
    expect(calls).toHaveLength(1);
    expectSignedFor(world, calls);
    expect(calls[0].body).toMatchObject({ booking_quantity: 1, offer_price: 2000, stock_id: date.stockId });
    expect(calls[0].body.action).toBeUndefined();
    const tickets = await suite.em().find(BookingTicket, { booking: booked.id });
    expect(tickets.map((ticket) => [ticket.barcode, ticket.seat])).toEqual([['BARCODE-1', 'A12']]);
    const stock = await suite.em().findOneOrFail(Stock, date.stockId);
    expect([stock.bookedQuantity, stock.quantity]).toEqual([1, 42]);
  });
});

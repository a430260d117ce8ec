import { describe, expect, it } from 'vitest';
import { BookingTicket } from '../../../graphql/bookings/BookingTicket.js';
import { ProviderMessage } from '../../../graphql/bookings/ProviderMessage.js';
import { Stock } from '../../../graphql/offers/Stock.js';
import { expectSignedFor, pathOf, useBookingWorld } from '../../support/bookingWorld.js';

const suite = useBookingWorld();

describe('messages to the provider', () => {
  const bookshopAsSent = () => ({
    id: suite.bookshop(),
    name: 'Librairie de la Démo',
    street: '4 Place Bellecour',
    city: 'Lyon',
    postalCode: '69002',
    departmentCode: '69',
    siret: '12345678200028',
  });

  it('the BOOK notification describes the venue with its address, as the CANCEL one does', async () => {
    const world = await suite.aWorld();
    const product = await suite.aProduct(world, { price: 1000 });
    const booked = await suite.book(world, product.stockId);
    expect((await suite.countermark('cancel', booked.token, world.key)).status).toBe(204);
    const [bookMessage, cancelMessage] = await suite.messagesOf(booked.id);
    expect(cancelMessage).toMatchObject({ action: 'CANCEL', venue: bookshopAsSent() });
    expect(bookMessage).toMatchObject({
      action: 'BOOK',
      booking: { id: booked.id, token: booked.token, status: 'CONFIRMED' },
      venue: bookshopAsSent(),
    });
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
    expect(calls[0].body).toMatchObject({ booking: { quantity: 1, unitPrice: 2000 }, stock: { id: date.stockId } });
    const tickets = await suite.em().find(BookingTicket, { booking: booked.id });
    expect(tickets.map((ticket) => [ticket.barcode, ticket.seat])).toEqual([['BARCODE-1', 'A12']]);
    const stock = await suite.em().findOneOrFail(Stock, date.stockId);
    expect([stock.bookedQuantity, stock.quantity]).toEqual([1, 42]);
  });
});

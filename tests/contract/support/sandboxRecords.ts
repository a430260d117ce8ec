import { expect } from 'vitest';
import type { DocsServer } from '../../docs/support/docsServer.js';
import { aCollectiveOfferBody, anEventBody, aProductBody } from '../../support/offerWorld.js';

/** A value for each path parameter of the document, from records the sandbox key made. */
export type PathParameterValues = Record<string, string>;

/**
 * Makes, with the sandbox's key and through the API as an integrator would, one record of each
 * kind a path names (an event with a price category and a date, a product, a collective offer and
 * its booking, an individual booking), and answers their ids under the path parameters' names.
 */
export async function sandboxRecords(server: DocsServer): Promise<PathParameterValues> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${server.sandbox.apiKey}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, any>;
    expect(response.status, `${method} ${path}: ${JSON.stringify(answer)}`).toBeLessThan(300);
    return answer;
  };
  const [theatre, bookshop] = server.sandbox.venues;

  const event = await call('POST', '/public/offers/v1/events', anEventBody(theatre.id));
  const [priceCategory] = (
    await call('POST', `/public/offers/v1/events/${event.id}/price_categories`, {
      priceCategories: [{ label: 'Standard', price: 1500 }],
    })
  ).priceCategories as { id: number }[];
  // Two dates: the collection deletes the one it names, the other keeps its booking. The booked one
  // is within 48 hours of the server's clock (DOCS_CLOCK_START), when its token may be read and used.
  const date = (beginningDatetime: string) => ({
    beginningDatetime,
    bookingLimitDatetime: beginningDatetime.replace('T20:30', 'T18:00'),
    priceCategoryId: priceCategory.id,
    quantity: 10,
  });
  const [bookedDate, deletedDate] = (
    await call('POST', `/public/offers/v1/events/${event.id}/dates`, {
      dates: [date('2026-11-25T20:30:00+01:00'), date('2027-03-13T20:30:00+01:00')],
    })
  ).dates as { id: number }[];
  const product = await call('POST', '/public/offers/v1/products', aProductBody(bookshop.id));
  const collectiveOffer = await call(
    'POST',
    '/v2/collective/offers/',
    aCollectiveOfferBody(theatre.id, { educationalInstitutionId: 1 }),
  );
  await server.runDueJobs();
  const collectiveBooking = await call('POST', `/v2/collective/adage_mock/offer/${collectiveOffer.id}/book`);
  const booked = await fetch(`${server.baseUrl}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.sandbox.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation Book($input: SandboxBookingInput!) { sandboxBook(input: $input) { token } }',
      variables: { input: { stockId: bookedDate.id } },
    }),
  });
  const booking = (await booked.json()) as { data: { sandboxBook: { token: string } } | null; errors?: unknown };
  expect(booking.errors, JSON.stringify(booking.errors)).toBeUndefined();

  return {
    venue_id: String(theatre.id),
    siret: theatre.siret!,
    address_id: String(theatre.address!.id),
    event_id: String(event.id),
    price_category_id: String(priceCategory.id),
    stock_id: String(deletedDate.id),
    product_id: String(product.id),
    offer_id: String(collectiveOffer.id),
    booking_id: String(collectiveBooking.id),
    token: booking.data!.sandboxBook.token,
  };
}

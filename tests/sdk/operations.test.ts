/**
 * Every operation of the API through the TypeScript SDK (clients/typescript), imported from its
 * source, against a platform listening on a port as `npm start` serves it (the demo sandbox, on
 * SQLite or on the PostgreSQL of DATABASE_URL). Each answer is checked against the OpenAPI document,
 * its status and body asserted; the last test proves that no operation was left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, orThrow, formDataOf, type ProviderApiClient } from '../../clients/typescript/src/index.js';
import { catalogueEntries } from '../../graphql/offers/eanCatalogue/catalogueData.js';
import { type DocsServer, startDocsServer } from '../docs/support/docsServer.js';
import { aPng } from '../support/images.js';
import { allOperations, graphql, type OperationName, recordingClient } from './support.js';

let server: DocsServer;
let api: ProviderApiClient;
let called: Set<OperationName>;
let venueId: number;
let siret: string;

/** The accessibility of the events created here (and of the product, but for the visual flag). */
const theatreAccessibility = {
  audioDisabilityCompliant: true,
  mentalDisabilityCompliant: true,
  motorDisabilityCompliant: true,
  visualDisabilityCompliant: false,
};

const book = catalogueEntries.find((entry) => entry.category === 'LIVRE_PAPIER' && entry.compliant)!;

beforeAll(async () => {
  server = await startDocsServer();
  ({ api, called } = recordingClient({ baseUrl: server.baseUrl, apiKey: server.sandbox.apiKey }));
});

afterAll(async () => {
  await server?.close();
});

async function sandboxBook(stockId: number, quantity = 1): Promise<{ id: number; token: string }> {
  const data = await graphql<{ sandboxBook: { id: number; token: string } }>(
    server.baseUrl,
    server.sandbox.apiKey,
    'mutation Book($stockId: Int!, $quantity: Int) { sandboxBook(input: {stockId: $stockId, quantity: $quantity}) { id token } }',
    { stockId, quantity },
  );
  return data.sandboxBook;
}

describe('the provider and its venues', () => {
  it('reads the provider and sets its URLs', async () => {
    const provider = await orThrow(api.GET('/public/providers/v1/provider'));
    expect(provider.id).toBe(server.sandbox.provider.id);
    const updated = await orThrow(
      api.PATCH('/public/providers/v1/provider', {
        body: { notificationUrl: 'https://tickets.example.com/pass-culture/notify' },
      }),
    );
    expect(updated.notificationUrl).toBe('https://tickets.example.com/pass-culture/notify');
  });

  it('lists the venues, finds one by SIRET and sets its URLs', async () => {
    const offerers = await orThrow(api.GET('/public/offers/v1/offerer_venues'));
    const venue = offerers[0].venues.find((candidate) => candidate.siret !== null)!;
    venueId = venue.id;
    siret = venue.siret!;
    const found = await orThrow(api.GET('/public/offers/v1/venues/{siret}', { params: { path: { siret } } }));
    expect(found.id).toBe(venueId);
    const { data, response } = await api.PATCH('/public/providers/v1/venues/{venue_id}', {
      params: { path: { venue_id: venueId } },
      body: { notificationUrl: 'https://bookshop.example.com/pass-culture/notify' },
    });
    expect(response.status).toBe(204);
    expect(data).toBeUndefined();
  });
});

describe('addresses', () => {
  it('creates, searches and reads an address', async () => {
    const created = await orThrow(
      api.POST('/public/offers/v1/addresses', {
        body: {
          street: '1 Place du Trocadéro',
          city: 'Paris',
          postalCode: '75016',
          latitude: 48.8616,
          longitude: 2.2893,
        },
      }),
    );
    expect(created).toMatchObject({ city: 'Paris', postalCode: '75016' });
    const found = await orThrow(
      api.GET('/public/offers/v1/addresses/search', {
        params: { query: { street: '1 Place du Trocadéro', city: 'Paris', postalCode: '75016' } },
      }),
    );
    expect(found.addresses.map((address) => address.id)).toContain(created.id);
    const read = await orThrow(
      api.GET('/public/offers/v1/addresses/{address_id}', { params: { path: { address_id: created.id } } }),
    );
    expect(read.id).toBe(created.id);
  });
});

describe('catalogues', () => {
  it('lists the categories, music types and show types', async () => {
    const productCategories = await orThrow(api.GET('/public/offers/v1/products/categories'));
    expect(productCategories.map((category) => category.id)).toContain('CARTE_MUSEE');
    const eventCategories = await orThrow(api.GET('/public/offers/v1/events/categories'));
    expect(eventCategories.map((category) => category.id)).toContain('SPECTACLE_REPRESENTATION');
    for (const path of [
      '/public/offers/v1/music_types',
      '/public/offers/v1/music_types/all',
      '/public/offers/v1/music_types/event',
    ] as const) {
      const musicTypes = await orThrow(api.GET(path));
      expect(musicTypes.length, path).toBeGreaterThan(0);
    }
    const showTypes = await orThrow(api.GET('/public/offers/v1/show_types'));
    expect(showTypes.length).toBeGreaterThan(0);
  });

  it('lists the school catalogues', async () => {
    expect((await orThrow(api.GET('/v2/collective/educational-domains'))).length).toBeGreaterThan(0);
    expect((await orThrow(api.GET('/v2/collective/national-programs/'))).length).toBeGreaterThan(0);
    expect((await orThrow(api.GET('/v2/collective/student-levels'))).length).toBeGreaterThan(0);
    expect((await orThrow(api.GET('/v2/collective/offers/formats'))).length).toBeGreaterThan(0);
    const institutions = await orThrow(
      api.GET('/v2/collective/educational-institutions/', { params: { query: { city: 'lyon', limit: 5 } } }),
    );
    expect(institutions.length).toBeGreaterThan(0);
  });
});

describe('product offers', () => {
  let productId: number;

  it('creates a product offer, reads it, lists it and edits its stock', async () => {
    const created = await orThrow(
      api.POST('/public/offers/v1/products', {
        body: {
          location: { type: 'physical', venueId },
          name: 'Museum pass 2027',
          idAtProvider: 'sdk-museum-pass',
          categoryRelatedFields: { category: 'CARTE_MUSEE' },
          accessibility: { ...theatreAccessibility, visualDisabilityCompliant: true },
          stock: { price: 1500, quantity: 10 },
        },
      }),
    );
    productId = created.id;
    expect(created).toMatchObject({ name: 'Museum pass 2027', stock: { price: 1500, quantity: 10 } });
    const read = await orThrow(
      api.GET('/public/offers/v1/products/{product_id}', { params: { path: { product_id: productId } } }),
    );
    expect(read.idAtProvider).toBe('sdk-museum-pass');
    const listed = await orThrow(api.GET('/public/offers/v1/products', { params: { query: { venueId } } }));
    expect(listed.products.map((product) => product.id)).toContain(productId);
    const edited = await orThrow(
      api.PATCH('/public/offers/v1/products', { body: { offerId: productId, stock: { price: 1500, quantity: 12 } } }),
    );
    expect(edited.stock).toMatchObject({ quantity: 12 });
  });

  it('sets an offer image from a multipart body', async () => {
    const { response } = await api.POST('/public/offers/v1/{offer_id}/image', {
      params: { path: { offer_id: productId } },
      body: { file: new Blob([new Uint8Array(aPng(400, 600))], { type: 'image/png' }), credit: 'Photo: SDK' },
      bodySerializer: formDataOf,
    });
    expect(response.status).toBe(204);
    const read = await orThrow(
      api.GET('/public/offers/v1/products/{product_id}', { params: { path: { product_id: productId } } }),
    );
    expect(read.image).toMatchObject({ credit: 'Photo: SDK' });
  });

  it('checks EANs, creates product offers from them in the background and reads them back', async () => {
    const availability = await orThrow(
      api.GET('/public/offers/v1/products/ean/check_availability', { params: { query: { eans: book.ean } } }),
    );
    expect(availability).toEqual({
      available: [book.ean],
      rejected: { notCompliantWithCgu: [], notFound: [], subcategoryNotAllowed: [] },
    });
    const { response } = await api.POST('/public/offers/v1/products/ean', {
      body: {
        location: { type: 'physical', venueId },
        products: [{ ean: book.ean, stock: { price: 890, quantity: 5 } }],
      },
    });
    expect(response.status).toBe(204);
    await server.runDueJobs();
    const byEan = await orThrow(
      api.GET('/public/offers/v1/products/ean', { params: { query: { eans: book.ean, venueId } } }),
    );
    expect(byEan.products.map((product) => product.stock?.price)).toEqual([890]);
  });

  it('books the product in the sandbox and manages the booking by its countermark', async () => {
    const { offer } = await graphql<{ offer: { stock: { id: number } } }>(
      server.baseUrl,
      server.sandbox.apiKey,
      'query Stock($id: Int!) { offer(id: $id) { stock { id } } }',
      { id: productId },
    );
    const { token } = await sandboxBook(offer.stock.id);
    const booking = await orThrow(api.GET('/public/bookings/v1/token/{token}', { params: { path: { token } } }));
    expect(booking).toMatchObject({ offerId: productId, quantity: 1 });
    const path = { params: { path: { token } } };
    expect((await api.PATCH('/public/bookings/v1/use/token/{token}', path)).response.status).toBe(204);
    expect((await api.PATCH('/public/bookings/v1/keep/token/{token}', path)).response.status).toBe(204);
    expect((await api.PATCH('/public/bookings/v1/cancel/token/{token}', path)).response.status).toBe(204);
    const again = await api.PATCH('/public/bookings/v1/cancel/token/{token}', path);
    expect(failure(again)).toMatchObject({ kind: 'refusal', status: 410 });
  });
});

describe('event offers', () => {
  let eventId: number;
  let priceCategoryId: number;
  let dateId: number;

  it('creates an event, reads, lists and edits it', async () => {
    const created = await orThrow(
      api.POST('/public/offers/v1/events', {
        body: {
          location: { type: 'physical', venueId },
          name: 'Le Misanthrope',
          categoryRelatedFields: { category: 'SPECTACLE_REPRESENTATION', showType: 'THEATRE-COMEDIE' },
          accessibility: theatreAccessibility,
          hasTicket: false,
          priceCategories: [{ label: 'Plein tarif', price: 2000 }],
        },
      }),
    );
    eventId = created.id;
    priceCategoryId = created.priceCategories[0].id;
    const read = await orThrow(
      api.GET('/public/offers/v1/events/{event_id}', { params: { path: { event_id: eventId } } }),
    );
    expect(read.name).toBe('Le Misanthrope');
    const listed = await orThrow(api.GET('/public/offers/v1/events', { params: { query: { venueId } } }));
    expect(listed.events.map((event) => event.id)).toContain(eventId);
    const edited = await orThrow(
      api.PATCH('/public/offers/v1/events/{event_id}', {
        params: { path: { event_id: eventId } },
        body: { description: 'Molière, in a new staging.' },
      }),
    );
    expect(edited.description).toBe('Molière, in a new staging.');
  });

  it('adds, lists and edits price categories', async () => {
    const added = await orThrow(
      api.POST('/public/offers/v1/events/{event_id}/price_categories', {
        params: { path: { event_id: eventId } },
        body: { priceCategories: [{ label: 'Standing, under 26', price: 800, idAtProvider: 'standing' }] },
      }),
    );
    expect(added.priceCategories).toMatchObject([{ label: 'Standing, under 26', price: 800 }]);
    const listed = await orThrow(
      api.GET('/public/offers/v1/events/{event_id}/price_categories', { params: { path: { event_id: eventId } } }),
    );
    expect(listed.priceCategories).toHaveLength(2);
    const edited = await orThrow(
      api.PATCH('/public/offers/v1/events/{event_id}/price_categories/{price_category_id}', {
        params: { path: { event_id: eventId, price_category_id: priceCategoryId } },
        body: { price: 1800 },
      }),
    );
    expect(edited).toMatchObject({ id: priceCategoryId, price: 1800 });
  });

  it('adds, lists and edits dates, and lists the bookings of the event', async () => {
    const added = await orThrow(
      api.POST('/public/offers/v1/events/{event_id}/dates', {
        params: { path: { event_id: eventId } },
        body: {
          dates: [
            {
              beginningDatetime: '2027-03-14T20:30:00+01:00',
              bookingLimitDatetime: '2027-03-14T18:00:00+01:00',
              priceCategoryId,
              quantity: 100,
            },
          ],
        },
      }),
    );
    dateId = added.dates[0].id;
    const listed = await orThrow(
      api.GET('/public/offers/v1/events/{event_id}/dates', { params: { path: { event_id: eventId } } }),
    );
    expect(listed.dates.map((date) => date.id)).toEqual([dateId]);
    const edited = await orThrow(
      api.PATCH('/public/offers/v1/events/{event_id}/dates/{stock_id}', {
        params: { path: { event_id: eventId, stock_id: dateId } },
        body: { quantity: 120 },
      }),
    );
    expect(edited).toMatchObject({ id: dateId, quantity: 120 });
    const booked = await sandboxBook(dateId, 2);
    const bookings = await orThrow(
      api.GET('/public/bookings/v1/bookings', { params: { query: { offerId: eventId, status: 'CONFIRMED' } } }),
    );
    expect(bookings.bookings).toMatchObject([{ quantity: 2 }]);
    expect(bookings.bookings.map((booking) => booking.id)).toEqual([booked.id]);
  });

  it('deletes a date', async () => {
    const { response } = await api.DELETE('/public/offers/v1/events/{event_id}/dates/{stock_id}', {
      params: { path: { event_id: eventId, stock_id: dateId } },
    });
    expect(response.status).toBe(204);
    const listed = await orThrow(
      api.GET('/public/offers/v1/events/{event_id}/dates', { params: { path: { event_id: eventId } } }),
    );
    expect(listed.dates).toEqual([]);
  });
});

describe('collective offers and the school-platform mocks', () => {
  async function aCollectiveOffer(name: string): Promise<number> {
    const created = await orThrow(
      api.POST('/v2/collective/offers/', {
        body: {
          venueId,
          name,
          description: 'Two hours in class with an actress and a playwright: the pupils write a short scene.',
          formats: ['Atelier de pratique'],
          domains: [15],
          students: ['COLLEGE5', 'COLLEGE4'],
          location: { type: 'SCHOOL' },
          startDatetime: '2027-05-11T14:00:00+02:00',
          endDatetime: '2027-05-11T16:00:00+02:00',
          bookingLimitDatetime: '2027-04-27T18:00:00+02:00',
          totalPrice: 240,
          numberOfTickets: 28,
          bookingEmails: ['schools@example.com'],
          contactEmail: 'schools@example.com',
          contactPhone: '+33199006328',
          educationalInstitution: '0751021C',
        },
      }),
    );
    expect(created.name).toBe(name);
    await server.runDueJobs();
    return created.id;
  }

  it('creates, reads, lists and edits an offer; the school books, cancels, and books again; it is used and reimbursed', async () => {
    const offerId = await aCollectiveOffer('Write your own scene');
    const read = await orThrow(
      api.GET('/v2/collective/offers/{offer_id}', { params: { path: { offer_id: offerId } } }),
    );
    expect(read.id).toBe(offerId);
    const listed = await orThrow(api.GET('/v2/collective/offers/', { params: { query: { venueId } } }));
    expect(listed.map((offer) => offer.id)).toContain(offerId);
    const edited = await orThrow(
      api.PATCH('/v2/collective/offers/{offer_id}', {
        params: { path: { offer_id: offerId } },
        body: { students: ['COLLEGE6', 'COLLEGE5', 'COLLEGE4'] },
      }),
    );
    expect(edited.students).toEqual(['COLLEGE6', 'COLLEGE5', 'COLLEGE4']);

    const booking = await orThrow(
      api.POST('/v2/collective/adage_mock/offer/{offer_id}/book', { params: { path: { offer_id: offerId } } }),
    );
    const bookingPath = { params: { path: { booking_id: booking.id } } };
    const statusOf = async () =>
      (await orThrow(api.GET('/v2/collective/offers/{offer_id}', { params: { path: { offer_id: offerId } } })))
        .offerStatus;
    expect(
      (await api.POST('/v2/collective/adage_mock/bookings/{booking_id}/confirm', bookingPath)).response.status,
    ).toBe(204);
    expect(await statusOf()).toBe('BOOKED');
    expect(
      (await api.POST('/v2/collective/adage_mock/bookings/{booking_id}/cancel', bookingPath)).response.status,
    ).toBe(204);
    expect(
      (await api.POST('/v2/collective/adage_mock/bookings/{booking_id}/pending', bookingPath)).response.status,
    ).toBe(204);
    expect(await statusOf()).toBe('PREBOOKED');
    expect(
      (await api.POST('/v2/collective/adage_mock/bookings/{booking_id}/confirm', bookingPath)).response.status,
    ).toBe(204);
    expect((await api.POST('/v2/collective/bookings/{booking_id}/use', bookingPath)).response.status).toBe(204);
    expect(await statusOf()).toBe('ENDED');
    expect(
      (await api.POST('/v2/collective/adage_mock/bookings/{booking_id}/reimburse', bookingPath)).response.status,
    ).toBe(204);
    expect(await statusOf()).toBe('REIMBURSED');
    const archived = await api.POST('/v2/collective/offers/archive', { body: { ids: [offerId] } });
    expect(archived.response.status).toBe(204);
    expect(await statusOf()).toBe('ARCHIVED');
  });

  it('cancels a confirmed booking as the provider', async () => {
    const offerId = await aCollectiveOffer('A scene of our own');
    const booking = await orThrow(
      api.POST('/v2/collective/adage_mock/offer/{offer_id}/book', { params: { path: { offer_id: offerId } } }),
    );
    const bookingPath = { params: { path: { booking_id: booking.id } } };
    expect(
      (await api.POST('/v2/collective/adage_mock/bookings/{booking_id}/confirm', bookingPath)).response.status,
    ).toBe(204);
    expect((await api.PATCH('/v2/collective/bookings/{booking_id}', bookingPath)).response.status).toBe(204);
    const read = await orThrow(
      api.GET('/v2/collective/offers/{offer_id}', { params: { path: { offer_id: offerId } } }),
    );
    expect(read.offerStatus).toBe('CANCELLED');
  });
});

describe('typed errors', () => {
  it('types a 422 as the list of fields refused, and writes nothing', async () => {
    const result = await api.POST('/public/offers/v1/events/{event_id}/price_categories', {
      params: { path: { event_id: 999_999 } },
      body: { priceCategories: [{ label: 'Free', price: -1 }] },
    });
    expect(result.response.status).toBe(422);
    const refused = failure(result);
    expect(refused?.kind).toBe('validation');
    if (refused?.kind !== 'validation') return;
    expect(refused.errors.map((error) => [error.loc, error.type])).toEqual([
      [['priceCategories', '0', 'price'], 'greater_than_equal'],
    ]);
  });

  it('types a 404 as a refusal with its sentences, and orThrow throws it', async () => {
    const call = api.GET('/public/offers/v1/events/{event_id}', { params: { path: { event_id: 999_999 } } });
    await expect(orThrow(call)).rejects.toMatchObject({
      name: 'ProviderApiError',
      status: 404,
      failure: { kind: 'refusal', status: 404, messages: [expect.any(String)], retryAfterSeconds: null },
    });
  });

  it('types a 400 as the business rule refused, by field', async () => {
    const result = await api.POST('/public/offers/v1/events', {
      body: {
        location: { type: 'physical', venueId },
        name: 'Meet the author',
        categoryRelatedFields: { category: 'CONFERENCE' },
        accessibility: theatreAccessibility,
        hasTicket: true,
        bookingContact: 'billetterie@example.com',
      },
    });
    expect(failure(result)).toEqual({
      kind: 'business',
      status: 400,
      fields: { hasTicket: ['Tickets of the category CONFERENCE cannot be withdrawn through a ticketing system'] },
    });
  });
});

it('has called every operation of the API', () => {
  expect([...called].sort()).toEqual([...allOperations].sort());
  expect(allOperations).toHaveLength(55);
});

import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { COLLECTIVE_LIMITS, INSTITUTIONS_PER_SEARCH } from '../../graphql/collective/limits.js';
import * as limits from '../../graphql/offers/limits.js';
import { URL_MAX_LENGTH } from '../../graphql/providers/limits.js';
import { STREET_MAX_LENGTH } from '../../graphql/providers/limits.js';
import { PAGE_SIZE_MAX } from '../../graphql/shared/pagination.js';
import type { ApiClient } from '../support/api.js';
import { graphqlAs } from '../support/builders.js';
import { aCollectiveOfferBody, anEventBody, aProductBody, useOfferWorld } from '../support/offerWorld.js';

/**
 * One validation policy: a limit broken through REST and through /graphql is refused the same
 * way, the REST 422 entries equal to the /graphql error's `extensions.issues`. The rules run
 * before anything is read, so the ids named need not exist.
 */

type Json = Record<string, unknown>;

interface Refusal {
  /** The REST call, by the typed client. */
  rest: (api: ApiClient) => Promise<{ status: number; body: unknown }>;
  /** The same input to the graph. */
  graph: { query: string; variables: Json };
  /** Where the one issue is. */
  loc: string[];
}

const EVENT = 7;
const DATE = 8;
const long = (length: number) => 'x'.repeat(length);
const nul = 'a\u0000b';

describe('one validation policy: REST and /graphql refuse the same input the same way', () => {
  const world = useOfferWorld();

  const venueId = () => world.sandbox.venues[0].id;
  const anEvent = (overrides: Json = {}): Json => anEventBody(venueId(), overrides);
  const aProduct = (overrides: Json = {}): Json => aProductBody(venueId(), overrides);
  const aCollectiveOffer = (overrides: Json = {}): Json => aCollectiveOfferBody(venueId(), overrides);
  const aDate = (overrides: Json = {}): Json => ({
    beginningDatetime: '2027-03-14T20:30:00.000Z',
    bookingLimitDatetime: '2027-03-14T18:00:00.000Z',
    priceCategoryId: 3,
    quantity: 100,
    ...overrides,
  });
  const aBulkProduct = (overrides: Json = {}): Json => ({ ean: '9782070368228', stock: { price: 900 }, ...overrides });
  const anAddress = (overrides: Json = {}): Json => ({
    street: '12 Rue de Rivoli',
    city: 'Paris',
    postalCode: '75004',
    ...overrides,
  });

  const createEvent = (input: Json, loc: string[]): Refusal => ({
    rest: (api) => api.call('PostEventOffer', { body: input }),
    graph: {
      query: 'mutation ($input: EventCreateInput!) { createEvent(input: $input) { id } }',
      variables: { input },
    },
    loc,
  });
  const editEvent = (input: Json, loc: string[]): Refusal => ({
    rest: (api) => api.call('EditEvent', { params: { event_id: EVENT }, body: input }),
    graph: {
      query: 'mutation ($id: Int!, $input: EventEditInput!) { editEvent(id: $id, input: $input) { id } }',
      variables: { id: EVENT, input },
    },
    loc,
  });
  const createProduct = (input: Json, loc: string[]): Refusal => ({
    rest: (api) => api.call('PostProductOffer', { body: input }),
    graph: {
      query: 'mutation ($input: ProductCreateInput!) { createProduct(input: $input) { id } }',
      variables: { input },
    },
    loc,
  });
  const editProduct = (input: Json, loc: string[]): Refusal => ({
    rest: (api) => api.call('EditProduct', { body: { offerId: EVENT, ...input } }),
    graph: {
      query: 'mutation ($id: Int!, $input: ProductEditInput!) { editProduct(id: $id, input: $input) { id } }',
      variables: { id: EVENT, input },
    },
    loc,
  });
  const importByEan = (products: Json[], loc: string[]): Refusal => {
    const input = { location: { type: 'physical', venueId: venueId() }, products };
    return {
      rest: (api) => api.call('PostProductOfferByEan', { body: input }),
      graph: {
        query: 'mutation ($input: ProductsByEanInput!) { importProductsByEan(input: $input) { id } }',
        variables: { input },
      },
      loc,
    };
  };
  const createPriceCategories = (priceCategories: Json[], loc: string[]): Refusal => ({
    rest: (api) => api.call('PostEventPriceCategories', { params: { event_id: EVENT }, body: { priceCategories } }),
    graph: {
      query:
        'mutation ($eventId: Int!, $priceCategories: [PriceCategoryCreationInput!]!) { createEventPriceCategories(eventId: $eventId, priceCategories: $priceCategories) { id } }',
      variables: { eventId: EVENT, priceCategories },
    },
    loc,
  });
  const editPriceCategory = (input: Json, loc: string[]): Refusal => ({
    rest: (api) =>
      api.call('PatchEventPriceCategory', { params: { event_id: EVENT, price_category_id: DATE }, body: input }),
    graph: {
      query:
        'mutation ($eventId: Int!, $id: Int!, $input: PriceCategoryEditionInput!) { updateEventPriceCategory(eventId: $eventId, priceCategoryId: $id, input: $input) { id } }',
      variables: { eventId: EVENT, id: DATE, input },
    },
    loc,
  });
  const createDates = (dates: Json[], loc: string[]): Refusal => ({
    rest: (api) => api.call('PostEventStocks', { params: { event_id: EVENT }, body: { dates } }),
    graph: {
      query:
        'mutation ($eventId: Int!, $dates: [EventDateCreationInput!]!) { createEventDates(eventId: $eventId, dates: $dates) { id } }',
      variables: { eventId: EVENT, dates },
    },
    loc,
  });
  const editDate = (input: Json, loc: string[]): Refusal => ({
    rest: (api) => api.call('PatchEventStock', { params: { event_id: EVENT, stock_id: DATE }, body: input }),
    graph: {
      query:
        'mutation ($eventId: Int!, $id: Int!, $input: EventDateEditionInput!) { updateEventDate(eventId: $eventId, stockId: $id, input: $input) { id } }',
      variables: { eventId: EVENT, id: DATE, input },
    },
    loc,
  });
  const listEvents = (query: Record<string, string | number>, variables: Json, loc: string[]): Refusal => ({
    rest: (api) => api.call('GetEvents', { query }),
    graph: {
      query: 'query ($ids: [String!], $page: PageInput) { events(idsAtProvider: $ids, page: $page) { id } }',
      variables,
    },
    loc,
  });
  const eanAvailability = (eans: string[], loc: string[]): Refusal => ({
    rest: (api) => api.call('CheckEansAvailability', { query: { eans: eans.join(',') } }),
    graph: { query: 'query ($eans: [String!]!) { eanAvailability(eans: $eans) { available } }', variables: { eans } },
    loc,
  });
  const createCollectiveOffer = (input: Json, loc: string[]): Refusal => ({
    rest: (api) => api.call('PostCollectiveOfferPublic', { body: input }),
    graph: {
      query: 'mutation ($input: CollectiveOfferInput!) { createCollectiveOffer(input: $input) { id } }',
      variables: { input },
    },
    loc,
  });
  const editCollectiveOffer = (input: Json, loc: string[]): Refusal => ({
    rest: (api) => api.call('PatchCollectiveOfferPublic', { params: { offer_id: EVENT }, body: input }),
    graph: {
      query:
        'mutation ($id: Int!, $input: CollectiveOfferInput!) { editCollectiveOffer(id: $id, input: $input) { id } }',
      variables: { id: EVENT, input },
    },
    loc,
  });
  const archive = (ids: number[], loc: string[]): Refusal => ({
    rest: (api) => api.call('ArchiveCollectiveOffers', { body: { ids } }),
    graph: { query: 'mutation ($ids: [Int!]!) { archiveCollectiveOffers(ids: $ids) }', variables: { ids } },
    loc,
  });
  const institutions = (query: Record<string, string | number>, variables: Json, loc: string[]): Refusal => ({
    rest: (api) => api.call('ListEducationalInstitutions', { query }),
    graph: {
      query:
        'query ($filter: InstitutionFilter, $limit: Int! = 20) { educationalInstitutions(filter: $filter, limit: $limit) { id } }',
      variables,
    },
    loc,
  });
  const updateProvider = (input: Json, loc: string[]): Refusal => ({
    rest: (api) => api.call('UpdateProvider', { body: input }),
    graph: {
      query: 'mutation ($input: ExternalUrlsInput!) { updateProvider(input: $input) { id } }',
      variables: { input },
    },
    loc,
  });
  const createAddress = (input: Json, loc: string[]): Refusal => ({
    rest: (api) => api.call('CreateAddress', { body: input }),
    graph: { query: 'mutation ($input: AddressInput!) { createAddress(input: $input) { id } }', variables: { input } },
    loc,
  });
  const offererVenues = (siren: string, loc: string[]): Refusal => ({
    rest: (api) => api.call('GetOffererVenues', { query: { siren } }),
    graph: {
      query: 'query ($siren: String) { offererVenues(siren: $siren) { offerer { id } } }',
      variables: { siren },
    },
    loc,
  });
  const countermarkOperations = {
    use: 'ValidateBookingByToken',
    keep: 'CancelBookingValidationByToken',
    cancel: 'CancelBookingByToken',
  } as const;
  const countermark = (token: string, action: keyof typeof countermarkOperations): Refusal => ({
    rest: (api) => api.call(countermarkOperations[action], { params: { token } }),
    graph: {
      query: `mutation ($token: String!) { ${action}Booking(token: $token) { id } }`,
      variables: { token },
    },
    loc: ['token'],
  });
  const tokenLookup = (token: string): Refusal => ({
    rest: (api) => api.call('GetBookingByToken', { params: { token } }),
    graph: { query: 'query ($token: String!) { bookingByToken(token: $token) { id } }', variables: { token } },
    loc: ['token'],
  });

  const refusals: [string, () => Refusal][] = [
    // Individual offers
    ['a new offer’s name', () => createEvent(anEvent({ name: long(limits.OFFER_NAME_MAX_LENGTH + 1) }), ['name'])],
    ['NUL in a name', () => createEvent(anEvent({ name: nul }), ['name'])],
    ['an edited offer’s name', () => editEvent({ name: long(limits.EDITED_OFFER_NAME_MAX_LENGTH + 1) }, ['name'])],
    [
      'a description',
      () => createEvent(anEvent({ description: long(limits.OFFER_TEXT_MAX_LENGTH + 1) }), ['description']),
    ],
    ['a booking e-mail’s form', () => createEvent(anEvent({ bookingEmail: 'not an e-mail' }), ['bookingEmail'])],
    [
      'a booking contact’s length',
      () =>
        createEvent(anEvent({ bookingContact: `${long(limits.EMAIL_MAX_LENGTH)}@example.com` }), ['bookingContact']),
    ],
    [
      'an offer’s idAtProvider',
      () => createEvent(anEvent({ idAtProvider: long(limits.ID_AT_PROVIDER_MAX_LENGTH + 1) }), ['idAtProvider']),
    ],
    [
      'an image credit',
      () =>
        createEvent(anEvent({ image: { file: 'AAAA', credit: long(limits.IMAGE_CREDIT_MAX_LENGTH + 1) } }), [
          'image',
          'credit',
        ]),
    ],
    [
      'an address label',
      () =>
        createEvent(
          anEvent({
            location: {
              type: 'address',
              venueId: venueId(),
              addressId: 1,
              addressLabel: long(limits.ADDRESS_LABEL_MAX_LENGTH + 1),
            },
          }),
          ['location', 'addressLabel'],
        ),
    ],
    [
      'a ticket office URL',
      () =>
        createEvent(anEvent({ externalTicketOfficeUrl: `https://example.com/${long(URL_MAX_LENGTH)}` }), [
          'externalTicketOfficeUrl',
        ]),
    ],
    [
      'a category text field',
      () =>
        createEvent(
          anEvent({
            categoryRelatedFields: {
              category: 'CONCERT',
              musicType: 'ROCK',
              performer: long(limits.CATEGORY_FIELD_MAX_LENGTH + 1),
            },
          }),
          ['categoryRelatedFields', 'performer'],
        ),
    ],
    [
      'the EAN pattern of a category field',
      () =>
        createProduct(aProduct({ categoryRelatedFields: { category: 'LOCATION_INSTRUMENT', ean: '12345' } }), [
          'categoryRelatedFields',
          'ean',
        ]),
    ],
    [
      'price categories per event creation',
      () =>
        createEvent(
          anEvent({
            priceCategories: Array.from({ length: limits.PRICE_CATEGORIES_MAX + 1 }, (_, index) => ({
              label: `C${index}`,
              price: 100,
            })),
          }),
          ['priceCategories'],
        ),
    ],
    [
      'a product stock’s price',
      () => createProduct(aProduct({ stock: { price: limits.PRICE_MAX_CENTS + 1 } }), ['stock', 'price']),
    ],
    [
      'a new product stock’s quantity',
      () => createProduct(aProduct({ stock: { price: 10, quantity: 0 } }), ['stock', 'quantity']),
    ],
    ['an edited product’s name', () => editProduct({ name: long(limits.EDITED_OFFER_NAME_MAX_LENGTH + 1) }, ['name'])],
    // Price categories and dates
    [
      'a price category label',
      () =>
        createPriceCategories(
          [{ label: long(limits.PRICE_CATEGORY_LABEL_MAX_LENGTH + 1), price: 100 }],
          ['priceCategories', '0', 'label'],
        ),
    ],
    [
      'price categories per call',
      () =>
        createPriceCategories(
          Array.from({ length: limits.PRICE_CATEGORIES_MAX + 1 }, (_, index) => ({ label: `C${index}`, price: 100 })),
          ['priceCategories'],
        ),
    ],
    ['an edited price', () => editPriceCategory({ price: limits.PRICE_MAX_CENTS + 1 }, ['price'])],
    ['an edited label, null', () => editPriceCategory({ label: null }, ['label'])],
    [
      'a date’s quantity',
      () => createDates([aDate({ quantity: limits.DATE_QUANTITY_MAX + 1 })], ['dates', '0', 'quantity']),
    ],
    ['a new date’s quantity of 0', () => createDates([aDate({ quantity: 0 })], ['dates', '0', 'quantity'])],
    [
      'a date’s price category id',
      () => createDates([aDate({ priceCategoryId: 0 })], ['dates', '0', 'priceCategoryId']),
    ],
    [
      'dates per call',
      () =>
        createDates(
          Array.from({ length: limits.DATES_PER_CALL_MAX + 1 }, () => aDate()),
          ['dates'],
        ),
    ],
    [
      'an edited date’s idAtProvider',
      () => editDate({ idAtProvider: long(limits.ID_AT_PROVIDER_MAX_LENGTH + 1) }, ['idAtProvider']),
    ],
    // Lists and lookups
    [
      'identifiers at provider per filter',
      () => {
        const ids = Array.from({ length: limits.IDS_AT_PROVIDER_MAX + 1 }, (_, index) => `id-${index}`);
        return listEvents({ idsAtProvider: ids.join(',') }, { ids }, ['idsAtProvider']);
      },
    ],
    ['NUL in identifiers at provider', () => listEvents({ idsAtProvider: nul }, { ids: [nul] }, ['idsAtProvider'])],
    ['a page size', () => listEvents({ limit: PAGE_SIZE_MAX + 1 }, { page: { limit: PAGE_SIZE_MAX + 1 } }, ['limit'])],
    [
      'EANs per query',
      () =>
        eanAvailability(
          Array.from({ length: limits.EANS_PER_QUERY_MAX + 1 }, () => '9782070368228'),
          ['eans'],
        ),
    ],
    ['an EAN’s length', () => eanAvailability(['978207036822'], ['eans'])],
    [
      'products per bulk upsert',
      () =>
        importByEan(
          Array.from({ length: limits.PRODUCTS_BY_EAN_MAX + 1 }, () => aBulkProduct()),
          ['products'],
        ),
    ],
    ['a bulk EAN’s length', () => importByEan([aBulkProduct({ ean: '978207036822' })], ['products', '0', 'ean'])],
    ['a bulk stock’s price', () => importByEan([aBulkProduct({ stock: {} })], ['products', '0', 'stock', 'price'])],
    // Collective offers
    [
      'a collective offer’s name',
      () => createCollectiveOffer(aCollectiveOffer({ name: long(COLLECTIVE_LIMITS.name + 1) }), ['name']),
    ],
    ['NUL in a collective offer’s name', () => createCollectiveOffer(aCollectiveOffer({ name: nul }), ['name'])],
    [
      'a contact phone',
      () => createCollectiveOffer(aCollectiveOffer({ contactPhone: '0'.repeat(60) }), ['contactPhone']),
    ],
    [
      'a contact e-mail',
      () => createCollectiveOffer(aCollectiveOffer({ contactEmail: 'not an e-mail' }), ['contactEmail']),
    ],
    [
      'booking e-mails per offer',
      () =>
        createCollectiveOffer(
          aCollectiveOffer({
            bookingEmails: Array.from(
              { length: COLLECTIVE_LIMITS.listItems + 1 },
              (_, index) => `b${index}@example.com`,
            ),
          }),
          ['bookingEmails'],
        ),
    ],
    ['no format', () => createCollectiveOffer(aCollectiveOffer({ formats: [] }), ['formats'])],
    ['an unknown format', () => createCollectiveOffer(aCollectiveOffer({ formats: ['Rodeo'] }), ['formats', '0'])],
    [
      'a student level',
      () =>
        createCollectiveOffer(aCollectiveOffer({ students: [long(COLLECTIVE_LIMITS.studentLevel + 1)] }), [
          'students',
          '0',
        ]),
    ],
    [
      'a total price',
      () =>
        createCollectiveOffer(aCollectiveOffer({ totalPrice: COLLECTIVE_LIMITS.totalPriceEuros + 1 }), ['totalPrice']),
    ],
    [
      'a number of tickets',
      () => createCollectiveOffer(aCollectiveOffer({ numberOfTickets: -1 }), ['numberOfTickets']),
    ],
    [
      'a naive datetime',
      () => createCollectiveOffer(aCollectiveOffer({ startDatetime: '2027-01-15T09:00:00' }), ['startDatetime']),
    ],
    [
      'a location comment',
      () =>
        createCollectiveOffer(
          aCollectiveOffer({
            location: { type: 'TO_BE_DEFINED', comment: long(COLLECTIVE_LIMITS.locationComment + 1) },
          }),
          ['location', 'comment'],
        ),
    ],
    [
      'an intervention area',
      () =>
        editCollectiveOffer({ interventionArea: [long(COLLECTIVE_LIMITS.interventionAreaItem + 1)] }, [
          'interventionArea',
          '0',
        ]),
    ],
    ['an empty description', () => editCollectiveOffer({ description: '' }, ['description'])],
    [
      'offers archived per call',
      () =>
        archive(
          Array.from({ length: COLLECTIVE_LIMITS.archivedPerCall + 1 }, (_, index) => index + 1),
          ['ids'],
        ),
    ],
    ['an archive of nothing', () => archive([], ['ids'])],
    ['an institution name filter', () => institutions({ name: long(201) }, { filter: { name: long(201) } }, ['name'])],
    [
      'institutions per search',
      () =>
        institutions({ limit: INSTITUTIONS_PER_SEARCH.max + 1 }, { limit: INSTITUTIONS_PER_SEARCH.max + 1 }, ['limit']),
    ],
    // Providers and addresses
    ['a ticketing URL', () => updateProvider({ bookingUrl: 'ftp://example.com/book' }, ['bookingUrl'])],
    [
      'a ticketing URL’s length',
      () => updateProvider({ cancelUrl: `https://example.com/${long(URL_MAX_LENGTH)}` }, ['cancelUrl']),
    ],
    ['a street', () => createAddress(anAddress({ street: long(STREET_MAX_LENGTH + 1) }), ['street'])],
    ['a postal code', () => createAddress(anAddress({ postalCode: '99000' }), ['postalCode'])],
    ['a latitude', () => createAddress(anAddress({ latitude: 91, longitude: 2 }), ['latitude'])],
    ['a latitude without longitude', () => createAddress(anAddress({ latitude: 48.85 }), ['longitude'])],
    ['a SIREN', () => offererVenues('12345', ['siren'])],
    // Countermarks
    ['a countermark looked up', () => tokenLookup(long(25))],
    ['a countermark validated', () => countermark(long(25), 'use')],
    ['a countermark whose validation is undone', () => countermark(long(25), 'keep')],
    ['a countermark cancelled', () => countermark(long(25), 'cancel')],
    // Institutions
    ['an institution UAI filter', () => institutions({ uai: long(9) }, { filter: { uai: long(9) } }, ['uai'])],
    ['an institution city filter holding NUL', () => institutions({ city: nul }, { filter: { city: nul } }, ['city'])],
  ];

  for (const [limit, refusal] of refusals) {
    it(`refuses ${limit} with the same 422 entries`, async () => {
      const { rest, graph, loc } = refusal();
      const restAnswer = await rest(world.api);
      expect(restAnswer.status, JSON.stringify(restAnswer.body)).toBe(422);
      expect(restAnswer.body).toEqual([expect.objectContaining({ loc })]);

      const graphAnswer = await graphqlAs(world.testApp, world.sandbox.apiKey, graph.query, graph.variables);
      const error = graphAnswer.body.errors?.[0];
      expect(error?.extensions?.code, JSON.stringify(graphAnswer.body)).toBe('VALIDATION_FAILED');
      expect(error.extensions.issues).toEqual(restAnswer.body);
    });
  }

  it('refuses an image credit the same way through the upload and through setOfferImage', async () => {
    const credit = long(limits.IMAGE_CREDIT_MAX_LENGTH + 1);
    // A multipart upload, which the typed client does not send.
    const restAnswer = await request(world.testApp.app)
      .post(`/public/offers/v1/${EVENT}/image`)
      .set('Authorization', `Bearer ${world.sandbox.apiKey}`)
      .field('credit', credit)
      .attach('file', Buffer.from('not checked before the credit'), 'cover.png');
    expect(restAnswer.status).toBe(422);
    expect(restAnswer.body).toEqual([expect.objectContaining({ loc: ['credit'] })]);
    const graphAnswer = await graphqlAs(
      world.testApp,
      world.sandbox.apiKey,
      'mutation ($offerId: Int!, $file: String!, $credit: String) { setOfferImage(offerId: $offerId, file: $file, credit: $credit) { id } }',
      { offerId: EVENT, file: 'AAAA', credit },
    );
    expect(graphAnswer.body.errors?.[0]?.extensions?.issues).toEqual(restAnswer.body);
  });
});

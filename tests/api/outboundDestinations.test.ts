import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderMessage } from '../../graphql/bookings/ProviderMessage.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { HTTPS_ONLY_MESSAGE } from '../../platform/outbound/index.js';
import { aBeneficiary, aBookableDate, drainJobs, graphqlAs } from '../support/builders.js';
import { useOfferWorld } from '../support/offerWorld.js';
import { Receiver } from '../support/receiver.js';
import {
  nameOfRefused,
  REFUSED_ADDRESSES,
  resolvingToRefusedAddresses,
  scriptedResolver,
} from '../support/refusedAddresses.js';

const OUTSIDE = 'The platform does not call addresses outside the public Internet: ';
/** A public address (example.org's), for names that must pass the check when saved. */
const PUBLIC = '93.184.215.14';

const article = (kind: string) => (kind === 'unspecified' ? 'an' : 'a');

describe('URLs the platform calls, saved in production: https on the default port, public addresses only', () => {
  const names: Record<string, string[][]> = {
    ...resolvingToRefusedAddresses(),
    'tickets.example.org': [[PUBLIC]],
    'dual.example.org': [[PUBLIC, '2606:4700::6812:1']],
  };
  const world = useOfferWorld({
    env: { APP_ENV: 'production' },
    outbound: { resolve: scriptedResolver(names).resolve },
  });

  const patchProvider = (body: unknown) => world.api.call('UpdateProvider', { body });
  const patchVenue = (venueId: number, body: unknown) =>
    world.api.call('UpdateVenueExternalUrls', { params: { venue_id: venueId }, body });
  const stored = async () => {
    const provider = await world.em().findOneOrFail(Provider, world.sandbox.provider.id);
    return [provider.bookingUrl, provider.cancelUrl, provider.notificationUrl];
  };

  it('refuses an address of every refused range written in the URL: 400 naming the field, nothing saved', async () => {
    const before = await stored();
    for (const [kind, addresses] of Object.entries(REFUSED_ADDRESSES)) {
      for (const address of addresses) {
        if (address.includes('%')) continue; // a zone index is never part of a URL
        const url = new URL(`https://${address.includes(':') ? `[${address}]` : address}/notify`);
        const response = await patchProvider({ notificationUrl: url.href });
        const written = url.hostname.replace(/^\[|\]$/g, '');
        expect([response.status, response.body], address).toEqual([
          400,
          { notificationUrl: [`${OUTSIDE}${written} is ${article(kind)} ${kind} address`] },
        ]);
      }
    }
    expect(await stored()).toEqual(before);
  });

  it('refuses a name resolving to an address of every refused range', async () => {
    for (const [kind, addresses] of Object.entries(REFUSED_ADDRESSES)) {
      for (const [index, address] of addresses.entries()) {
        const name = nameOfRefused(kind, index);
        const response = await patchProvider({ notificationUrl: `https://${name}/notify` });
        expect([response.status, response.body], name).toEqual([
          400,
          { notificationUrl: [`${OUTSIDE}${name} resolves to ${address}, ${article(kind)} ${kind} address`] },
        ]);
      }
    }
  });

  it('refuses http and other ports than https’s own, naming each field refused', async () => {
    const response = await patchProvider({
      bookingUrl: 'http://tickets.example.org/book',
      cancelUrl: 'https://tickets.example.org:8443/cancel',
      notificationUrl: 'https://tickets.example.org/notify',
    });
    expect([response.status, response.body]).toEqual([
      400,
      { bookingUrl: [HTTPS_ONLY_MESSAGE], cancelUrl: [HTTPS_ONLY_MESSAGE] },
    ]);
    const venue = world.sandbox.venues[1];
    const refused = await patchVenue(venue.id, {
      bookingUrl: 'https://tickets.example.org/book',
      cancelUrl: 'https://tickets.example.org/cancel',
      notificationUrl: 'https://169.254.169.254/latest/meta-data/',
    });
    expect([refused.status, refused.body]).toEqual([
      400,
      { notificationUrl: [`${OUTSIDE}169.254.169.254 is a link-local address`] },
    ]);
    const link = await world
      .em()
      .findOneOrFail(VenueProvider, { venue: venue.id, provider: world.sandbox.provider.id });
    expect([link.bookingUrl, link.cancelUrl, link.notificationUrl]).toEqual([null, null, null]);
  });

  it('saves https URLs of public names, the default port written or not', async () => {
    const response = await patchProvider({
      bookingUrl: 'https://tickets.example.org:443/book',
      cancelUrl: 'https://dual.example.org/cancel',
      notificationUrl: 'https://tickets.example.org/notify',
    });
    expect(response.status).toBe(200);
    expect(await stored()).toEqual([
      'https://tickets.example.org:443/book',
      'https://dual.example.org/cancel',
      'https://tickets.example.org/notify',
    ]);
    const venue = world.sandbox.venues[0];
    expect((await patchVenue(venue.id, { notificationUrl: 'https://tickets.example.org/venue' })).status).toBe(204);
  });
});

describe('outside production: http and local receivers, unless OUTBOUND_ALLOW_PRIVATE=false', () => {
  const world = useOfferWorld();

  it('saves a receiver on 127.0.0.1 over http, on any port', async () => {
    const response = await world.api.call('UpdateProvider', { body: { notificationUrl: 'http://127.0.0.1:8080/n' } });
    expect([response.status, response.body.notificationUrl]).toEqual([200, 'http://127.0.0.1:8080/n']);
  });
});

describe('calls checked where they connect (OUTBOUND_ALLOW_PRIVATE=false)', () => {
  let receiver: Receiver;
  const { resolve } = scriptedResolver({
    // The local receiver stands in for a public host: 127.0.0.1 is allowed below.
    'tickets.example.org': [['127.0.0.1']],
    // Public when saved; the cloud metadata service's address when called (DNS rebinding).
    'rebinding.example.org': [[PUBLIC], ['169.254.169.254']],
    // Checked twice when saved (booking and cancellation URLs), called once.
    'ticketing.example.org': [[PUBLIC], [PUBLIC], ['10.0.0.1']],
  });
  const world = useOfferWorld({
    env: { OUTBOUND_ALLOW_PRIVATE: 'false' },
    outbound: { resolve, allowedAddresses: ['127.0.0.1'] },
  });
  let internalKey: string;

  beforeAll(async () => {
    receiver = await Receiver.start();
    receiver.secret = world.sandbox.messagingSecret;
    const fork = world.em();
    internalKey = issueApiKey(fork, world.testApp.clock, { env: 'test', internal: true, label: 'tools' }).key;
    await fork.flush();
  });
  afterAll(() => receiver.close());
  beforeEach(() => receiver.reset());

  const port = () => new URL(receiver.origin).port;
  const BOOK = `mutation Book($input: SandboxBookingInput!) { sandboxBook(input: $input) { id } }`;
  const DELIVERIES = `query Deliveries($id: Int!) {
    bookingMessages(bookingId: $id) { id status attempts lastStatusCode lastError }
  }`;

  async function bookADate(hasTicket: boolean) {
    const owner = { providerId: world.sandbox.provider.id, venueId: world.sandbox.venues[0].id };
    const { stock } = await aBookableDate(world.em(), world.testApp.clock, owner, { offer: { hasTicket } });
    const beneficiary = await aBeneficiary(world.testApp, world.sandbox.apiKey);
    const response = await graphqlAs(world.testApp, world.sandbox.apiKey, BOOK, {
      input: { stockId: stock.id, quantity: 1, beneficiaryId: beneficiary.id },
    });
    return response.body as { data: { sandboxBook: { id: number } } | null; errors?: { message: string }[] };
  }
  async function deliveries(bookingId: number) {
    const response = await graphqlAs(world.testApp, internalKey, DELIVERIES, { id: bookingId });
    return response.body.data.bookingMessages as Record<string, unknown>[];
  }

  it('refuses, when it is called, a notification URL whose name now resolves to the metadata address', async () => {
    const url = `http://rebinding.example.org:${port()}/notify`;
    expect((await world.api.call('UpdateProvider', { body: { notificationUrl: url } })).status).toBe(200);
    const { data } = await bookADate(false);

    await drainJobs(world.testApp);

    const lastError =
      'refused: rebinding.example.org resolves to 169.254.169.254, a link-local address (the platform calls only public addresses)';
    const [delivery] = await deliveries(data!.sandboxBook.id);
    expect(delivery).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: null, lastError });
    expect(receiver.requests).toEqual([]);
    const message = await world.em().findOneOrFail(ProviderMessage, delivery.id as number);
    expect(message.lastError).toBe(lastError);
  });

  it('delivers to a name whose address is allowed, with the message id', async () => {
    const url = `http://tickets.example.org:${port()}/notify`;
    expect((await world.api.call('UpdateProvider', { body: { notificationUrl: url } })).status).toBe(200);
    const { data } = await bookADate(false);

    await drainJobs(world.testApp);

    const [delivery] = await deliveries(data!.sandboxBook.id);
    expect(delivery).toMatchObject({ status: 'SENT', attempts: 1, lastStatusCode: 200, lastError: null });
    expect(receiver.requests.map((request) => [request.path, request.signatureValid])).toEqual([['/notify', true]]);
    expect(receiver.requests[0].headers['passculture-message-id']).toBe(String(delivery.id));
  });

  it('answers a booking whose ticketing URL now resolves to a private address with a 400 that says why', async () => {
    const urls = {
      bookingUrl: `http://ticketing.example.org:${port()}/booking`,
      cancelUrl: `http://ticketing.example.org:${port()}/cancel`,
    };
    expect((await world.api.call('UpdateProvider', { body: urls })).status).toBe(200);

    const answer = await bookADate(true);

    expect(answer.data).toBeNull();
    expect(answer.errors?.map((error) => error.message)).toEqual([
      'The ticketing system did not confirm the booking (its address is refused: ticketing.example.org resolves to 10.0.0.1, a private address)',
    ]);
    expect(receiver.requests).toEqual([]);
  });
});

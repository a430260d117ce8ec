import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import request from 'supertest';
import { SEND_MESSAGE_JOB } from '../../graphql/bookings/messages.js';
import { ProviderMessage } from '../../graphql/bookings/ProviderMessage.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { ApiKey } from '../../graphql/providers/ApiKey.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { Job } from '../../platform/jobs/Job.js';
import { enqueue } from '../../platform/jobs/outbox.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { aBeneficiary, aBookableDate, drainJobs, graphqlAs } from '../support/builders.js';
import { collectiveWorld } from '../support/collectiveWorld.js';
import { anEvent, aProvider } from '../support/fixtures.js';
import { aSandboxWithReceiver, type Receiver } from '../support/receiver.js';
import type { CreatedSandbox } from '../../graphql/providers/sandbox.js';

type Json = Record<string, unknown>;

/** Every operation the back office adds, each as a provider key would try it. */
const STAFF_OPERATIONS: [name: string, query: string][] = [
  ['providers', '{ providers { id } }'],
  ['provider.apiKeys', '{ provider { apiKeys { id } } }'],
  ['provider.offerers', '{ provider { offerers { id } } }'],
  ['provider.venueLinks', '{ provider { venueLinks { venueId } } }'],
  ['provider.canManageIndividualOffers', '{ provider { canManageIndividualOffers } }'],
  ['offersAwaitingReview', '{ offersAwaitingReview { id } }'],
  ['collectiveOffersAwaitingReview', '{ collectiveOffersAwaitingReview { id } }'],
  ['deliveries', '{ deliveries { id } }'],
  ['jobs', '{ jobs { id } }'],
  ['jobCounts', '{ jobCounts { type } }'],
  ['bookingMessages', '{ bookingMessages(bookingId: 1) { id } }'],
  ['reviewOffer', 'mutation { reviewOffer(offerId: 1, decision: "APPROVED") { offerId } }'],
  ['rejectOffer', 'mutation { rejectOffer(offerId: 1, reason: "No") { offerId } }'],
  ['reviewOffers', 'mutation { reviewOffers(offers: [{ offerId: 1 }], decision: "APPROVED") { offerId } }'],
  ['issueApiKey', 'mutation { issueApiKey(providerId: 1) { key } }'],
  ['revokeApiKey', 'mutation { revokeApiKey(id: 1) { id } }'],
  ['rotateMessagingSecret', 'mutation { rotateMessagingSecret(providerId: 1) { secret } }'],
  ['setProviderActive', 'mutation { setProviderActive(providerId: 1, isActive: false) { id } }'],
  ['setIndividualOfferRights', 'mutation { setIndividualOfferRights(providerId: 1, allowed: false) { id } }'],
  ['retryDelivery', 'mutation { retryDelivery(id: 1) { id } }'],
  ['retryJob', 'mutation { retryJob(id: 1) { id } }'],
  ['discardJob', 'mutation { discardJob(id: 1) { id } }'],
];

describe('The graph for the back office: internal keys only', () => {
  let testApp: TestApp;
  let sandbox: CreatedSandbox;
  let receiver: Receiver;
  let internalKey: string;
  const em = () => testApp.database.orm.em.fork();
  const staff = async (query: string, variables?: Json) => {
    const response = await graphqlAs(testApp, internalKey, query, variables);
    expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
    return response.body.data as Record<string, any>;
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    ({ sandbox, receiver } = await aSandboxWithReceiver(testApp));
    const fork = em();
    internalKey = issueApiKey(fork, testApp.clock, { env: 'test', internal: true, label: 'back office' }).key;
    await fork.flush();
  });
  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });
  beforeEach(() => receiver.reset());

  // Not in a provider's graph (decision 033): refused at validation, before anything runs.
  it.each(STAFF_OPERATIONS)(
    'refuses %s to a provider key (a validation error), changing nothing',
    async (_name, query) => {
      const secretBefore = (await em().findOneOrFail(Provider, sandbox.provider.id, { populate: ['messagingSecret'] }))
        .messagingSecret;
      const response = await graphqlAs(testApp, sandbox.apiKey, query);
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]?.extensions?.code, JSON.stringify(response.body)).toBe(
        'GRAPHQL_VALIDATION_FAILED',
      );
      const after = await em().findOneOrFail(Provider, sandbox.provider.id, { populate: ['messagingSecret'] });
      expect(after).toMatchObject({ isActive: true, canManageIndividualOffers: true, messagingSecret: secretBefore });
      expect(await em().count(ApiKey, { provider: sandbox.provider.id, revokedAt: { $ne: null } })).toBe(0);
    },
  );

  describe('review queue', () => {
    const pending = async (providerId: number, venueId: number, overrides: Partial<Offer> = {}) =>
      anEvent(em(), testApp.clock, { providerId, venueId }, { validation: 'PENDING', publishedAt: null, ...overrides });

    it('lists individual offers awaiting review, oldest first, by provider and category, with what was sent', async () => {
      const first = await pending(sandbox.provider.id, sandbox.venues[0].id, { name: 'First concert' });
      await pending(sandbox.provider.id, sandbox.venues[0].id, { validation: 'APPROVED' });
      const second = await pending(sandbox.provider.id, sandbox.venues[0].id, { name: 'Second show' });
      const QUEUE = `query Queue($providerId: Int, $category: String, $page: PageInput) {
        offersAwaitingReview(providerId: $providerId, category: $category, page: $page) {
          id name category status stockCount provider { id name } venue { id } image { url }
        }
      }`;
      const all = (await staff(QUEUE, { providerId: sandbox.provider.id })).offersAwaitingReview as Json[];
      expect(all.map((offer) => offer.id)).toEqual([first.id, second.id]);
      expect(all[0]).toMatchObject({
        name: 'First concert',
        status: 'PENDING',
        stockCount: 0,
        provider: { id: sandbox.provider.id, name: sandbox.provider.name },
        venue: { id: sandbox.venues[0].id },
        image: null,
      });
      const paged = (
        await staff(QUEUE, { providerId: sandbox.provider.id, page: { firstIndex: first.id + 1, limit: 1 } })
      ).offersAwaitingReview as Json[];
      expect(paged.map((offer) => offer.id)).toEqual([second.id]);
      const otherCategory = await staff(QUEUE, { providerId: sandbox.provider.id, category: 'NO_SUCH_CATEGORY' });
      expect(otherCategory.offersAwaitingReview).toEqual([]);
      const ofCategory = await staff(QUEUE, { providerId: sandbox.provider.id, category: first.category });
      expect((ofCategory.offersAwaitingReview as Json[]).length).toBe(2);
      await em().nativeUpdate(Offer, { id: { $in: [first.id, second.id] } }, { validation: 'APPROVED' });
    });

    it('rejects with a reason the provider reads, and approves several at once', async () => {
      const rejected = await pending(sandbox.provider.id, sandbox.venues[0].id);
      const approvedA = await pending(sandbox.provider.id, sandbox.venues[0].id);
      const approvedB = await pending(sandbox.provider.id, sandbox.venues[1].id);
      const reject = await staff(
        'mutation R($id: Int!) { rejectOffer(offerId: $id, reason: "The image shows a price") { decision reason } }',
        { id: rejected.id },
      );
      expect(reject.rejectOffer).toEqual({ decision: 'REJECTED', reason: 'The image shows a price' });
      const approve = await staff(
        'mutation A($offers: [OfferToReview!]!) { reviewOffers(offers: $offers, decision: "APPROVED") { offerId decision } }',
        { offers: [{ offerId: approvedA.id }, { offerId: approvedB.id }] },
      );
      expect(approve.reviewOffers).toEqual([
        { offerId: approvedA.id, decision: 'APPROVED' },
        { offerId: approvedB.id, decision: 'APPROVED' },
      ]);
      // The provider reads the status through the public API, and the reason on its offer in the graph.
      const event = await request(testApp.app)
        .get(`/public/offers/v1/events/${rejected.id}`)
        .set('Authorization', `Bearer ${sandbox.apiKey}`);
      expect(event.status).toBe(200);
      expect(event.body.status).toBe('REJECTED');
      const own = await graphqlAs(testApp, sandbox.apiKey, `{ offer(id: ${rejected.id}) { status validationReason } }`);
      expect(own.body.data.offer).toEqual({ status: 'REJECTED', validationReason: 'The image shows a price' });
      expect((await em().findOneOrFail(Offer, approvedB.id)).validation).toBe('APPROVED');
    });

    it('needs a reason to reject, and rolls back a batch with an unknown offer', async () => {
      const offer = await pending(sandbox.provider.id, sandbox.venues[0].id);
      const noReason = await graphqlAs(
        testApp,
        internalKey,
        `mutation { reviewOffers(offers: [{ offerId: ${offer.id} }], decision: "REJECTED") { offerId } }`,
      );
      expect(noReason.body.errors[0].extensions.code).toBe('BAD_REQUEST');
      const blank = await graphqlAs(
        testApp,
        internalKey,
        `mutation { rejectOffer(offerId: ${offer.id}, reason: " ") { offerId } }`,
      );
      expect(blank.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
      const batch = await graphqlAs(
        testApp,
        internalKey,
        `mutation { reviewOffers(offers: [{ offerId: ${offer.id} }, { offerId: 999999 }], decision: "APPROVED") { offerId } }`,
      );
      expect(batch.body.errors[0].extensions.code).toBe('NOT_FOUND');
      expect((await em().findOneOrFail(Offer, offer.id)).validation).toBe('PENDING');
      await em().nativeUpdate(Offer, offer.id, { validation: 'APPROVED' });
    });
  });

  describe('providers and keys', () => {
    it('finds providers by name (any case) and by SIREN, and shows offerers, venues and keys', async () => {
      const other = await aProvider(em(), testApp.clock, { name: 'Billetterie Lumière' });
      const byName = await staff('query S($s: String) { providers(search: $s) { id name } }', { s: 'lumière' });
      expect(byName.providers).toEqual([{ id: other.provider.id, name: 'Billetterie Lumière' }]);
      const bySiren = await staff('query S($s: String) { providers(search: $s) { id } }', { s: other.offerer.siren });
      expect(bySiren.providers).toEqual([{ id: other.provider.id }]);
      const page = await staff(
        `query P($id: Int!) { provider(id: $id) {
        id isActive canManageIndividualOffers notificationUrl
        offerers { id siren } venueLinks { venueId isActive } apiKeys { prefix revokedAt lastUsedAt }
      } }`,
        { id: sandbox.provider.id },
      );
      expect(page.provider).toMatchObject({
        isActive: true,
        canManageIndividualOffers: true,
        notificationUrl: receiver.url('/notify'),
        offerers: [{ id: sandbox.offerer.id, siren: sandbox.offerer.siren }],
      });
      expect(page.provider.venueLinks.map((link: Json) => link.venueId)).toEqual(
        sandbox.venues.map((venue) => venue.id),
      );
      expect(page.provider.apiKeys.length).toBeGreaterThan(0);
    });

    it('issues a key that works at once and records its use; a revoked key gets 401 at once', async () => {
      const issued = await staff(
        `mutation I($id: Int!) { issueApiKey(providerId: $id, label: "ticketing v2") { key apiKey { id prefix label lastUsedAt } } }`,
        { id: sandbox.provider.id },
      );
      const { key, apiKey } = issued.issueApiKey as { key: string; apiKey: Json };
      expect(key.startsWith(`${apiKey.prefix as string}_`)).toBe(true);
      expect(apiKey).toMatchObject({ label: 'ticketing v2', lastUsedAt: null });
      const provider = () =>
        request(testApp.app).get('/public/providers/v1/provider').set('Authorization', `Bearer ${key}`);
      expect((await provider()).status).toBe(200);
      expect((await em().findOneOrFail(ApiKey, apiKey.id as number)).lastUsedAt).toEqual(testApp.clock.now());
      const revoked = await staff('mutation R($id: Int!) { revokeApiKey(id: $id) { revokedAt } }', { id: apiKey.id });
      expect(revoked.revokeApiKey.revokedAt).not.toBeNull();
      expect((await provider()).status).toBe(401);
      const again = await graphqlAs(
        testApp,
        internalKey,
        `mutation { revokeApiKey(id: ${apiKey.id as number}) { id } }`,
      );
      expect(again.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    });

    it('rotates the messaging secret, shown once, and changes rights and the active flag', async () => {
      const other = await aProvider(em(), testApp.clock);
      const rotated = await staff('mutation S($id: Int!) { rotateMessagingSecret(providerId: $id) { secret } }', {
        id: other.provider.id,
      });
      const stored = await em().findOneOrFail(Provider, other.provider.id, { populate: ['messagingSecret'] });
      expect(stored.messagingSecret).toBe(rotated.rotateMessagingSecret.secret);
      await staff(`mutation { setIndividualOfferRights(providerId: ${other.provider.id}, allowed: false) { id } }`);
      await staff(`mutation { setProviderActive(providerId: ${other.provider.id}, isActive: false) { id } }`);
      expect(await em().findOneOrFail(Provider, other.provider.id)).toMatchObject({
        isActive: false,
        canManageIndividualOffers: false,
      });
      const refused = await request(testApp.app)
        .get('/public/providers/v1/provider')
        .set('Authorization', `Bearer ${other.apiKey}`);
      expect(refused.status).toBe(403);
    });
  });

  describe('deliveries and jobs', () => {
    it('shows a failing delivery with its next attempt, and retries it now', async () => {
      const { stock } = await aBookableDate(
        em(),
        testApp.clock,
        {
          providerId: sandbox.provider.id,
          venueId: sandbox.venues[0].id,
        },
        { offer: { hasTicket: false } },
      );
      const beneficiary = await aBeneficiary(testApp, sandbox.apiKey, {
        firstName: 'Inès',
        lastName: 'Retry',
        birthDate: '2007-02-01',
        postalCode: '75011',
      });
      receiver.answer('/notify', { status: 503, json: { error: 'down' } });
      const booked = await graphqlAs(
        testApp,
        sandbox.apiKey,
        'mutation B($input: SandboxBookingInput!) { sandboxBook(input: $input) { id } }',
        { input: { stockId: stock.id, quantity: 1, beneficiaryId: beneficiary.id } },
      );
      const bookingId = booked.body.data.sandboxBook.id as number;
      await drainJobs(testApp);
      const DELIVERIES = `query D($filter: DeliveryFilterInput) {
        deliveries(filter: $filter) { id action url status attempts lastStatusCode lastError nextAttemptAt providerId bookingId }
      }`;
      const [failing] = (await staff(DELIVERIES, { filter: { bookingId } })).deliveries as Json[];
      expect(failing).toMatchObject({
        action: 'BOOK',
        url: receiver.url('/notify'),
        status: 'PENDING',
        attempts: 1,
        lastStatusCode: 503,
        providerId: sandbox.provider.id,
        bookingId,
      });
      expect(new Date(failing.nextAttemptAt as string).getTime()).toBeGreaterThan(testApp.clock.now().getTime());
      receiver.answer('/notify', { status: 200, json: {} });
      const retried = await staff('mutation R($id: Int!) { retryDelivery(id: $id) { status nextAttemptAt } }', {
        id: failing.id,
      });
      expect(retried.retryDelivery).toEqual({ status: 'PENDING', nextAttemptAt: testApp.clock.now().toISOString() });
      await drainJobs(testApp);
      const [sent] = (await staff(DELIVERIES, { filter: { bookingId, status: 'SENT' } })).deliveries as Json[];
      expect(sent).toMatchObject({ id: failing.id, status: 'SENT', attempts: 2, nextAttemptAt: null });
      const again = await graphqlAs(
        testApp,
        internalKey,
        `mutation { retryDelivery(id: ${failing.id as number}) { id } }`,
      );
      expect(again.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    });

    it('gives a message that failed for good a new job', async () => {
      const fork = em();
      const message = fork.create(ProviderMessage, {
        provider: sandbox.provider.id,
        booking: null,
        kind: 'TICKET_CANCELLATION',
        url: receiver.url('/cancel'),
        body: JSON.stringify({ barcodes: ['AAA'] }),
        createdAt: testApp.clock.now(),
      });
      message.status = 'FAILED';
      await fork.persist(message).flush();
      await staff(`mutation { retryDelivery(id: ${message.id}) { id } }`);
      const jobs = await em().find(Job, { type: SEND_MESSAGE_JOB, status: 'pending' });
      expect(jobs.map((job) => job.payload.messageId)).toContain(message.id);
      await drainJobs(testApp);
      expect((await em().findOneOrFail(ProviderMessage, message.id)).status).toBe('SENT');
      expect(receiver.to('/cancel')).toHaveLength(1);
    });

    it('lists failed jobs by type with their error, retries and discards them', async () => {
      // A worker claims only the types it has a handler for: this one always fails.
      testApp.runtime.jobs.register('always.failing', () => Promise.reject(new Error('This job always fails')));
      const fork = em();
      const failing = [
        enqueue(fork, testApp.clock, 'always.failing', { n: 1 }, { maxAttempts: 1 }),
        enqueue(fork, testApp.clock, 'always.failing', { n: 2 }, { maxAttempts: 1 }),
      ];
      await fork.flush();
      await drainJobs(testApp);
      const failed = (
        await staff('{ jobs(filter: { status: "failed", type: "always.failing" }) { id status lastError payload } }')
      ).jobs as Json[];
      expect(failed.map((job) => job.id)).toEqual(failing.map((job) => job.id));
      expect(failed[0].lastError).toBe('This job always fails');
      expect(JSON.parse(failed[0].payload as string)).toEqual({ n: 1 });
      const counts = (await staff('{ jobCounts { type status count } }')).jobCounts as Json[];
      expect(counts).toContainEqual({ type: 'always.failing', status: 'failed', count: 2 });
      const retried = await staff(`mutation { retryJob(id: ${failing[0].id}) { status attempts } }`);
      expect(retried.retryJob).toEqual({ status: 'pending', attempts: 0 });
      const discarded = await staff(`mutation { discardJob(id: ${failing[1].id}) { status } }`);
      expect(discarded.discardJob).toEqual({ status: 'discarded' });
      const notFailed = await graphqlAs(testApp, internalKey, `mutation { discardJob(id: ${failing[1].id}) { id } }`);
      expect(notFailed.body.errors[0].extensions.code).toBe('BAD_REQUEST');
      const badFilter = await graphqlAs(testApp, internalKey, '{ jobs(filter: { status: "lost" }) { id } }');
      expect(badFilter.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
      await drainJobs(testApp);
    });
  });
});

describe('The graph for the back office: collective offers in the review queue', () => {
  const world = collectiveWorld({ approvalDelaySeconds: 3600 });

  it('lists them oldest first and rejects one with a reason its provider reads', async () => {
    const first = await world.underReview();
    const second = await world.underReview();
    const queue = await world.graphql(
      '{ collectiveOffersAwaitingReview { id name provider { id } validationReason } }',
      {},
      world.internalKey,
    );
    expect(queue.body.errors).toBeUndefined();
    const ids = (queue.body.data.collectiveOffersAwaitingReview as Json[]).map((offer) => offer.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    const rejected = await world.graphql(
      'mutation R($id: Int!) { rejectOffer(offerId: $id, collective: true, reason: "Not for schools") { decision } }',
      { id: first.id },
      world.internalKey,
    );
    expect(rejected.body.errors).toBeUndefined();
    const read = await world.getOne(first.id);
    expect(read.body).toMatchObject({ offerStatus: 'REJECTED' });
    const own = await world.graphql(`{ collectiveOffer(id: ${first.id}) { validationReason } }`, {});
    expect(own.body.data.collectiveOffer).toEqual({ validationReason: 'Not for schools' });
  });
});

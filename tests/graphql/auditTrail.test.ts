import type { Request } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderMessage } from '../../graphql/bookings/ProviderMessage.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { AuditEntry } from '../../platform/audit/index.js';
import { enqueue } from '../../platform/jobs/outbox.js';
import { keySessionOf } from '../../server/http/keySession.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { drainJobs, graphqlAs } from '../support/builders.js';
import { collectiveWorld } from '../support/collectiveWorld.js';
import { anEvent, aProvider, createSandbox } from '../support/fixtures.js';
import type { CreatedSandbox } from '../../graphql/providers/sandbox.js';

type Json = Record<string, any>;

const ENTRIES = `query Entries($filter: AuditEntryFilter, $page: AuditEntryPage) {
  auditEntries(filter: $filter, page: $page) {
    id createdAt actorKind actorKeyPrefix actorLabel actorSubject actorEmail
    action targetType targetId beforeValues afterValues requestId
  }
}`;

describe('The audit trail of staff actions', () => {
  let testApp: TestApp;
  let sandbox: CreatedSandbox;
  let internalKey: string;
  let internalPrefix: string;
  const em = () => testApp.database.orm.em.fork();

  /** A staff operation sent with its own X-Request-Id, as the back office's requests carry one. */
  async function staff(requestId: string, query: string, variables?: Json) {
    const response = await request(testApp.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${internalKey}`)
      .set('X-Request-Id', requestId)
      .send({ query, variables });
    return response.body as { data?: Json; errors?: Json[] };
  }

  async function entries(filter: Json = {}, page?: Json): Promise<Json[]> {
    const body = await staff('read', ENTRIES, { filter, page });
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data!.auditEntries as Json[];
  }

  /** The one entry a request left, read from the graph, its JSON values parsed. */
  async function entryOf(requestId: string): Promise<Json> {
    const found = (await entries()).filter((entry) => entry.requestId === requestId);
    expect(found, `entries of ${requestId}`).toHaveLength(1);
    const [entry] = found;
    return {
      ...entry,
      beforeValues: entry.beforeValues && JSON.parse(entry.beforeValues),
      afterValues: entry.afterValues && JSON.parse(entry.afterValues),
    };
  }

  const byKey = () => ({ actorKind: 'api_key', actorKeyPrefix: internalPrefix, actorLabel: 'audit test desk' });

  beforeAll(async () => {
    testApp = await createTestApp({ env: { BACKOFFICE_BREAK_GLASS: 'true' } });
    sandbox = await createSandbox(em(), testApp.clock, 'test');
    const fork = em();
    const issued = issueApiKey(fork, testApp.clock, { env: 'test', internal: true, label: 'audit test desk' });
    await fork.flush();
    internalKey = issued.key;
    internalPrefix = issued.apiKey.prefix;
  });
  afterAll(() => testApp?.close());

  it('records approvals and rejections with the offer’s validation before and after', async () => {
    const owner = { providerId: sandbox.provider.id, venueId: sandbox.venues[0].id };
    const offer = await anEvent(em(), testApp.clock, owner, { validation: 'PENDING', publishedAt: null });
    const other = await anEvent(em(), testApp.clock, owner, { validation: 'PENDING', publishedAt: null });
    await staff(
      'req-approve',
      `mutation { reviewOffers(offers: [{ offerId: ${offer.id} }], decision: "APPROVED") { offerId } }`,
    );
    await staff(
      'req-reject',
      `mutation { rejectOffer(offerId: ${other.id}, reason: "A price on the image") { offerId } }`,
    );
    expect(await entryOf('req-approve')).toMatchObject({
      ...byKey(),
      action: 'offer.approved',
      targetType: 'offer',
      targetId: String(offer.id),
      beforeValues: { validation: 'PENDING', validationReason: null },
      afterValues: { validation: 'APPROVED', validationReason: null },
      createdAt: testApp.clock.now().toISOString(),
    });
    expect(await entryOf('req-reject')).toMatchObject({
      action: 'offer.rejected',
      targetId: String(other.id),
      afterValues: { validation: 'REJECTED', validationReason: 'A price on the image' },
    });
  });

  it('records changes of rights and activation, keys issued and revoked', async () => {
    const other = await aProvider(em(), testApp.clock);
    const id = other.provider.id;
    await staff('req-rights', `mutation { setIndividualOfferRights(providerId: ${id}, allowed: false) { id } }`);
    await staff('req-active', `mutation { setProviderActive(providerId: ${id}, isActive: false) { id } }`);
    const issued = await staff(
      'req-issue',
      `mutation { issueApiKey(providerId: ${id}, label: "ticketing v2") { key apiKey { id prefix } } }`,
    );
    const { key, apiKey } = issued.data!.issueApiKey as { key: string; apiKey: { id: number; prefix: string } };
    await staff('req-revoke', `mutation { revokeApiKey(id: ${apiKey.id}) { id } }`);
    expect(await entryOf('req-rights')).toMatchObject({
      ...byKey(),
      action: 'provider.offer_rights_changed',
      targetType: 'provider',
      targetId: String(id),
      beforeValues: { canManageIndividualOffers: true },
      afterValues: { canManageIndividualOffers: false },
    });
    expect(await entryOf('req-active')).toMatchObject({
      action: 'provider.activation_changed',
      beforeValues: { isActive: true },
      afterValues: { isActive: false },
    });
    const issue = await entryOf('req-issue');
    expect(issue).toMatchObject({
      action: 'api_key.issued',
      targetType: 'api_key',
      targetId: String(apiKey.id),
      beforeValues: null,
      afterValues: { prefix: apiKey.prefix, providerId: id, offererId: null, label: 'ticketing v2' },
    });
    // The clear key is shown once, to the caller: never to the trail.
    expect(JSON.stringify(issue)).not.toContain(key.slice(apiKey.prefix.length + 1));
    expect(await entryOf('req-revoke')).toMatchObject({
      action: 'api_key.revoked',
      targetId: String(apiKey.id),
      beforeValues: { prefix: apiKey.prefix, revokedAt: null },
      afterValues: { prefix: apiKey.prefix, revokedAt: testApp.clock.now().toISOString() },
    });
  });

  it('records a rotated messaging secret without either secret', async () => {
    const other = await aProvider(em(), testApp.clock);
    const old = (await em().findOneOrFail(Provider, other.provider.id, { populate: ['messagingSecret'] }))
      .messagingSecret;
    const rotated = await staff(
      'req-rotate',
      `mutation { rotateMessagingSecret(providerId: ${other.provider.id}) { secret } }`,
    );
    const secret = rotated.data!.rotateMessagingSecret.secret as string;
    expect(await entryOf('req-rotate')).toMatchObject({
      ...byKey(),
      action: 'provider.messaging_secret_rotated',
      targetType: 'provider',
      targetId: String(other.provider.id),
      beforeValues: null,
      afterValues: null,
    });
    // Every column of every row, as the database holds them.
    const rows = await em().getConnection().execute('select * from audit_entry');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(old);
  });

  it('records messages and jobs retried or discarded; a provider resending its own message is no staff action', async () => {
    const fork = em();
    const message = fork.create(ProviderMessage, {
      provider: sandbox.provider.id,
      booking: null,
      kind: 'TICKET_CANCELLATION',
      url: 'http://127.0.0.1:9/cancel',
      body: JSON.stringify({ barcodes: ['AAA'] }),
      createdAt: testApp.clock.now(),
    });
    message.status = 'FAILED';
    await fork.persist(message).flush();
    await staff('req-message', `mutation { retryDelivery(id: ${message.id}) { id } }`);
    expect(await entryOf('req-message')).toMatchObject({
      ...byKey(),
      action: 'message.retried',
      targetType: 'provider_message',
      targetId: String(message.id),
      beforeValues: { status: 'FAILED' },
      afterValues: { status: 'PENDING' },
    });
    await em().nativeUpdate(ProviderMessage, message.id, { status: 'FAILED' });
    const before = await em().count(AuditEntry, {});
    const resent = await graphqlAs(testApp, sandbox.apiKey, `mutation { resendMessage(id: ${message.id}) { id } }`);
    expect(resent.body.errors).toBeUndefined();
    expect(await em().count(AuditEntry, {})).toBe(before);

    testApp.runtime.jobs.register('audit.failing', () => Promise.reject(new Error('always')));
    const jobs = em();
    const [retried, discarded] = [
      enqueue(jobs, testApp.clock, 'audit.failing', { n: 1 }, { maxAttempts: 1 }),
      enqueue(jobs, testApp.clock, 'audit.failing', { n: 2 }, { maxAttempts: 1 }),
    ];
    await jobs.flush();
    await drainJobs(testApp);
    await staff('req-job-retry', `mutation { retryJob(id: ${retried.id}) { id } }`);
    await staff('req-job-discard', `mutation { discardJob(id: ${discarded.id}) { id } }`);
    expect(await entryOf('req-job-retry')).toMatchObject({
      action: 'job.retried',
      targetType: 'job',
      targetId: String(retried.id),
      beforeValues: { status: 'failed', attempts: 1 },
      afterValues: { status: 'pending', attempts: 0 },
    });
    expect(await entryOf('req-job-discard')).toMatchObject({
      action: 'job.discarded',
      targetId: String(discarded.id),
      beforeValues: { status: 'failed' },
      afterValues: { status: 'discarded' },
    });
    await drainJobs(testApp);
  });

  it('records signing in and out of the back office, with the request id', async () => {
    const page = (requestId: string, cookie = '') =>
      ({
        get: (name: string) => (name === 'cookie' ? cookie : undefined),
        res: { locals: { requestId } },
      }) as unknown as Request;
    const setCookie = await (await keySessionOf(testApp.runtime, page('req-sign-in'), 'staff')).signIn(internalKey);
    const signedIn = await entryOf('req-sign-in');
    expect(signedIn).toMatchObject({ ...byKey(), action: 'staff.signed_in', targetType: 'staff_session' });
    await (await keySessionOf(testApp.runtime, page('req-sign-out', setCookie.split(';')[0]), 'staff')).signOut();
    expect(await entryOf('req-sign-out')).toMatchObject({
      ...byKey(),
      action: 'staff.signed_out',
      targetType: 'staff_session',
      targetId: signedIn.targetId,
    });
    // Signing out of an ended session changes nothing, and records nothing.
    await (await keySessionOf(testApp.runtime, page('req-sign-out-again', setCookie.split(';')[0]), 'staff')).signOut();
    expect((await entries()).filter((entry) => entry.requestId === 'req-sign-out-again')).toEqual([]);
  });

  it('writes the entry in the action’s transaction: an action that fails leaves none', async () => {
    const owner = { providerId: sandbox.provider.id, venueId: sandbox.venues[0].id };
    const offer = await anEvent(em(), testApp.clock, owner, { validation: 'PENDING', publishedAt: null });
    // The first offer's entry is written, then the unknown second offer fails the batch.
    const batch = await staff(
      'req-failed-batch',
      `mutation { reviewOffers(offers: [{ offerId: ${offer.id} }, { offerId: 999999 }], decision: "APPROVED") { offerId } }`,
    );
    expect(batch.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const revokedTwice = await staff('req-failed-revoke', 'mutation { revokeApiKey(id: 999999) { id } }');
    expect(revokedTwice.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const rows = await em().find(AuditEntry, { requestId: { $in: ['req-failed-batch', 'req-failed-revoke'] } });
    expect(rows).toEqual([]);
    expect(await em().count(AuditEntry, { targetType: 'offer', targetId: String(offer.id) })).toBe(0);
  });

  it('lists entries newest first, filtered by actor, action, target and period, a page at a time', async () => {
    const all = await entries();
    expect(all.length).toBeGreaterThan(5);
    expect(all.map((entry) => entry.id)).toEqual([...all.map((entry) => entry.id)].sort((a, b) => b - a));
    expect((await entries({ actor: internalPrefix })).length).toBe(all.length);
    expect(await entries({ actor: 'test_000000000000' })).toEqual([]);
    const approvals = await entries({ action: 'offer.approved' });
    expect(approvals.length).toBeGreaterThan(0);
    expect(approvals.every((entry) => entry.action === 'offer.approved')).toBe(true);
    const one = all[all.length - 1];
    const ofTarget = await entries({ targetType: one.targetType, targetId: one.targetId });
    expect(ofTarget.map((entry) => entry.id)).toContain(one.id);
    expect(ofTarget.every((entry) => entry.targetId === one.targetId)).toBe(true);
    const now = testApp.clock.now().getTime();
    expect(
      (await entries({ from: new Date(now - 1000).toISOString(), to: new Date(now + 1000).toISOString() })).length,
    ).toBe(all.length);
    expect(await entries({ from: new Date(now + 1000).toISOString() })).toEqual([]);
    expect(await entries({ to: new Date(now).toISOString() })).toEqual([]);
    const first = await entries({}, { limit: 2 });
    const second = await entries({}, { limit: 2, before: first[1].id });
    expect([...first, ...second].map((entry) => entry.id)).toEqual(all.slice(0, 4).map((entry) => entry.id));
  });

  it('refuses a bad filter (422), and a provider key finds no audit trail in its graph', async () => {
    const bad = await staff('read', ENTRIES, { filter: { action: 'offer.deleted' }, page: { limit: 500 } });
    expect(bad.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    expect(bad.errors?.[0].extensions?.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ loc: ['action'], type: 'enum' })]),
    );
    const provider = await graphqlAs(testApp, sandbox.apiKey, '{ auditEntries { id } }');
    expect(provider.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('The audit trail of a collective offer’s review', () => {
  const world = collectiveWorld({ approvalDelaySeconds: 3600 });

  it('records the decision on the collective offer, in the same transaction', async () => {
    const offer = await world.underReview();
    const reviewed = await world.review(offer.id, 'REJECTED');
    expect(reviewed.body.errors).toBeUndefined();
    const entries = await world.testApp.database.orm.em
      .fork()
      .find(AuditEntry, { targetType: 'collective_offer', targetId: String(offer.id) });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorKind: 'api_key',
      action: 'offer.rejected',
      beforeValues: null,
      afterValues: JSON.stringify({ validation: 'REJECTED', validationReason: 'Checked' }),
    });
  });
});

import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKey } from '../../graphql/providers/ApiKey.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { openPersonSession } from '../../graphql/providers/personSessions.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { rolesAllow, type StaffRole, staffRoles } from '../../graphql/shared/staffRoles.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { graphqlAs } from '../support/builders.js';
import { createSandbox } from '../support/fixtures.js';

const ORIGIN = 'http://localhost:3000';

/** Every back-office operation on /graphql and the role it needs (admin may do everything): decision 031. */
const OPERATIONS: [name: string, query: string, role: StaffRole][] = [
  ['offersAwaitingReview', '{ offersAwaitingReview { id } }', 'reviewer'],
  ['collectiveOffersAwaitingReview', '{ collectiveOffersAwaitingReview { id } }', 'reviewer'],
  ['reviewOffer', 'mutation { reviewOffer(offerId: 1, decision: "APPROVED") { offerId } }', 'reviewer'],
  ['rejectOffer', 'mutation { rejectOffer(offerId: 1, reason: "No") { offerId } }', 'reviewer'],
  ['reviewOffers', 'mutation { reviewOffers(offers: [{ offerId: 1 }], decision: "APPROVED") { offerId } }', 'reviewer'],
  ['providers', '{ providers { id } }', 'support'],
  ['provider.apiKeys', '{ provider(id: 1) { apiKeys { id } } }', 'support'],
  ['provider.offerers', '{ provider(id: 1) { offerers { id } } }', 'support'],
  ['provider.venueLinks', '{ provider(id: 1) { venueLinks { venueId } } }', 'support'],
  ['provider.canManageIndividualOffers', '{ provider(id: 1) { canManageIndividualOffers } }', 'support'],
  ['issueApiKey', 'mutation { issueApiKey(providerId: 1) { key } }', 'support'],
  ['revokeApiKey', 'mutation { revokeApiKey(id: 999999) { id } }', 'support'],
  ['deliveries', '{ deliveries { id } }', 'support'],
  ['retryDelivery', 'mutation { retryDelivery(id: 999999) { id } }', 'support'],
  ['bookingMessages', '{ bookingMessages(bookingId: 999999) { id } }', 'support'],
  ['jobs', '{ jobs { id } }', 'support'],
  ['jobCounts', '{ jobCounts { type } }', 'support'],
  ['retryJob', 'mutation { retryJob(id: 999999) { id } }', 'support'],
  ['requests', '{ requests { requestId } }', 'support'],
  ['request', '{ request(requestId: "none") { requestId } }', 'support'],
  ['discardJob', 'mutation { discardJob(id: 999999) { id } }', 'admin'],
  ['setProviderActive', 'mutation { setProviderActive(providerId: 1, isActive: false) { id } }', 'admin'],
  ['setIndividualOfferRights', 'mutation { setIndividualOfferRights(providerId: 1, allowed: false) { id } }', 'admin'],
  ['rotateMessagingSecret', 'mutation { rotateMessagingSecret(providerId: 1) { secret } }', 'admin'],
];

/** Each role against each operation: refused where the role lacks what the operation needs. */
const CASES = OPERATIONS.flatMap(([name, query, needed]) =>
  staffRoles.map((role) => ({ name, query, role, allowed: rolesAllow([role], needed) })),
);

describe('Roles on the back office’s operations', () => {
  let testApp: TestApp;
  let providerId: number;
  const cookies = new Map<StaffRole, string>();
  const em = () => testApp.database.orm.em.fork();
  const asStaff = (role: StaffRole, query: string) =>
    request(testApp.app)
      .post('/graphql')
      .set('Cookie', cookies.get(role)!)
      .set('Origin', ORIGIN)
      .set('apollo-require-preflight', 'true')
      .send({
        query: query.replaceAll('providerId: 1', `providerId: ${providerId}`).replace('(id: 1)', `(id: ${providerId})`),
      });
  const providerState = async () => {
    const provider = await em().findOneOrFail(Provider, providerId, { populate: ['messagingSecret'] });
    return {
      isActive: provider.isActive,
      rights: provider.canManageIndividualOffers,
      secret: provider.messagingSecret,
      keys: await em().count(ApiKey, { provider: providerId }),
    };
  };

  beforeAll(async () => {
    testApp = await createTestApp({ env: { PUBLIC_URL: ORIGIN } });
    providerId = (await createSandbox(em(), testApp.clock, 'test')).provider.id;
    for (const role of staffRoles) {
      const opened = await openPersonSession(em(), testApp.clock, {
        subject: `staff-${role}`,
        email: `${role}@staff.example`,
        name: null,
        roles: [role],
      });
      cookies.set(role, `backoffice_session=${opened.token}`);
    }
  });
  afterAll(() => testApp?.close());

  it.each(CASES.filter((one) => !one.allowed))(
    'refuses $name to a $role (FORBIDDEN), changing nothing',
    async (one) => {
      const before = await providerState();
      const response = await asStaff(one.role, one.query);
      expect(response.body.errors?.[0]?.extensions?.code, JSON.stringify(response.body)).toBe('FORBIDDEN');
      expect(response.body.errors[0].message).toMatch(/^Only the (reviewer|support|admin) role may /);
      expect(await providerState()).toEqual(before);
    },
  );

  it.each(CASES.filter((one) => one.allowed))('lets a $role through to $name', async (one) => {
    const response = await asStaff(one.role, one.query);
    const codes = (response.body.errors ?? []).map(
      (error: { extensions?: { code?: string } }) => error.extensions?.code,
    );
    expect(codes, JSON.stringify(response.body)).not.toContain('FORBIDDEN');
    expect(codes).not.toContain('UNAUTHENTICATED');
  });

  it('lets an internal key (a machine) do everything, as admin', async () => {
    const fork = em();
    const key = issueApiKey(fork, testApp.clock, { env: 'test', internal: true, label: 'monitoring' }).key;
    await fork.flush();
    for (const [name, query] of OPERATIONS.filter(([, , role]) => role !== 'admin')) {
      const response = await graphqlAs(testApp, key, query.replace('(id: 1)', `(id: ${providerId})`));
      const codes = (response.body.errors ?? []).map(
        (error: { extensions?: { code?: string } }) => error.extensions?.code,
      );
      expect(codes, name).not.toContain('FORBIDDEN');
    }
  });
});

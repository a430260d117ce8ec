import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PersonSession } from '../../graphql/providers/PersonSession.js';
import { AuditEntry } from '../../platform/audit/index.js';
import { createPortalHandler } from '../../server/portal.js';
import { ensurePortalBuilt } from '../portal/ensureBuilt.js';
import { testOpenApiDocument } from '../portal/testPortal.js';
import { createTestApp } from '../support/app.js';
import { STAFF_ACCOUNTS } from '../support/identityProvider.js';
import { listenLocally } from '../support/miscLocalServer.js';
import { browse, signInThroughIdp } from '../support/staffSignIn.js';
import { aBackOfficeWorld, type BackOfficeWorld } from './backOfficeWorld.js';

const JOB_COUNTS = '{ jobCounts { type } }';

describe('Staff sign in with the organisation’s identity provider (OpenID Connect)', () => {
  let world: BackOfficeWorld;
  const em = () => world.testApp.database.orm.em.fork();
  const graphql = (cookie: string, query: string) =>
    request(world.testApp.app)
      .post('/graphql')
      .set('Cookie', cookie)
      .set('Origin', world.server.baseUrl)
      .set('apollo-require-preflight', 'true')
      .send({ query });

  beforeAll(async () => {
    ensurePortalBuilt();
    world = await aBackOfficeWorld();
  }, 120_000);
  afterAll(() => world?.close());

  it('signs in through the IdP (code flow with PKCE, state and nonce) to the page asked for, and out again', async () => {
    const start = await fetch(`${world.server.baseUrl}/backoffice/oidc/start?next=/backoffice/jobs`, {
      redirect: 'manual',
    });
    const authorization = new URL(start.headers.get('location')!);
    expect(authorization.origin).toBe(world.identityProvider.issuer);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      client_id: world.identityProvider.clientId,
      redirect_uri: `${world.server.baseUrl}/backoffice/oidc/callback`,
      response_type: 'code',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      state: expect.stringMatching(/.{20,}/),
      nonce: expect.stringMatching(/.{20,}/),
    });
    const transaction = start.headers.getSetCookie().find((cookie) => cookie.startsWith('backoffice_oidc='));
    expect(transaction).toMatch(/; Path=\/backoffice\/oidc\/callback; HttpOnly; SameSite=Lax; Max-Age=600$/);

    const { jar, callback } = await signInThroughIdp(world.server.baseUrl, 'support', '/backoffice/jobs');
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe('/backoffice/jobs');
    const session = callback.headers.getSetCookie().find((cookie) => cookie.startsWith('backoffice_session='));
    expect(session).toMatch(/^backoffice_session=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=28800$/);
    expect(jar.cookies.has('backoffice_oidc')).toBe(false);
    const stored = await em().findOneOrFail(PersonSession, { subject: STAFF_ACCOUNTS.support.subject });
    expect(stored).toMatchObject({ email: STAFF_ACCOUNTS.support.email, name: 'Sam Support', roles: 'support' });

    const page = await browse(jar, `${world.server.baseUrl}/backoffice/jobs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Sam Support (support)');
    const cookie = `backoffice_session=${jar.cookies.get('backoffice_session')}`;
    expect((await graphql(cookie, JOB_COUNTS)).body.errors).toBeUndefined();

    const signedOut = await request(world.testApp.app)
      .post('/backoffice/sign-out')
      .set('Cookie', cookie)
      .set('Origin', world.server.baseUrl);
    expect(signedOut.status).toBe(302);
    expect((await em().findOneOrFail(PersonSession, stored.id)).endedAt).toBeInstanceOf(Date);
    // RP-initiated logout: on to the IdP's end-session page, which accepts the way back to the sign-in page.
    const endSession = new URL(signedOut.headers.location);
    expect(endSession.origin).toBe(world.identityProvider.issuer);
    expect(Object.fromEntries(endSession.searchParams)).toEqual({
      client_id: world.identityProvider.clientId,
      post_logout_redirect_uri: `${world.server.baseUrl}/backoffice/sign-in`,
    });
    const confirmation = await fetch(endSession, { redirect: 'manual' });
    expect(confirmation.status).toBe(200);
    expect(await confirmation.text()).toMatch(/<form[^>]*method="post"/i);
    expect((await graphql(cookie, JOB_COUNTS)).status).toBe(401);
    const after = await browse(jar, `${world.server.baseUrl}/backoffice/jobs`);
    expect(after.headers.get('location')).toMatch(/^\/backoffice\/sign-in/);

    // Both ends of the session are staff actions of the person the identity provider named.
    const entries = await em().find(
      AuditEntry,
      { targetType: 'person_session', targetId: String(stored.id) },
      { orderBy: { id: 'asc' } },
    );
    expect(
      entries.map(({ action, actorKind, actorSubject, actorEmail }) => [action, actorKind, actorSubject, actorEmail]),
    ).toEqual([
      ['staff.signed_in', 'person', STAFF_ACCOUNTS.support.subject, STAFF_ACCOUNTS.support.email],
      ['staff.signed_out', 'person', STAFF_ACCOUNTS.support.subject, STAFF_ACCOUNTS.support.email],
    ]);
  });

  it.each([
    ['outsider', 'domain', 'is outside the organisation'],
    ['noRole', 'no-role', 'holds no back-office role'],
  ] as const)('refuses %s (403: %s) and opens no session', async (account, _problem, said) => {
    const sessionsBefore = await em().count(PersonSession);
    const { callback } = await signInThroughIdp(world.server.baseUrl, account);
    expect(callback.status).toBe(403);
    expect(await callback.text()).toContain(said);
    expect(callback.headers.getSetCookie().some((cookie) => cookie.startsWith('backoffice_session='))).toBe(false);
    expect(await em().count(PersonSession)).toBe(sessionsBefore);
  });

  it('refuses a callback without its transaction, or with a state of another sign-in (400)', async () => {
    const { jar } = await signInThroughIdp(world.server.baseUrl, 'reviewer');
    const callback = `${world.server.baseUrl}/backoffice/oidc/callback`;
    const withoutTransaction = await fetch(`${callback}?code=abc&state=xyz`, { redirect: 'manual' });
    expect(withoutTransaction.status).toBe(400);
    expect(await withoutTransaction.text()).toContain('This sign-in expired');

    const started = await fetch(`${world.server.baseUrl}/backoffice/oidc/start`, { redirect: 'manual' });
    const transaction = started.headers.getSetCookie()[0].split(';')[0];
    const forged = await fetch(`${callback}?code=abc&state=another`, {
      redirect: 'manual',
      headers: { cookie: transaction },
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('refused');
    expect(jar.cookies.has('backoffice_session')).toBe(true);
  });
});

describe('Staff sign-in while the identity provider cannot be reached', () => {
  it('starts the server, then answers the sign-in with a 503 page that says so', async () => {
    const closed = await listenLocally((_req, res) => res.end());
    const issuer = closed.baseUrl;
    await closed.close();
    const portal = await createPortalHandler({
      mode: 'production',
      projectRoot: ensurePortalBuilt(),
      openApiDocument: testOpenApiDocument(),
    });
    const testApp = await createTestApp({
      portal,
      env: {
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: 'back-office',
        OIDC_CLIENT_SECRET: 'secret',
        OIDC_ROLES_CLAIM: 'groups',
      },
    });
    try {
      const signIn = await request(testApp.app).get('/backoffice/sign-in');
      expect(signIn.status).toBe(200);
      expect(signIn.text).toContain('Sign in with your organisation');
      expect(signIn.text).not.toContain('Internal key');
      const start = await request(testApp.app).get('/backoffice/oidc/start');
      expect(start.status).toBe(503);
      expect(start.text).toContain('The identity provider cannot be reached');
      expect(start.text).toContain(issuer);
      expect(start.headers['set-cookie']).toBeUndefined();
    } finally {
      await testApp.close();
    }
  });
});

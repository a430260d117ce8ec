import request from 'supertest';
import type { Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey, revokeApiKey } from '../../graphql/providers/apiKeys.js';
import { KEY_SESSION_TTL_MS as STAFF_SESSION_TTL_MS } from '../../graphql/providers/keySessions.js';
import { STAFF_SESSION_COOKIE } from '../../server/http/keySession.js';
import { staffSessionOf } from '../../server/http/staffSession.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createSandbox } from '../support/fixtures.js';

const ORIGIN = 'http://localhost:3000';
const QUERY = '{ jobCounts { type } }';

/** The back office's break-glass sign-in, as its page calls it: the cookie it answers, and the token in it. */
async function signIn(testApp: TestApp, key: string): Promise<{ cookie: string; setCookie: string }> {
  const session = await staffSessionOf(testApp.runtime, { get: () => undefined } as unknown as Request);
  const setCookie = await session.signIn(key);
  return { cookie: setCookie.split(';')[0], setCookie };
}

describe('Back-office sessions of an internal key (break-glass) on /graphql', () => {
  let testApp: TestApp;
  let internalKey: string;
  let providerKey: string;
  const em = () => testApp.database.orm.em.fork();
  const fromThePage = (cookie: string) =>
    request(testApp.app)
      .post('/graphql')
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .set('apollo-require-preflight', 'true')
      .send({ query: QUERY });

  beforeAll(async () => {
    testApp = await createTestApp({ env: { PUBLIC_URL: ORIGIN, BACKOFFICE_BREAK_GLASS: 'true' } });
    providerKey = (await createSandbox(em(), testApp.clock, 'test')).apiKey;
    const fork = em();
    internalKey = issueApiKey(fork, testApp.clock, { env: 'test', internal: true }).key;
    await fork.flush();
  });
  afterAll(() => testApp?.close());

  it('exchanges an internal key for an HttpOnly, SameSite=Lax cookie that /graphql accepts from this origin', async () => {
    const { cookie, setCookie } = await signIn(testApp, internalKey);
    expect(setCookie).toMatch(new RegExp(`^${STAFF_SESSION_COOKIE}=[0-9a-f]{64}; Path=/; HttpOnly; SameSite=Lax;`));
    expect(setCookie).toContain(`Max-Age=${STAFF_SESSION_TTL_MS / 1000}`);
    expect(setCookie).not.toContain('Secure');
    const response = await fromThePage(cookie);
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.jobCounts).toEqual(expect.any(Array));
  });

  it('marks the cookie Secure in production', async () => {
    const production = await createTestApp({
      database: testApp.database,
      env: { APP_ENV: 'production', PUBLIC_URL: 'https://api.example.com', BACKOFFICE_BREAK_GLASS: 'true' },
    });
    try {
      const { setCookie } = await signIn(production, internalKey);
      expect(setCookie).toMatch(/; Secure$/);
    } finally {
      await production.runtime.close();
    }
  });

  it('refuses a provider key (403) and an unknown key (401)', async () => {
    await expect(signIn(testApp, providerKey)).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    await expect(signIn(testApp, 'test_000000000000_' + '0'.repeat(64))).rejects.toMatchObject({
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  it('refuses the cookie without the CSRF header, from another origin, or with no origin at all', async () => {
    const { cookie } = await signIn(testApp, internalKey);
    const withoutHeader = await request(testApp.app)
      .post('/graphql')
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .send({ query: QUERY });
    expect(withoutHeader.status).toBe(403);
    const crossSite = await request(testApp.app)
      .post('/graphql')
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example')
      .set('apollo-require-preflight', 'true')
      .send({ query: QUERY });
    expect(crossSite.status).toBe(403);
    const noOrigin = await request(testApp.app)
      .post('/graphql')
      .set('Cookie', cookie)
      .set('apollo-require-preflight', 'true')
      .send({ query: QUERY });
    expect(noOrigin.status).toBe(403);
    const sameSiteGet = await request(testApp.app)
      .get('/graphql')
      .query({ query: QUERY })
      .set('Cookie', cookie)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('apollo-require-preflight', 'true');
    expect(sameSiteGet.status).toBe(200);
  });

  it('is not a key of the REST API', async () => {
    const { cookie } = await signIn(testApp, internalKey);
    const response = await request(testApp.app)
      .get('/public/providers/v1/provider')
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .set('apollo-require-preflight', 'true');
    expect(response.status).toBe(401);
  });

  it('ends with sign-out, with expiry, and with the revocation of its key', async () => {
    const signedOut = await signIn(testApp, internalKey);
    const session = await staffSessionOf(testApp.runtime, {
      get: (name: string) => (name === 'cookie' ? signedOut.cookie : undefined),
    } as unknown as Request);
    expect(session.caller).toMatchObject({ kind: 'internal' });
    expect(await session.signOut()).toMatch(new RegExp(`^${STAFF_SESSION_COOKIE}=; .*Max-Age=0`));
    expect((await fromThePage(signedOut.cookie)).status).toBe(401);

    const expiring = await signIn(testApp, internalKey);
    testApp.clock.advance(STAFF_SESSION_TTL_MS);
    expect((await fromThePage(expiring.cookie)).status).toBe(401);

    const fork = em();
    const otherKey = issueApiKey(fork, testApp.clock, { env: 'test', internal: true });
    await fork.flush();
    const revoked = await signIn(testApp, otherKey.key);
    expect((await fromThePage(revoked.cookie)).status).toBe(200);
    await revokeApiKey(em(), testApp.clock, otherKey.apiKey.prefix);
    expect((await fromThePage(revoked.cookie)).status).toBe(401);
  });

  it('without the break-glass setting, refuses the key (403) and no longer accepts its sessions', async () => {
    const { cookie } = await signIn(testApp, internalKey);
    const closed = await createTestApp({ database: testApp.database, env: { PUBLIC_URL: ORIGIN } });
    try {
      await expect(signIn(closed, internalKey)).rejects.toMatchObject({
        extensions: { code: 'FORBIDDEN' },
        message: expect.stringContaining('BACKOFFICE_BREAK_GLASS=true'),
      });
      const response = await request(closed.app)
        .post('/graphql')
        .set('Cookie', cookie)
        .set('Origin', ORIGIN)
        .set('apollo-require-preflight', 'true')
        .send({ query: QUERY });
      expect(response.status).toBe(401);
      const bearer = await request(closed.app)
        .post('/graphql')
        .set('Authorization', `Bearer ${internalKey}`)
        .send({ query: QUERY });
      expect(bearer.body.errors).toBeUndefined();
    } finally {
      await closed.runtime.close();
    }
  });

  it('lets a bearer key decide when both are sent', async () => {
    const { cookie } = await signIn(testApp, internalKey);
    const response = await request(testApp.app)
      .post('/graphql')
      .set('Cookie', cookie)
      .set('Authorization', `Bearer ${providerKey}`)
      .send({ query: QUERY });
    // The provider's graph has no staff operation (decision 033).
    expect(response.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

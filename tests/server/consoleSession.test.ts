import request from 'supertest';
import type { Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setProviderActive } from '../../graphql/providers/administration.js';
import { issueApiKey, revokeApiKey } from '../../graphql/providers/apiKeys.js';
import { KEY_SESSION_TTL_MS } from '../../graphql/providers/keySessions.js';
import { KeySession } from '../../graphql/providers/KeySession.js';
import { CONSOLE_SESSION_COOKIE, consoleSessionOf, SESSION_AUDIENCE_HEADER } from '../../server/http/keySession.js';
import { staffSessionOf } from '../../server/http/staffSession.js';
import { createPortalHandler } from '../../server/portal.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { aProvider, createSandbox } from '../support/fixtures.js';
import { ensurePortalBuilt } from '../portal/ensureBuilt.js';
import { testOpenApiDocument } from '../portal/testPortal.js';

const ORIGIN = 'http://localhost:3000';
const WHO = '{ provider { name } myApiKeys { prefix revokedAt } }';

type Json = Record<string, any>;

const cookieOf = (setCookie: string) => setCookie.split(';')[0];
const prefixOf = (key: string) => key.split('_').slice(0, 2).join('_');

describe('The console: signed in with a provider key, for a session on its pages and /graphql', () => {
  let testApp: TestApp;
  let firstKey: string;
  let secondKey: string;
  let internalKey: string;
  const em = () => testApp.database.orm.em.fork();

  /** The sign-in form, as the browser posts it from the console's page. */
  const signIn = (key: string, origin: string | null = ORIGIN) => {
    const post = request(testApp.app).post('/console/sign-in').set('Host', new URL(ORIGIN).host);
    return (origin ? post.set('Origin', origin) : post).type('form').send({ key, next: '/console/keys' });
  };
  const signedIn = async (key: string) => {
    const response = await signIn(key);
    expect(response.status).toBe(302);
    return cookieOf(response.headers['set-cookie'][0]);
  };
  const fromThePage = (cookie: string, query = WHO) =>
    request(testApp.app)
      .post('/graphql')
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .set('apollo-require-preflight', 'true')
      .send({ query });

  beforeAll(async () => {
    const portal = await createPortalHandler({
      mode: 'production',
      projectRoot: ensurePortalBuilt(),
      openApiDocument: testOpenApiDocument(),
    });
    testApp = await createTestApp({ portal, env: { PUBLIC_URL: ORIGIN, BACKOFFICE_BREAK_GLASS: 'true' } });
    firstKey = (await createSandbox(em(), testApp.clock, 'test')).apiKey;
    secondKey = (await aProvider(em(), testApp.clock, { name: 'Second Ticketing' })).apiKey;
    const fork = em();
    internalKey = issueApiKey(fork, testApp.clock, { env: 'test', internal: true }).key;
    await fork.flush();
  });
  afterAll(() => testApp?.close());

  it('exchanges a provider key for an HttpOnly, SameSite=Strict cookie of 8 hours, and opens the console', async () => {
    const response = await signIn(firstKey);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/console/keys');
    const setCookie: string = response.headers['set-cookie'][0];
    expect(setCookie).toMatch(
      new RegExp(`^${CONSOLE_SESSION_COOKIE}=[0-9a-f]{64}; Path=/; HttpOnly; SameSite=Strict;`),
    );
    expect(setCookie).toContain(`Max-Age=${KEY_SESSION_TTL_MS / 1000}`);
    expect(setCookie).not.toContain('Secure');
    const page = await request(testApp.app).get('/console/keys').set('Cookie', cookieOf(setCookie));
    expect(page.status).toBe(200);
    for (const label of ['Requests', 'Messages', 'Test events', 'Keys', prefixOf(firstKey)]) {
      expect(page.text).toContain(label);
    }
    expect(page.text).toContain('action="/console/sign-out"');
  });

  it('marks the cookie Secure in production', async () => {
    const production = await createTestApp({
      database: testApp.database,
      env: { APP_ENV: 'production', PUBLIC_URL: 'https://api.example.com' },
    });
    try {
      const session = await consoleSessionOf(production.runtime, { get: () => undefined } as unknown as Request);
      expect(await session.signIn(firstKey)).toMatch(/; Secure$/);
    } finally {
      await production.runtime.close();
    }
  });

  it('refuses an unknown or revoked key (401) and an internal key (403), and sets nothing', async () => {
    const fork = em();
    const revoked = issueApiKey(fork, testApp.clock, {
      env: 'test',
      provider: (await aProvider(fork, testApp.clock)).provider,
    });
    await fork.flush();
    await revokeApiKey(em(), testApp.clock, revoked.apiKey.prefix);
    const sessionsBefore = await em().count(KeySession);
    for (const [key, status] of [
      ['test_000000000000_' + '0'.repeat(64), 401],
      [revoked.key, 401],
      [internalKey, 403],
    ] as const) {
      const response = await signIn(key);
      expect(response.status).toBe(status);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(await em().count(KeySession)).toBe(sessionsBefore);
    // And from no page of this server (no Origin, no Sec-Fetch-Site), not even a valid key is taken.
    const unsourced = await signIn(firstKey, null);
    expect(unsourced.status).toBe(403);
    expect(unsourced.headers['set-cookie']).toBeUndefined();
  });

  it("sends a visitor without a session, or with the back office's, to sign in", async () => {
    const anonymous = await request(testApp.app).get('/console/messages');
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.location).toBe('/console/sign-in?next=%2Fconsole%2Fmessages');
    const staff = await staffSessionOf(testApp.runtime, { get: () => undefined } as unknown as Request);
    const staffCookie = cookieOf(await staff.signIn(internalKey));
    const asStaff = await request(testApp.app).get('/console/messages').set('Cookie', staffCookie);
    expect(asStaff.status).toBe(302);
    // Nor does a console session open the back office.
    const asProvider = await request(testApp.app)
      .get('/backoffice')
      .set('Cookie', await signedIn(firstKey));
    expect(asProvider.status).toBe(302);
    expect(asProvider.headers.location).toMatch(/^\/backoffice\/sign-in/);
  });

  it('is the provider on /graphql from this origin with the CSRF header, and nothing without them', async () => {
    const cookie = await signedIn(firstKey);
    const response = await fromThePage(cookie);
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect((response.body.data.myApiKeys as Json[]).map((key) => key.prefix)).toContain(prefixOf(firstKey));
    const withoutHeader = await request(testApp.app)
      .post('/graphql')
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .send({ query: WHO });
    expect(withoutHeader.status).toBe(403);
    const crossSite = await request(testApp.app)
      .post('/graphql')
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example')
      .set('apollo-require-preflight', 'true')
      .send({ query: WHO });
    expect(crossSite.status).toBe(403);
    // Staff operations stay staff's: they are not in a provider's graph (decision 033).
    expect((await fromThePage(cookie, '{ jobCounts { type } }')).body.errors[0].extensions.code).toBe(
      'GRAPHQL_VALIDATION_FAILED',
    );
  });

  it("shows each provider's session its own keys only", async () => {
    const first = (await fromThePage(await signedIn(firstKey))).body.data;
    const second = (await fromThePage(await signedIn(secondKey))).body.data;
    expect(first.provider.name).not.toBe(second.provider.name);
    expect((first.myApiKeys as Json[]).map((key) => key.prefix)).not.toContain(prefixOf(secondKey));
    expect((second.myApiKeys as Json[]).map((key) => key.prefix)).toEqual([prefixOf(secondKey)]);
  });

  it('uses the console session when the page says so, though the browser holds the back office one too', async () => {
    const staff = await staffSessionOf(testApp.runtime, { get: () => undefined } as unknown as Request);
    const both = `${cookieOf(await staff.signIn(internalKey))}; ${await signedIn(firstKey)}`;
    const asConsole = await fromThePage(both).set(SESSION_AUDIENCE_HEADER, 'console');
    expect(asConsole.body.data.provider.name).toBeTruthy();
    const asStaff = await fromThePage(both, '{ jobCounts { type } }');
    expect(asStaff.body.errors).toBeUndefined();
  });

  it('issues and revokes keys from the session; revoking its own key ends it', async () => {
    const cookie = await signedIn(firstKey);
    const issued = (await fromThePage(cookie, 'mutation { issueMyApiKey(label: "console") { key apiKey { prefix } } }'))
      .body.data.issueMyApiKey;
    const own = await signedIn(issued.key);
    expect((await fromThePage(own)).status).toBe(200);
    const revoke = `mutation { revokeMyApiKey(prefix: "${issued.apiKey.prefix}") { revokedAt } }`;
    expect((await fromThePage(own, revoke)).body.data.revokeMyApiKey.revokedAt).toEqual(expect.any(String));
    expect((await fromThePage(own)).status).toBe(401);
    const page = await request(testApp.app).get('/console/keys').set('Cookie', own);
    expect(page.status).toBe(302);
    // The session of the key that issued it goes on.
    expect((await fromThePage(cookie)).status).toBe(200);
  });

  it("refuses the session of a provider made inactive, on /graphql (403) and on the console's pages", async () => {
    const { provider, apiKey } = await aProvider(em(), testApp.clock, { name: 'Paused Ticketing' });
    const cookie = await signedIn(apiKey);
    await setProviderActive(em(), provider.id, false);
    expect((await fromThePage(cookie)).status).toBe(403);
    expect((await request(testApp.app).get('/console/keys').set('Cookie', cookie)).status).toBe(302);
    const again = await signIn(apiKey);
    expect(again.status).toBe(403);
    expect(again.text).toContain('This provider is inactive');
  });

  it('ends with sign-out, after 8 hours, and when its key is revoked elsewhere', async () => {
    const signedOut = await signedIn(firstKey);
    const out = await request(testApp.app)
      .post('/console/sign-out')
      .set('Host', new URL(ORIGIN).host)
      .set('Cookie', signedOut)
      .set('Origin', ORIGIN);
    expect(out.status).toBe(302);
    expect(out.headers.location).toBe('/console/sign-in');
    expect(out.headers['set-cookie'][0]).toMatch(new RegExp(`^${CONSOLE_SESSION_COOKIE}=; .*Max-Age=0`));
    expect((await fromThePage(signedOut)).status).toBe(401);

    const expiring = await signedIn(firstKey);
    testApp.clock.advance(KEY_SESSION_TTL_MS - 1000);
    expect((await fromThePage(expiring)).status).toBe(200);
    testApp.clock.advance(1000);
    expect((await fromThePage(expiring)).status).toBe(401);
    expect((await request(testApp.app).get('/console/keys').set('Cookie', expiring)).status).toBe(302);

    const fork = em();
    const { provider } = await aProvider(fork, testApp.clock, { name: 'Third Ticketing' });
    const other = issueApiKey(fork, testApp.clock, { env: 'test', provider });
    await fork.flush();
    const revoked = await signedIn(other.key);
    expect((await fromThePage(revoked)).status).toBe(200);
    await revokeApiKey(em(), testApp.clock, other.apiKey.prefix);
    expect((await fromThePage(revoked)).status).toBe(401);
  });
});

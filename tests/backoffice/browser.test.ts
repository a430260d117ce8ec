import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Offer } from '../../graphql/offers/Offer.js';
import { Job } from '../../platform/jobs/Job.js';
import { enqueue } from '../../platform/jobs/outbox.js';
import { drainJobs, graphqlAs } from '../support/builders.js';
import { anEvent } from '../support/fixtures.js';
import {
  launchBrowser,
  newWatchedContext,
  type PageProblems,
  seriousViolations,
  skipBrowserTests,
  WIDE,
} from '../portal/browserSupport.js';
import { aBackOfficeWorld, aBookingWithARefusedNotification, type BackOfficeWorld } from './backOfficeWorld.js';

/** Screens render once /graphql answered: a condition is awaited for a while (the machine is shared). */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000, interval: 100 });

/** Every action is used from the keyboard: focused, then Enter (a button, a link) or Space (a checkbox). */
async function press(page: Page, name: string | RegExp, key: 'Enter' | ' ' = 'Enter') {
  const target = page.getByRole('button', { name, exact: typeof name === 'string' });
  await target.focus();
  await page.keyboard.press(key === ' ' ? 'Space' : key);
}

describe.skipIf(skipBrowserTests)('The back office in a browser', () => {
  let world: BackOfficeWorld;
  let browser: Browser;
  let context: BrowserContext;
  let problems: PageProblems;
  let page: Page;
  const url = (path: string) => `${world.server.baseUrl}${path}`;
  const em = () => world.testApp.database.orm.em.fork();

  async function signIn(key = world.internalKey) {
    await page.goto(url('/backoffice'));
    await page.getByLabel('Internal key').fill(key);
    await page.getByLabel('Internal key').press('Enter');
  }

  /** axe's serious and critical violations on the page once its screen has rendered. */
  async function expectAccessible() {
    expect(await seriousViolations(page)).toEqual([]);
  }

  beforeAll(async () => {
    world = await aBackOfficeWorld();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });
  beforeEach(async () => {
    ({ context, problems } = await newWatchedContext(browser, { viewport: WIDE }));
    page = await context.newPage();
    world.receiver.reset();
  });
  afterEach(async () => {
    await context.close();
  });
  const expectNoProblems = () => {
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.externalRequests).toEqual([]);
  };

  it('signs in with an internal key (break-glass) and out again', async () => {
    await page.goto(url('/backoffice/jobs'));
    expect(new URL(page.url()).pathname).toBe('/backoffice/sign-in');
    await expectAccessible();
    await page.getByLabel('Internal key').fill(world.internalKey);
    await press(page, 'Sign in');
    await page.waitForURL(url('/backoffice/jobs'));
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Jobs');
    const cookie = (await context.cookies()).find((one) => one.name === 'backoffice_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await press(page, 'Sign out');
    await page.waitForURL(url('/backoffice/sign-in'));
    await page.goto(url('/backoffice'));
    expect(new URL(page.url()).pathname).toBe('/backoffice/sign-in');
    expectNoProblems();
  });

  it('refuses a provider key with the 403 page', async () => {
    await page.goto(url('/backoffice'));
    await page.getByLabel('Internal key').fill(world.sandbox.apiKey);
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      press(page, 'Sign in'),
    ]);
    expect(answer.status()).toBe(403);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('Provider keys do not open the back office');
    await expectAccessible();
    expect((await context.cookies()).some((one) => one.name === 'backoffice_session')).toBe(false);
    // The browser reports the 403 document itself as a failed load: that is this page's point.
    expect(problems.pageErrors).toEqual([]);
  });

  it('approves and rejects from the queue; the provider reads the status through the public API', async () => {
    const owner = { providerId: world.sandbox.provider.id, venueId: world.sandbox.venues[0].id };
    const waiting = (name: string) =>
      anEvent(em(), world.testApp.clock, owner, { name, validation: 'PENDING', publishedAt: null });
    const rejected = await waiting('Concert with a price on the image');
    const approvedA = await waiting('Jazz at noon');
    const approvedB = await waiting('String quartet');
    await signIn();
    await poll(() => page.getByRole('heading', { level: 2, name: /Jazz at noon/ }).count()).toBe(1);
    await expectAccessible();

    await page.getByLabel('Reason of a rejection (the provider reads it)').fill('The image shows a price');
    await press(page, `Reject ${rejected.name}`);
    await poll(() => page.getByRole('status').allTextContents()).toContain('1 offer rejected.');

    await page.getByRole('checkbox', { name: `Select ${approvedA.name}` }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('checkbox', { name: `Select ${approvedB.name}` }).focus();
    await page.keyboard.press('Space');
    await press(page, 'Approve selected (2)');
    await poll(() => page.getByRole('status').allTextContents()).toContain('2 offers approved.');
    await poll(() => page.getByText('No offer awaits review.').count()).toBe(1);

    const event = await request(world.testApp.app)
      .get(`/public/offers/v1/events/${rejected.id}`)
      .set('Authorization', `Bearer ${world.sandbox.apiKey}`);
    expect(event.body.status).toBe('REJECTED');
    const reason = await graphqlAs(
      world.testApp,
      world.sandbox.apiKey,
      `{ offer(id: ${rejected.id}) { validationReason } }`,
    );
    expect(reason.body.data.offer.validationReason).toBe('The image shows a price');
    for (const offer of [approvedA, approvedB])
      expect((await em().findOneOrFail(Offer, offer.id)).validation).toBe('APPROVED');
    expectNoProblems();
  });

  it('issues a key shown once, and revokes it: the revoked key gets 401 at once', async () => {
    await signIn();
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Providers' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: world.sandbox.provider.name }).focus();
    await page.keyboard.press('Enter');
    await poll(() => page.getByRole('heading', { level: 2, name: 'API keys' }).count()).toBe(1);
    await expectAccessible();
    await page.getByLabel('Label of the new key').fill('from the back office');
    await press(page, 'Issue a key');
    const shown = page.getByTestId('shown-once');
    await poll(() => shown.count()).toBe(1);
    const key = (await shown.textContent()) ?? '';
    const provider = () =>
      request(world.testApp.app).get('/public/providers/v1/provider').set('Authorization', `Bearer ${key}`);
    expect((await provider()).status).toBe(200);
    const prefix = key.split('_').slice(0, 2).join('_');
    await expect
      .poll(() => page.getByRole('row', { name: new RegExp(prefix) }).textContent())
      .toContain('from the back office');
    await press(page, `Revoke ${prefix}`);
    await poll(() => page.getByRole('status').allTextContents()).toContain(`Key ${prefix} revoked.`);
    expect((await provider()).status).toBe(401);
    expectNoProblems();
  });

  it('retries a failed delivery against a local receiver', async () => {
    const bookingId = await aBookingWithARefusedNotification(world, 'down');
    await signIn();
    await page.goto(url('/backoffice/messages'));
    await page.getByLabel('Booking id').fill(String(bookingId));
    const row = page.getByRole('row', { name: /BOOK/ });
    await poll(() => row.textContent()).toContain('HTTP 503');
    await expectAccessible();
    world.receiver.answer('/notify', { status: 200, json: {} });
    const messageId = Number((await row.getByRole('cell').first().textContent()) ?? '0');
    await press(page, `Retry now message ${messageId}`);
    await poll(() => page.getByRole('status').allTextContents()).toContain('Sent again now.');
    await drainJobs(world.testApp);
    await poll(() => row.textContent()).toContain('SENT');
    expect(world.receiver.to('/notify').length).toBe(2);
    expectNoProblems();
  });

  it("finds a provider's request by its id and reads the refusal as it was sent", async () => {
    const refused = await request(world.testApp.app)
      .post('/public/offers/v1/events')
      .set('Authorization', `Bearer ${world.sandbox.apiKey}`)
      .send({ name: 'No location' });
    expect(refused.status).toBe(422);
    const requestId = refused.headers['x-request-id'];
    // The log is written off the request path, a batch a second: written now rather than waited for.
    await world.testApp.runtime.requestLog.flush();
    await signIn();
    await page.goto(url(`/backoffice/requests?requestId=${requestId}`));
    const row = page.getByRole('row', { name: new RegExp(requestId) });
    await poll(() => row.textContent()).toContain('422');
    expect(await row.textContent()).toContain('/public/offers/v1/events');
    await expectAccessible();
    await row.getByRole('link', { name: requestId }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(url(`/backoffice/requests/${requestId}`));
    const error = page.getByRole('region', { name: 'Error as sent' });
    await poll(() => error.textContent()).toContain('"loc"');
    expect(JSON.parse((await error.locator('code').textContent()) ?? '')).toEqual(refused.body);
    expect(await page.getByRole('region', { name: 'Request body' }).textContent()).toContain('No location');
    await expectAccessible();
    expectNoProblems();
  });

  it('renders every screen accessibly, and retries and discards failed jobs', async () => {
    // A worker claims only the types it has a handler for: this one always fails.
    world.testApp.runtime.jobs.register('backoffice.test', () => Promise.reject(new Error('This job always fails')));
    const fork = em();
    const jobs = [1, 2].map((n) => enqueue(fork, world.testApp.clock, 'backoffice.test', { n }, { maxAttempts: 1 }));
    await fork.flush();
    await drainJobs(world.testApp);
    await signIn();
    for (const path of [
      '/backoffice',
      '/backoffice/providers',
      '/backoffice/messages',
      '/backoffice/requests',
      '/backoffice/jobs',
    ]) {
      await page.goto(url(path));
      await poll(() => page.getByText('Loading…').count()).toBe(0);
      await expectAccessible();
    }
    const failed = (id: number) => page.getByRole('row', { name: new RegExp(`^${id} backoffice.test`) });
    await poll(() => failed(jobs[0].id).textContent()).toContain('This job always fails');
    await press(page, `Retry job ${jobs[0].id}`);
    await poll(() => page.getByRole('status').allTextContents()).toContain('Job queued again.');
    await press(page, `Discard job ${jobs[1].id}`);
    await poll(() => page.getByRole('status').allTextContents()).toContain('Job discarded.');
    await poll(() => failed(jobs[1].id).count()).toBe(0);
    expect((await em().findOneOrFail(Job, jobs[1].id)).status).toBe('discarded');
    expect((await em().findOneOrFail(Job, jobs[0].id)).status).toBe('pending');
    await drainJobs(world.testApp);
    expectNoProblems();
  });

  it('runs a query in GraphiQL with the session', async () => {
    await signIn();
    await page.waitForURL(url('/backoffice'));
    const answered = (text: string) =>
      page.waitForResponse(
        (response) => response.url().endsWith('/graphql') && (response.request().postData() ?? '').includes(text),
        // GraphiQL's editor is the largest bundle of the build: on a loaded machine it takes a while.
        { timeout: 60_000 },
      );
    // GraphiQL reads the schema first (introspection, with the session), then runs what it is asked.
    const schema = answered('__schema');
    await page.goto(url('/graphql'));
    expect((await schema).status()).toBe(200);
    // The editors load after the toolbar: a click on Execute before the query editor holds the
    // default query runs nothing (the cause of this test's failures on a loaded machine).
    await expect
      .poll(() => page.locator('.graphiql-query-editor').innerText(), { timeout: 60_000, interval: 100 })
      .toContain('jobCounts');
    const run = page.getByRole('button', { name: /Execute query/i });
    const result = answered('jobCounts');
    await run.click();
    // Charged to the signed-in key's budget like any /graphql operation (decision 017).
    expect(await (await result).json()).toEqual({
      data: { jobCounts: expect.any(Array) },
      extensions: { cost: expect.objectContaining({ requested: 1, limit: 200 }) },
    });
    await poll(() => page.locator('.result-window').innerText()).toContain('"jobCounts"');
    expect(problems.externalRequests).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  }, 90_000);
});

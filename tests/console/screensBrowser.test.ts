import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aBookableDate, drainJobs } from '../support/builders.js';
import { aProvider } from '../support/fixtures.js';
import {
  launchBrowser,
  newWatchedContext,
  type PageProblems,
  seriousViolations,
  skipBrowserTests,
  WIDE,
} from '../portal/browserSupport.js';
import {
  aBackOfficeWorld,
  aBookingWithARefusedNotification,
  type BackOfficeWorld,
} from '../backoffice/backOfficeWorld.js';

/** Screens render once /graphql answered: a condition is awaited for a while (the machine is shared). */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000, interval: 100 });

/** Every action is used from the keyboard: focused, then Enter. */
async function press(page: Page, name: string | RegExp) {
  const target = page.getByRole('button', { name, exact: typeof name === 'string' });
  await target.focus();
  await page.keyboard.press('Enter');
}

/** Follows a link of the console's navigation from the keyboard. */
async function openScreen(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/**
 * Issue 36: the integrator's console, used as an integrator would: their requests found by id
 * and their refusals read, their messages resent, test events and the ticketing check run
 * against a local receiver, their keys issued and revoked; and nothing of another provider's.
 */
describe.skipIf(skipBrowserTests)("The integrator's console in a browser", () => {
  let world: BackOfficeWorld;
  let browser: Browser;
  let context: BrowserContext;
  let problems: PageProblems;
  let page: Page;
  const url = (path: string) => `${world.server.baseUrl}${path}`;
  const em = () => world.testApp.database.orm.em.fork();
  const api = () => request(world.testApp.app);

  async function signIn(into: Page, key = world.sandbox.apiKey, next = '/console') {
    await into.goto(url(next));
    await into.getByLabel('API key').fill(key);
    await into.getByLabel('API key').press('Enter');
    await into.waitForURL((address) => !address.pathname.endsWith('/sign-in'));
  }

  /** axe's serious and critical violations on the page once its screen has rendered. */
  async function expectAccessible(on = page) {
    expect(await seriousViolations(on)).toEqual([]);
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
  const expectNoProblems = (watched = problems) => {
    expect(watched.consoleErrors).toEqual([]);
    expect(watched.pageErrors).toEqual([]);
    expect(watched.externalRequests).toEqual([]);
  };

  it("finds a request by its id, and reads a refused request's error as it was sent", async () => {
    const accepted = await api()
      .get('/public/providers/v1/provider')
      .set('Authorization', `Bearer ${world.sandbox.apiKey}`);
    const refused = await api()
      .post('/public/offers/v1/events')
      .set('Authorization', `Bearer ${world.sandbox.apiKey}`)
      .send({ name: 'No location' });
    expect(refused.status).toBe(422);
    const refusedId = refused.headers['x-request-id'];
    // The log is written off the request path, a batch a second: written now rather than waited for.
    await world.testApp.runtime.requestLog.flush();

    await signIn(page);
    await page.waitForURL(url('/console/requests'));
    const rows = page.getByRole('row');
    await poll(() => rows.count()).toBeGreaterThan(2);
    // Newest first: the refusal, then the read before it.
    const ids = await page.getByRole('table', { name: 'Requests' }).getByRole('link').allTextContents();
    expect(ids.indexOf(refusedId)).toBeLessThan(ids.indexOf(accepted.headers['x-request-id']));
    await expectAccessible();

    await page.getByLabel('Request id').fill(refusedId);
    await poll(() => rows.count()).toBe(2);
    const row = page.getByRole('row', { name: new RegExp(refusedId) });
    expect(await row.textContent()).toContain('422');
    expect(await row.textContent()).toContain('/public/offers/v1/events');
    expect(await row.textContent()).toContain(world.sandbox.apiKey.split('_').slice(0, 2).join('_'));

    await row.getByRole('link', { name: refusedId }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(url(`/console/requests/${refusedId}`));
    const error = page.getByRole('region', { name: 'Error as sent' });
    await poll(() => error.textContent()).toContain('"loc"');
    expect(JSON.parse((await error.locator('code').textContent()) ?? '')).toEqual(refused.body);
    expect(await page.getByRole('region', { name: 'Request body' }).textContent()).toContain('No location');
    await expectAccessible();

    // The address of a request is one to share: loaded as a page, and the filter as a query.
    await page.goto(url(`/console/requests?requestId=${refusedId}`));
    await poll(() => rows.count()).toBe(2);
    expect(await page.getByLabel('Request id').inputValue()).toBe(refusedId);
    expectNoProblems();
  });

  it('opens a failed notification on its attempts, and resends it to a local receiver', async () => {
    const bookingId = await aBookingWithARefusedNotification(world, 'down for maintenance');

    await signIn(page);
    await openScreen(page, 'Messages');
    await page.getByLabel('Booking id').fill(String(bookingId));
    const row = page.getByRole('row', { name: /Notification BOOK/ });
    await poll(() => row.textContent()).toContain('HTTP 503');
    await expectAccessible();

    const details = row.getByRole('button', { name: /^Details/ });
    await details.focus();
    await page.keyboard.press('Enter');
    expect(await details.getAttribute('aria-expanded')).toBe('true');
    const attempt = page.getByRole('region', { name: 'Attempt 1' });
    await poll(() => attempt.textContent()).toContain('down for maintenance');
    const [received] = world.receiver.to('/notify');
    expect(received.signatureValid).toBe(true);
    expect(await attempt.textContent()).toContain(received.headers['passculture-signature'] as string);
    expect(await attempt.textContent()).toContain('HTTP 503');
    // The payload as it was sent, byte for byte once indented back.
    expect(await page.getByText('"action": "BOOK"').count()).toBe(1);
    await expectAccessible();

    world.receiver.answer('/notify', { status: 200, json: {} });
    const messageId = /message (\d+)/.exec((await details.textContent()) ?? '')?.[1];
    await press(page, `Resend message ${messageId}`);
    await poll(() => page.getByRole('status').allTextContents()).toContain('Queued to be sent again now.');
    await drainJobs(world.testApp);
    await poll(() => row.textContent()).toContain('SENT');
    await poll(() => page.getByRole('region', { name: 'Attempt 2' }).textContent()).toContain('HTTP 200');
    expect(world.receiver.to('/notify')).toHaveLength(2);
    expect(await row.getByRole('button', { name: /^Resend/ }).count()).toBe(0);
    expectNoProblems();
  });

  it('sends a test event, and runs the ticketing check against a local receiver', async () => {
    await signIn(page);
    await openScreen(page, 'Test events');
    await expectAccessible();

    await page.getByLabel('Action').selectOption('CANCEL');
    await press(page, 'Send test event');
    await poll(() => page.getByRole('status').allTextContents()).toContainEqual(
      expect.stringMatching(/^Test event queued: message \d+\.$/),
    );
    await drainJobs(world.testApp);
    const [received] = world.receiver.to('/notify');
    expect(received.headers['x-test-event']).toBe('true');
    expect(received.signatureValid).toBe(true);
    expect(received.body).toMatchObject({ action: 'CANCEL', offer_id: 0 });
    const attempt = page.getByRole('region', { name: 'Attempt 1' });
    await poll(() => attempt.textContent()).toContain('HTTP 200');
    expect(await page.getByRole('definition').allTextContents()).toContain('SENT');

    const { stock } = await aBookableDate(
      em(),
      world.testApp.clock,
      { providerId: world.sandbox.provider.id, venueId: world.sandbox.venues[0].id },
      { offer: { hasTicket: true }, quantity: 20 },
    );
    world.receiver.answer('/booking', {
      status: 200,
      json: { tickets: [{ barcode: 'CONSOLE-CHECK-1', seat: 'B4' }], remainingQuantity: 19 },
    });
    world.receiver.answer('/cancel', { status: 200, json: { remainingQuantity: 20 } });
    await page.getByLabel('Stock id').fill(String(stock.id));
    await press(page, 'Run the check');
    await poll(() => page.getByRole('status').allTextContents()).toContain(
      'Passed: both calls succeeded with answers of the expected shape.',
    );
    const booking = page.getByRole('region', { name: '1. The booking call: succeeded' });
    expect(await booking.textContent()).toContain('CONSOLE-CHECK-1');
    expect(await booking.textContent()).toContain('as expected');
    const cancellation = page.getByRole('region', { name: '2. The cancellation call: succeeded' });
    expect(await cancellation.textContent()).toContain('HTTP 200');
    expect(world.receiver.to('/booking')).toHaveLength(1);
    expect(world.receiver.to('/cancel')).toHaveLength(1);
    await expectAccessible();

    // A system that answers without tickets: the check says what is missing.
    world.receiver.answer('/booking', { status: 200, json: { remainingQuantity: 18 } });
    await press(page, 'Run the check');
    await poll(() => page.getByRole('status').allTextContents()).toContain('Failed: see the steps below.');
    expect(await page.getByRole('region', { name: /^1\. The booking call/ }).textContent()).toContain(
      'not as expected',
    );
    expectNoProblems();
  });

  it('issues a key shown once and revokes it: the revoked key gets 401 at once', async () => {
    await signIn(page, world.sandbox.apiKey, '/console/keys');
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    const sessionPrefix = world.sandbox.apiKey.split('_').slice(0, 2).join('_');
    await poll(() => page.getByRole('row', { name: new RegExp(sessionPrefix) }).textContent()).toContain(
      'this session',
    );
    await expectAccessible();

    await page.getByLabel('Label of the new key').fill('from the console');
    await press(page, 'Issue a key');
    const shown = page.getByTestId('shown-once');
    await poll(() => shown.count()).toBe(1);
    const key = (await shown.textContent()) ?? '';
    const provider = () => api().get('/public/providers/v1/provider').set('Authorization', `Bearer ${key}`);
    expect((await provider()).status).toBe(200);
    const prefix = key.split('_').slice(0, 2).join('_');
    const row = page.getByRole('row', { name: new RegExp(prefix) });
    await poll(() => row.textContent()).toContain('from the console');
    await expectAccessible();

    await press(page, `Revoke ${prefix}`);
    await poll(() => page.getByRole('status').allTextContents()).toContain(
      `Key ${prefix} revoked: it is refused from now on.`,
    );
    expect((await provider()).status).toBe(401);
    // The revoked key stays listed, without its button; the session's own key is untouched.
    await page.reload();
    await poll(() => row.count()).toBe(1);
    expect(await row.getByRole('button').count()).toBe(0);
    expect(
      await page
        .getByRole('row', { name: new RegExp(sessionPrefix) })
        .getByRole('button')
        .count(),
    ).toBe(1);
    expectNoProblems();
  });

  it("shows a provider none of another provider's requests, messages or keys", async () => {
    const other = await aProvider(em(), world.testApp.clock, { name: 'Other Ticketing' });
    const mine = await api()
      .get('/public/providers/v1/provider')
      .set('Authorization', `Bearer ${world.sandbox.apiKey}`);
    const theirs = await api().get('/public/providers/v1/provider').set('Authorization', `Bearer ${other.apiKey}`);
    await world.testApp.runtime.requestLog.flush();
    const mineId = mine.headers['x-request-id'];
    const theirsId = theirs.headers['x-request-id'];

    // Both signed in at once, in two browsers of their own.
    const second = await newWatchedContext(browser, { viewport: WIDE });
    const otherPage = await second.context.newPage();
    try {
      await signIn(page);
      await signIn(otherPage, other.apiKey);
      const idsOn = async (on: Page) => {
        await poll(() => on.getByRole('table', { name: 'Requests' }).count()).toBe(1);
        return on.getByRole('table', { name: 'Requests' }).getByRole('link').allTextContents();
      };
      const myIds = await idsOn(page);
      expect(myIds).toContain(mineId);
      expect(myIds).not.toContain(theirsId);
      expect(await idsOn(otherPage)).toEqual([theirsId]);

      await otherPage.goto(url(`/console/requests/${mineId}`));
      await poll(() => otherPage.getByText('No request of the last 7 days has this id.').count()).toBe(1);
      await otherPage.goto(url(`/console/requests?requestId=${mineId}`));
      await poll(() => otherPage.getByText('No request of the last 7 days matches.').count()).toBe(1);
      await expectAccessible(otherPage);

      await openScreen(otherPage, 'Messages');
      await poll(() => otherPage.getByText(/^No message matches\./).count()).toBe(1);
      await expectAccessible(otherPage);

      await openScreen(otherPage, 'Keys');
      const otherPrefix = other.apiKey.split('_').slice(0, 2).join('_');
      await poll(() => otherPage.getByRole('table', { name: 'API keys' }).getByRole('row').count()).toBe(2);
      expect(await otherPage.getByRole('table', { name: 'API keys' }).textContent()).toContain(otherPrefix);
      expect(await otherPage.getByRole('table', { name: 'API keys' }).textContent()).not.toContain(
        world.sandbox.apiKey.split('_').slice(0, 2).join('_'),
      );
      expectNoProblems(second.problems);
    } finally {
      await second.context.close();
    }
    expectNoProblems();
  });
});

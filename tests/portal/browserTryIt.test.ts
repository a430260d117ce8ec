/**
 * The reference's try-it console in chromium, on the whole application as `npm start` serves it
 * (the API and the portal in one Express app, on the test database, with the demo sandbox): a
 * newcomer opens "Create an event offer" from its deep link, enters the demo key, sends an event
 * and sees it created. Also: a body that is not JSON or a failed request is said inline and
 * sends nothing, the key stays in session storage and in every form of the page, and without
 * JavaScript the console cannot send anything.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Offer } from '../../graphql/offers/Offer.js';
import type { CreatedSandbox } from '../../graphql/providers/sandbox.js';
import { generateOpenApiDocument } from '../../rest-facade/openapi.js';
import { createApp } from '../../server/app.js';
import { ensureDemoSandbox } from '../../server/demo.js';
import { createPortalHandler } from '../../server/portal.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { listenLocally } from '../support/miscLocalServer.js';
import { seriousViolations, skipBrowserTests, useBrowser } from './browserSupport.js';
import { ensurePortalBuilt } from './ensureBuilt.js';

const CREATE_EVENT = 'tag/Event-Offers/operation/PostEventOffer';
const GET_EVENT = 'tag/Event-Offers/operation/GetEvent';
const EVENTS_PATH = '/public/offers/v1/events';
const STORAGE_KEY = 'portal.try-it.api-key';

/** A valid event at the sandbox's theatre (the document's example names another venue). */
const eventBody = (venueId: number, name: string) =>
  JSON.stringify(
    {
      name,
      accessibility: {
        audioDisabilityCompliant: true,
        mentalDisabilityCompliant: false,
        motorDisabilityCompliant: true,
        visualDisabilityCompliant: false,
      },
      categoryRelatedFields: { category: 'CONCERT', musicType: 'ROCK', performer: 'The Demos' },
      location: { type: 'physical', venueId },
      hasTicket: false,
      idAtProvider: 'try-it-1',
      priceCategories: [{ label: 'Pit', price: 2500, idAtProvider: 'pit' }],
    },
    null,
    2,
  );

describe.skipIf(skipBrowserTests)('the try-it console in a browser', () => {
  let testApp: TestApp;
  let sandbox: CreatedSandbox;
  const session = useBrowser({
    serve: async () => {
      const projectRoot = ensurePortalBuilt();
      testApp = await createTestApp();
      sandbox = (await ensureDemoSandbox(testApp.runtime))!;
      // As server/main.ts builds it: the API's routes, then the portal rendering the same document.
      const portal = await createPortalHandler({
        mode: 'production',
        projectRoot,
        openApiDocument: generateOpenApiDocument(testApp.runtime.routes, testApp.runtime.config),
      });
      const server = await listenLocally(createApp(testApp.runtime, { portal }));
      return {
        baseUrl: server.baseUrl,
        close: async () => {
          await server.close();
          await testApp.close();
        },
      };
    },
  });

  async function open(path: string, { javaScriptEnabled = true } = {}) {
    const { page, problems } = await session.open({ javaScriptEnabled });
    // Every request the page makes to the API, with its headers as sent.
    const apiRequests: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/public/')) apiRequests.push(request);
    });
    await page.goto(`${session.baseUrl}${path}`);
    return { page, problems, apiRequests };
  }

  /** Resolves once the reference's client chunk has run (it enhances the search box last). */
  async function referenceClientReady(page: Page) {
    await page.locator('[data-reference-search-box][data-enhanced]').waitFor({ state: 'attached' });
  }

  /** The operation's console, opened; with JavaScript, once the client has made its form. */
  async function openConsole(page: Page, anchor: string | null, { enhanced = true } = {}) {
    // null: the page of one operation's samples, where the console is the only one.
    const operation = anchor === null ? page.locator('.operation-page__body') : page.locator(`[id="${anchor}"]`);
    const panel = operation.locator('details[data-try-it]');
    if (enhanced) {
      await referenceClientReady(page);
      // The console comes with the operation's samples, which the client puts in near the viewport.
      await operation.locator('.operation__aside').scrollIntoViewIfNeeded();
    }
    await panel.locator('summary').click();
    if (enhanced) await panel.locator('form[data-enhanced]').waitFor({ state: 'attached' });
    return {
      panel,
      key: panel.getByLabel('API key'),
      body: panel.getByLabel('Body'),
      send: panel.getByRole('button', { name: 'Send' }),
      output: panel.locator('[data-try-it-output]'),
    };
  }

  it('with the demo key, "Create an event offer" creates the event and shows 200 with its id', async () => {
    const { page, problems, apiRequests } = await open(`/rest-api#${CREATE_EVENT}`);
    const tryIt = await openConsole(page, CREATE_EVENT);
    expect(await tryIt.output.getAttribute('aria-live')).toBe('polite');
    expect(await tryIt.key.getAttribute('type')).toBe('password');
    await tryIt.key.fill(sandbox.apiKey);
    await tryIt.body.fill(eventBody(sandbox.venues[0].id, 'Try-it night'));
    expect(apiRequests).toEqual([]);

    await tryIt.send.click();
    const status = tryIt.output.locator('.try-it__status');
    await status.filter({ hasText: /^200\b/ }).waitFor();
    expect(await status.innerText()).toMatch(/^200 OK in \d+ ms$/);
    const shown = JSON.parse(await tryIt.output.locator('.try-it__body').innerText()) as {
      id: number;
      name: string;
      status: string;
    };
    // Approved within its creation (no approval delay), with no date yet.
    expect(shown).toMatchObject({ id: expect.any(Number), name: 'Try-it night', status: 'SOLD_OUT' });
    // Pretty-printed, and the headers behind their toggle.
    expect(await tryIt.output.locator('.try-it__body').innerText()).toContain(`\n  "id": ${shown.id},`);
    await tryIt.output.locator('.try-it__headers > summary').click();
    expect(await tryIt.output.locator('.try-it__headers pre').innerText()).toMatch(/^content-type: application\/json/m);

    // The event is in the database, at the sandbox's theatre.
    const stored = await testApp.database.orm.em.fork().findOne(Offer, shown.id);
    expect(stored).toMatchObject({ name: 'Try-it night', isEvent: true });

    // One request, to this server, with the key in its header and never in a URL.
    expect(apiRequests).toHaveLength(1);
    const [sent] = apiRequests;
    expect(sent.url()).toBe(`${session.baseUrl}${EVENTS_PATH}`);
    expect(sent.method()).toBe('POST');
    expect(await sent.allHeaders()).toMatchObject({
      authorization: `Bearer ${sandbox.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(page.url()).toBe(`${session.baseUrl}/rest-api#${CREATE_EVENT}`);
    expect(page.url()).not.toContain(sandbox.apiKey);

    // The key is in session storage, never local storage, and in the next console opened.
    expect(await page.evaluate((key) => sessionStorage.getItem(key), STORAGE_KEY)).toBe(sandbox.apiKey);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(sandbox.apiKey);
    const other = await openConsole(page, GET_EVENT);
    expect(await other.key.inputValue()).toBe(sandbox.apiKey);
    // Only the consoles opened have a form: the others wait in their templates.
    expect(await page.locator('form.try-it__form').count()).toBe(2);

    // axe on the opened panel only: the whole reference takes it half a minute (its own tests check the page).
    expect(await seriousViolations(page, [`[id="${CREATE_EVENT}"] details[data-try-it]`])).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
  });

  it('sends a write with an Idempotency-Key: Send again replays the answer, a changed body gets a new key', async () => {
    const { page, apiRequests } = await open(`/rest-api#${CREATE_EVENT}`);
    const tryIt = await openConsole(page, CREATE_EVENT);
    await tryIt.key.fill(sandbox.apiKey);
    await tryIt.body.fill(eventBody(sandbox.venues[0].id, 'Retried night').replace('try-it-1', 'try-it-retried'));
    const idempotencyKey = tryIt.panel.getByLabel('Idempotency-Key');
    const key = await idempotencyKey.inputValue();
    expect(key).toMatch(/^[0-9a-f-]{32,36}$/);

    await tryIt.send.click();
    await tryIt.output
      .locator('.try-it__status')
      .filter({ hasText: /^200\b/ })
      .waitFor();
    await tryIt.send.click();
    await tryIt.output
      .locator('.try-it__headers pre')
      .filter({ hasText: 'idempotent-replayed: true' })
      .waitFor({ state: 'attached' });
    expect(await tryIt.output.locator('.try-it__status').innerText()).toMatch(/^200 OK in \d+ ms$/);
    expect(apiRequests).toHaveLength(2);
    for (const sent of apiRequests) expect(await sent.headerValue('idempotency-key')).toBe(key);
    // Sent twice, created once.
    expect(await testApp.database.orm.em.fork().count(Offer, { name: 'Retried night' })).toBe(1);

    // Another request is another key; the API key typed is not a change of the request.
    await tryIt.key.fill(`${sandbox.apiKey} `);
    expect(await idempotencyKey.inputValue()).toBe(key);
    // (the answer shown is labelled "Response body" too: the textarea by its name)
    await tryIt.panel.locator('textarea[name="body"]').fill(eventBody(sandbox.venues[0].id, 'Another night'));
    expect(await idempotencyKey.inputValue()).not.toBe(key);
  });

  it('a path parameter is sent encoded into the path, and an error answer shows its status and body', async () => {
    const { page, apiRequests } = await open(`/rest-api#${GET_EVENT}`);
    const tryIt = await openConsole(page, GET_EVENT);
    await tryIt.key.fill(sandbox.apiKey);
    await tryIt.panel.getByLabel('event_id').fill('999999');
    await tryIt.send.click();
    await tryIt.output
      .locator('.try-it__status')
      .filter({ hasText: /^404\b/ })
      .waitFor();
    expect(apiRequests.map((request) => request.url())).toEqual([`${session.baseUrl}${EVENTS_PATH}/999999`]);
    expect(await tryIt.output.locator('.try-it__body').innerText()).toContain('"');

    // An empty required parameter is said inline, and nothing is sent.
    await tryIt.panel.getByLabel('event_id').fill('');
    await tryIt.send.click();
    expect(await tryIt.output.locator('.try-it__error').innerText()).toBe('Missing required parameter: event_id');
    expect(apiRequests).toHaveLength(1);
  });

  it('a body that is not JSON, a missing key and a failed request are said inline; the first two send nothing', async () => {
    const { page, apiRequests } = await open(`/rest-api#${CREATE_EVENT}`);
    const tryIt = await openConsole(page, CREATE_EVENT);
    await tryIt.body.fill(eventBody(sandbox.venues[0].id, 'Never sent'));
    await tryIt.send.click();
    expect(await tryIt.output.locator('.try-it__error').innerText()).toBe('Enter your API key first.');

    await tryIt.key.fill(sandbox.apiKey);
    await tryIt.body.fill('{"name": "Never sent",}');
    await tryIt.send.click();
    expect(await tryIt.output.locator('.try-it__error').innerText()).toMatch(/^The body is not valid JSON: /);
    expect(apiRequests).toEqual([]);

    await page.route(`${session.baseUrl}${EVENTS_PATH}`, (route) => route.abort('connectionrefused'));
    await tryIt.body.fill(eventBody(sandbox.venues[0].id, 'Never arrives'));
    await tryIt.send.click();
    await tryIt.output
      .locator('.try-it__error')
      .filter({ hasText: /^The request could not be sent: / })
      .waitFor();
    expect(await tryIt.send.isEnabled()).toBe(true);
    expect(await testApp.database.orm.em.fork().count(Offer, { name: { $in: ['Never sent', 'Never arrives'] } })).toBe(
      0,
    );
  });

  it('the key typed once is kept for the tab: after a reload every console opened has it', async () => {
    const { page } = await open(`/rest-api#${GET_EVENT}`);
    const tryIt = await openConsole(page, GET_EVENT);
    await tryIt.key.fill('a-key-for-this-tab');
    await page.reload();
    expect(await (await openConsole(page, GET_EVENT)).key.inputValue()).toBe('a-key-for-this-tab');
    expect(await (await openConsole(page, CREATE_EVENT)).key.inputValue()).toBe('a-key-for-this-tab');
  });

  it('without JavaScript, the console says it needs JavaScript and has nothing to type a key into or send', async () => {
    // The reference links the operation's samples and console; they are on a page of their own.
    const { page, apiRequests } = await open(`/rest-api#${CREATE_EVENT}`, { javaScriptEnabled: false });
    await page.locator(`[id="${CREATE_EVENT}"] .operation__aside a`).click();
    await page.waitForURL(`${session.baseUrl}/rest-api/operations/PostEventOffer`);
    const tryIt = await openConsole(page, null, { enhanced: false });
    expect(await tryIt.panel.getByText('Sending needs JavaScript.').isVisible()).toBe(true);
    expect(await tryIt.key.count()).toBe(0);
    expect(await tryIt.send.count()).toBe(0);
    expect(await page.locator('form.try-it__form').count()).toBe(0);
    expect(apiRequests).toEqual([]);
    expect(page.url()).toBe(`${session.baseUrl}/rest-api/operations/PostEventOffer`);
  });
});

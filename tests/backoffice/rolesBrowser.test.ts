import type { BrowserContext, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { Offer } from '../../graphql/offers/Offer.js';
import { ApiKey } from '../../graphql/providers/ApiKey.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { Job } from '../../platform/jobs/Job.js';
import { enqueue } from '../../platform/jobs/outbox.js';
import { drainJobs } from '../support/builders.js';
import { anEvent } from '../support/fixtures.js';
import { STAFF_ACCOUNTS, STAFF_PASSWORD, type StaffAccountName } from '../support/identityProvider.js';
import { type PageProblems, seriousViolations, skipBrowserTests, useBrowser } from '../portal/browserSupport.js';
import { ensurePortalBuilt } from '../portal/ensureBuilt.js';
import { aBackOfficeWorld, type BackOfficeWorld } from './backOfficeWorld.js';

/** Screens render once /graphql answered: a condition is awaited for a while (the machine is shared). */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000, interval: 100 });

describe.skipIf(skipBrowserTests)('The back office in a browser, signed in through the identity provider', () => {
  let world: BackOfficeWorld;
  // Without break-glass: people sign in with the IdP only. Each test's pages threw nothing and fetched nothing outside.
  const session = useBrowser({
    serve: async () => {
      ensurePortalBuilt();
      world = await aBackOfficeWorld({ breakGlass: false });
      return { baseUrl: world.server.baseUrl, close: () => world.close() };
    },
  });
  let context: BrowserContext;
  let problems: PageProblems;
  let page: Page;
  const url = (path: string) => `${world.server.baseUrl}${path}`;
  const em = () => world.testApp.database.orm.em.fork();
  const navigation = () => page.getByRole('navigation', { name: 'Back office' }).getByRole('link');

  /** From a back-office page to the IdP's sign-in form, and back signed in (or refused). */
  async function signInAs(account: StaffAccountName, path = '/backoffice') {
    await page.goto(url(path));
    await page.getByRole('link', { name: 'Sign in with your organisation' }).click();
    await page.waitForURL((address) => address.origin === world.identityProvider.issuer);
    await page.getByLabel('E-mail').fill(STAFF_ACCOUNTS[account].email);
    await page.getByLabel('Password').fill(STAFF_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((address) => address.origin === world.server.baseUrl);
  }

  beforeEach(async () => {
    ({ page, context, problems } = await session.open());
  });

  it('a reviewer reviews the queue, sees no other screen, and is refused the others', async () => {
    const owner = { providerId: world.sandbox.provider.id, venueId: world.sandbox.venues[0].id };
    const offer = await anEvent(em(), world.testApp.clock, owner, {
      name: 'Choir at dusk',
      validation: 'PENDING',
      publishedAt: null,
    });
    await signInAs('reviewer');
    expect(new URL(page.url()).pathname).toBe('/backoffice');
    expect(await page.getByText('Rita Reviewer (reviewer)').count()).toBe(1);
    expect(await navigation().allTextContents()).toEqual(['Review queue', 'GraphiQL']);
    await poll(() => page.getByRole('heading', { level: 2, name: /Choir at dusk/ }).count()).toBe(1);
    await page.getByRole('checkbox', { name: 'Select Choir at dusk' }).check();
    await page.getByRole('button', { name: 'Approve selected (1)' }).click();
    await poll(() => page.getByRole('status').allTextContents()).toContain('1 offer approved.');
    expect((await em().findOneOrFail(Offer, offer.id)).validation).toBe('APPROVED');
    expect(problems.pageErrors).toEqual([]);

    const refused = await page.goto(url('/backoffice/jobs'));
    expect(refused?.status()).toBe(403);
  });

  it('support issues a key and retries a job, without the admin’s buttons', async () => {
    world.testApp.runtime.jobs.register('roles.test', () => Promise.reject(new Error('This job always fails')));
    const fork = em();
    const job = enqueue(fork, world.testApp.clock, 'roles.test', {}, { maxAttempts: 1 });
    await fork.flush();
    await drainJobs(world.testApp);

    await signInAs('support');
    // The home page is the review queue, which support does not use: the first screen they do.
    await page.waitForURL(url('/backoffice/providers'));
    expect(await navigation().allTextContents()).toEqual(['Providers', 'Messages', 'Requests', 'Jobs', 'GraphiQL']);
    await page.goto(url(`/backoffice/providers/${world.sandbox.provider.id}`));
    await poll(() => page.getByRole('heading', { level: 2, name: 'API keys' }).count()).toBe(1);
    for (const adminOnly of ['Deactivate provider', 'Withdraw individual-offer rights', 'Rotate messaging secret']) {
      expect(await page.getByRole('button', { name: adminOnly }).count(), adminOnly).toBe(0);
    }
    const keysBefore = await em().count(ApiKey, { provider: world.sandbox.provider.id });
    await page.getByLabel('Label of the new key').fill('issued by support');
    await page.getByRole('button', { name: 'Issue a key' }).click();
    await poll(() => page.getByTestId('shown-once').count()).toBe(1);
    expect(await em().count(ApiKey, { provider: world.sandbox.provider.id })).toBe(keysBefore + 1);

    await page.goto(url('/backoffice/jobs'));
    await poll(() => page.getByRole('button', { name: `Retry job ${job.id}` }).count()).toBe(1);
    expect(await page.getByRole('button', { name: `Discard job ${job.id}` }).count()).toBe(0);
    await page.getByRole('button', { name: `Retry job ${job.id}` }).click();
    await poll(() => page.getByRole('status').allTextContents()).toContain('Job queued again.');
    expect((await em().findOneOrFail(Job, job.id)).status).toBe('pending');
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.externalRequests).toEqual([]);

    const refused = await page.goto(url('/backoffice'));
    expect(new URL(refused!.url()).pathname).toBe('/backoffice/providers');
  });

  it('an admin sees every screen and rotates a messaging secret, then signs out', async () => {
    await signInAs('admin', `/backoffice/providers/${world.sandbox.provider.id}`);
    expect(await navigation().allTextContents()).toEqual([
      'Review queue',
      'Providers',
      'Messages',
      'Requests',
      'Jobs',
      'Audit trail',
      'GraphiQL',
    ]);
    const before = (await em().findOneOrFail(Provider, world.sandbox.provider.id, { populate: ['messagingSecret'] }))
      .messagingSecret;
    await poll(() => page.getByRole('button', { name: 'Rotate messaging secret' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Rotate messaging secret' }).click();
    await poll(() => page.getByTestId('shown-once').count()).toBe(1);
    const after = await em().findOneOrFail(Provider, world.sandbox.provider.id, { populate: ['messagingSecret'] });
    expect(after.messagingSecret).not.toBe(before);
    expect(await page.getByTestId('shown-once').textContent()).toContain(after.messagingSecret);

    // The rotation is on the audit trail, in the person's name, which the identity provider gave.
    await page.goto(url('/backoffice/audit?action=provider.messaging_secret_rotated'));
    const rotation = page.locator('tbody tr', { hasText: 'provider.messaging_secret_rotated' });
    await poll(() => rotation.count()).toBe(1);
    expect(await rotation.textContent()).toContain(STAFF_ACCOUNTS.admin.email);

    const session = (await context.cookies()).find((cookie) => cookie.name === 'backoffice_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    // Signing out here ends the session at the identity provider too (RP-initiated logout): it asks
    // the person to confirm, then sends the browser back to the sign-in page.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((address) => address.origin === world.identityProvider.issuer);
    await page.getByRole('button', { name: /sign me out/i }).click();
    await page.waitForURL(url('/backoffice/sign-in'));
    await page.goto(url('/backoffice/jobs'));
    expect(new URL(page.url()).pathname).toBe('/backoffice/sign-in');
    expect(problems.pageErrors).toEqual([]);
  });

  it('refuses a person outside the organisation’s domain, with no key form to fall back on', async () => {
    await page.goto(url('/backoffice/sign-in'));
    expect(await page.getByLabel(/Internal key/).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await signInAs('outsider');
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'This account cannot open the back office',
    );
    expect(await page.getByRole('alert').textContent()).toContain('outside the organisation');
    expect(await seriousViolations(page)).toEqual([]);
    expect((await context.cookies()).some((cookie) => cookie.name === 'backoffice_session')).toBe(false);
  });
});

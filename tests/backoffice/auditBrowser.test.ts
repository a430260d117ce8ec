import type { BrowserContext, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { Provider } from '../../graphql/providers/Provider.js';
import { AuditEntry } from '../../platform/audit/index.js';
import { type PageProblems, seriousViolations, skipBrowserTests, useBrowser } from '../portal/browserSupport.js';
import { aBackOfficeWorld, type BackOfficeWorld } from './backOfficeWorld.js';

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000, interval: 100 });

describe.skipIf(skipBrowserTests)('The audit trail screen in a browser', () => {
  let world: BackOfficeWorld;
  const session = useBrowser({
    serve: async () => {
      world = await aBackOfficeWorld();
      return { baseUrl: world.server.baseUrl, close: () => world.close() };
    },
  });
  let context: BrowserContext;
  let problems: PageProblems;
  let page: Page;
  const url = (path: string) => `${world.server.baseUrl}${path}`;
  const em = () => world.testApp.database.orm.em.fork();

  async function signIn() {
    await page.goto(url('/backoffice'));
    await page.getByLabel('Internal key').fill(world.internalKey);
    await page.getByLabel('Internal key').press('Enter');
    await page.waitForURL(url('/backoffice'));
  }

  /** Follows a link of the navigation from the keyboard. */
  async function follow(name: string) {
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name }).focus();
    await page.keyboard.press('Enter');
  }

  const rows = () => page.getByRole('table', { name: 'Audit trail' }).getByRole('row');

  beforeEach(async () => {
    ({ page, context, problems } = await session.open());
  });

  it('shows a secret rotated from the provider page and the sign-in, filters them, and exports them as CSV', async () => {
    const provider = world.sandbox.provider;
    await signIn();
    await page.goto(url(`/backoffice/providers/${provider.id}`));
    const rotate = page.getByRole('button', { name: 'Rotate messaging secret' });
    await rotate.focus();
    await page.keyboard.press('Enter');
    await poll(() => page.getByTestId('shown-once').count()).toBe(1);
    const secret = (await page.getByTestId('shown-once').textContent()) ?? '';
    expect(secret.length).toBeGreaterThan(20);

    await follow('Audit trail');
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Audit trail');
    await poll(() => rows().count()).toBe(3);
    expect(await rows().nth(1).textContent()).toContain('provider.messaging_secret_rotated');
    expect(await rows().nth(1).textContent()).toContain(`provider ${provider.id}`);
    expect(await rows().nth(1).textContent()).toContain('back office');
    expect(await rows().nth(2).textContent()).toContain('staff.signed_in');
    expect(await page.locator('main').textContent()).not.toContain(secret);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Action').selectOption('staff.signed_in');
    await poll(() => rows().count()).toBe(2);
    expect(await rows().nth(1).textContent()).toContain('staff.signed_in');
    const exportLink = page.getByRole('link', { name: 'Export as CSV' });
    expect(await exportLink.getAttribute('href')).toBe('/backoffice/audit.csv?action=staff.signed_in');
    const csv = await context.request.get(url((await exportLink.getAttribute('href')) ?? ''));
    expect(csv.status()).toBe(200);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',staff.signed_in,staff_session,');

    await page.getByLabel('Target id').fill('999999');
    await poll(() => page.getByText('No staff action matches.').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    // The database holds what the screen showed, and no secret.
    expect(JSON.stringify(await em().find(AuditEntry, {}))).not.toContain(secret);
    const stored = await em().findOneOrFail(Provider, provider.id, { populate: ['messagingSecret'] });
    expect(stored.messagingSecret).toBe(secret);
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.externalRequests).toEqual([]);
  });

  it('says when the trail cannot be read, and reads it again on Retry', async () => {
    await signIn();
    await page.route('**/graphql', (route) =>
      route.request().postDataJSON()?.operationName === 'AuditEntries'
        ? route.fulfill({ json: { errors: [{ message: 'The trail is away' }] } })
        : route.fallback(),
    );
    await page.goto(url('/backoffice/audit'));
    await poll(() => page.getByRole('alert').textContent()).toContain('Could not load: The trail is away');
    expect(await seriousViolations(page)).toEqual([]);
    await page.unroute('**/graphql');
    await page.getByRole('button', { name: 'Retry' }).focus();
    await page.keyboard.press('Enter');
    await poll(() => rows().count()).toBeGreaterThan(1);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('records signing out, shown after the next sign-in', async () => {
    await signIn();
    await page.getByRole('button', { name: 'Sign out' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/backoffice/sign-in'));
    await signIn();
    await page.goto(url('/backoffice/audit?action=staff.signed_out'));
    await poll(() => rows().count()).toBeGreaterThan(1);
    expect(await page.getByLabel('Action').inputValue()).toBe('staff.signed_out');
    expect(await rows().nth(1).textContent()).toContain('staff.signed_out');
  });
});

/**
 * The commands that link an existing venue to a provider and end that link, driven as the CLI runs
 * them, and seen through the API as the provider's key sees its venues.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import type { CreatedSandbox } from '../../graphql/providers/sandbox.js';
import { type CommandContext, commands } from '../../server/cli/commands.js';
import { ensureDemoSandbox } from '../../server/demo.js';
import { createTestApp, type TestApp } from '../support/app.js';

describe('npm run cli -- link-venue / unlink-venue', () => {
  let testApp: TestApp;
  let sandbox: CreatedSandbox;
  let otherKey: string;
  let otherProviderId: number;
  const context = (): CommandContext => ({
    em: testApp.runtime.orm.em.fork(),
    clock: testApp.clock,
    keyEnv: 'development',
  });
  const run = (name: string, options: Record<string, string>) => commands[name].run(options, [], context());
  const venueIdsOfOtherKey = async () => {
    const response = await request(testApp.app)
      .get('/public/offers/v1/offerer_venues')
      .set('Authorization', `Bearer ${otherKey}`);
    expect(response.status).toBe(200);
    return (response.body as { venues: { id: number }[] }[]).flatMap((entry) => entry.venues.map((venue) => venue.id));
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    sandbox = (await ensureDemoSandbox(testApp.runtime))!;
    otherProviderId = (await run('create-provider', { name: 'Second Ticketing' })).providerId as number;
    otherKey = (await run('create-key', { provider: String(otherProviderId) })).apiKey as string;
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it("lets a second provider's key reach a venue another provider manages, and leaves the first link alone", async () => {
    const venueId = sandbox.venues[0].id;
    expect(await venueIdsOfOtherKey()).toEqual([]);
    expect(await run('link-venue', { venue: String(venueId), provider: String(otherProviderId) })).toEqual({
      venueId,
      providerId: otherProviderId,
      isActive: true,
    });
    expect(await venueIdsOfOtherKey()).toEqual([venueId]);
    const links = await testApp.runtime.orm.em
      .fork()
      .find(VenueProvider, { venue: venueId }, { orderBy: { id: 'asc' } });
    expect(links.map((link) => [link.provider.id, link.isActive])).toEqual([
      [sandbox.provider.id, true],
      [otherProviderId, true],
    ]);
  });

  it('ends the link: the venue answers 404 to that key, and linking it again restores it', async () => {
    const venueId = sandbox.venues[0].id;
    const siret = sandbox.venues[0].siret!;
    const bySiret = () =>
      request(testApp.app).get(`/public/offers/v1/venues/${siret}`).set('Authorization', `Bearer ${otherKey}`);
    expect((await bySiret()).status).toBe(200);
    expect(await run('unlink-venue', { venue: String(venueId), provider: String(otherProviderId) })).toMatchObject({
      isActive: false,
    });
    expect((await bySiret()).status).toBe(404);
    expect(await venueIdsOfOtherKey()).toEqual([]);
    await run('link-venue', { venue: String(venueId), provider: String(otherProviderId) });
    expect((await bySiret()).status).toBe(200);
    expect(await testApp.runtime.orm.em.fork().count(VenueProvider, { venue: venueId })).toBe(2);
  });

  it('refuses an unknown venue or provider, and a link that does not exist, writing nothing', async () => {
    const before = await testApp.runtime.orm.em.fork().count(VenueProvider, {});
    await expect(run('link-venue', { venue: '999999', provider: String(otherProviderId) })).rejects.toThrow(
      'No venue 999999',
    );
    await expect(run('link-venue', { venue: String(sandbox.venues[1].id), provider: '999999' })).rejects.toThrow(
      'No provider 999999',
    );
    await expect(
      run('unlink-venue', { venue: String(sandbox.venues[1].id), provider: String(otherProviderId) }),
    ).rejects.toThrow(`Venue ${sandbox.venues[1].id} is not linked to provider ${otherProviderId}`);
    await expect(run('link-venue', { venue: 'x', provider: '1' })).rejects.toThrow('--venue');
    expect(await testApp.runtime.orm.em.fork().count(VenueProvider, {})).toBe(before);
  });
});

import { describe, expect, it } from 'vitest';
import { Offer } from '../../graphql/offers/Offer.js';
import { Job } from '../../platform/jobs/Job.js';
import { expectStatus } from '../support/api.js';
import { graphqlAs } from '../support/builders.js';
import { anItem, aProductBody, anotherProviderAt, catalogue, useOfferWorld } from '../support/offerWorld.js';

const HOUR = 3_600_000;
const NOW = new Date('2026-11-22T10:00:00Z');
const RUN = `mutation Run($at: DateTimeISO!) {
  sandboxRunScheduledJobs(at: $at) { used expired reimbursed approved collectiveApproved published productImports }
}`;

describe('sandboxRunScheduledJobs: the offers’ jobs due for the caller (AUTO_APPROVAL_DELAY_SECONDS 3600)', () => {
  const world = useOfferWorld({ env: { AUTO_APPROVAL_DELAY_SECONDS: '3600' } });
  const bookshop = () => world.sandbox.venues[1].id;
  const run = async (at: Date, key = world.sandbox.apiKey) => {
    const answer = await graphqlAs(world.testApp, key, RUN, { at: at.toISOString() });
    expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
    return answer.body.data.sandboxRunScheduledJobs;
  };
  const postProduct = async (overrides: Record<string, unknown> = {}, key?: string) => {
    const response = await world.api.call('PostProductOffer', { body: aProductBody(bookshop(), overrides), key });
    expectStatus(response, 201);
    return response.body;
  };
  const statusOf = async (id: number, key?: string) =>
    (await world.api.call('GetProduct', { params: { product_id: id }, key })).body.status;
  const nothing = {
    used: 0,
    expired: 0,
    reimbursed: 0,
    approved: 0,
    collectiveApproved: 0,
    published: 0,
    productImports: 0,
  };

  it('approves the caller’s offers whose approval is due by `at`, and only theirs', async () => {
    const mine = await postProduct();
    const stranger = await anotherProviderAt(world, bookshop());
    const theirs = await postProduct({}, stranger.key);
    expect([mine.status, theirs.status]).toEqual(['PENDING', 'PENDING']);

    expect(await run(new Date(NOW.getTime() + HOUR - 1))).toEqual(nothing);
    expect(await statusOf(mine.id)).toBe('PENDING');

    expect(await run(new Date(NOW.getTime() + 2 * HOUR))).toEqual({ ...nothing, approved: 1 });
    expect(await statusOf(mine.id)).toBe('ACTIVE');
    expect(await world.em().findOneOrFail(Offer, mine.id)).toMatchObject({
      validation: 'APPROVED',
      validatedAt: new Date(NOW.getTime() + 2 * HOUR),
    });
    // The caller's job is done; the other provider's offer and job wait for the worker.
    const jobs = await world.em().find(Job, { type: 'offers.autoApprove' }, { orderBy: { id: 'asc' } });
    expect(jobs.map((job) => [job.payload.offerIds, job.status])).toEqual([
      [[mine.id], 'done'],
      [[theirs.id], 'pending'],
    ]);
    expect(await statusOf(theirs.id, stranger.key)).toBe('PENDING');
    expect(await run(new Date(NOW.getTime() + 2 * HOUR))).toEqual(nothing);
  });

  it('publishes the caller’s offers whose publicationDatetime has come by `at`, and not another provider’s', async () => {
    const inAnHour = new Date(NOW.getTime() + HOUR).toISOString();
    const mine = await postProduct({ publicationDatetime: inAnHour });
    const stranger = await anotherProviderAt(world, bookshop());
    const theirs = await postProduct({ publicationDatetime: inAnHour }, stranger.key);

    expect(await run(new Date(NOW.getTime() + 2 * HOUR))).toEqual({ ...nothing, approved: 1, published: 1 });
    expect(await statusOf(mine.id)).toBe('ACTIVE');
    const row = await world.em().findOneOrFail(Offer, mine.id);
    expect(row.publishedAt?.toISOString()).toBe(new Date(NOW.getTime() + 2 * HOUR).toISOString());
    expect((await world.em().findOneOrFail(Offer, theirs.id)).publishedAt).toBeNull();
  });

  it('applies the caller’s queued bulk upsert by EAN at once, as at `at`, leaving another provider’s queued', async () => {
    const [book, otherBook] = catalogue.books;
    const upsert = (ean: string, key?: string) =>
      world.api.call('PostProductOfferByEan', {
        body: { location: { type: 'physical', venueId: bookshop() }, products: [anItem(ean)] },
        key,
      });
    const stranger = await anotherProviderAt(world, bookshop());
    expectStatus(await upsert(book.ean), 204);
    expectStatus(await upsert(otherBook.ean, stranger.key), 204);

    const at = new Date(NOW.getTime() + 10 * 60_000);
    expect(await run(at)).toEqual({ ...nothing, productImports: 1 });
    const created = await world.em().find(Offer, { ean: book.ean, provider: world.sandbox.provider.id });
    expect(created.map((offer) => [offer.validation, offer.createdAt.toISOString()])).toEqual([
      ['PENDING', at.toISOString()],
    ]);
    expect(await world.em().count(Offer, { ean: otherBook.ean })).toBe(0);
    const importJobs = await world.em().find(Job, { type: 'offers.productImport' }, { orderBy: { id: 'asc' } });
    expect(importJobs.map((job) => job.status)).toEqual(['done', 'pending']);
    // Its approval is then due an hour after `at`.
    expect(await run(new Date(at.getTime() + HOUR))).toEqual({ ...nothing, approved: 1 });
    expect((await world.em().findOneOrFail(Offer, created[0].id)).validation).toBe('APPROVED');
  });
});

import { describe, expect, it } from 'vitest';
import { Offer } from '../../graphql/offers/Offer.js';
import { ProductImport } from '../../graphql/offers/products/ProductImport.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { Job } from '../../platform/jobs/Job.js';
import { fiveHundredEans } from '../support/eanBatch.js';
import { parseJsonLine } from '../support/serverProcess.js';
import { useServerRuns } from './serverRuns.js';

/**
 * A bulk upsert by EAN is applied by a job of several steps (100 items each, one transaction
 * each). The process is killed (SIGKILL: no shutdown of any kind) right after the first step
 * commits; a new process on the same database finishes the work, and nothing is lost or doubled.
 */
describe('a bulk upsert by EAN whose process is killed in the middle', () => {
  const runs = useServerRuns('product-import-restart-');

  const { saleable, wrongCheckDigit, items } = fiveHundredEans();

  it('resumes after a restart from the last committed step and applies every item exactly once', async () => {
    expect(saleable.length).toBeGreaterThan(250);
    const first = await runs.start();
    const apiKey = first.lines.find((line) => line.startsWith('Demo API key: '))!.slice('Demo API key: '.length);
    const venueIds = await runs.readDatabase(async (em) =>
      (await em.find(Venue, { isVirtual: false }, { orderBy: { id: 'asc' } })).map((venue) => venue.id),
    );
    expect(venueIds).toHaveLength(2);

    expect(items).toHaveLength(500);
    for (const [index, venueId] of venueIds.entries()) {
      const response = await fetch(`${first.baseUrl}/public/offers/v1/products/ean`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          location: { type: 'physical', venueId },
          products: items.map((ean) => ({ ean, stock: { price: 1000 + index, quantity: 3 } })),
        }),
      });
      expect(response.status, await response.text()).toBe(204);
    }

    await first.waitForLine(
      (line) => parseJsonLine(line)?.msg === 'job step committed',
      'the first committed step',
      30_000,
    );
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const cut = await runs.readDatabase(async (em) => ({
      imports: await em.find(ProductImport, {}, { orderBy: { id: 'asc' } }),
      offers: await em.count(Offer, { isEvent: false }),
      stocks: await em.count(Stock, { isDeleted: false }),
      jobs: await em.find(Job, { type: 'offers.productImport' }),
    }));
    const applied = cut.imports.reduce((sum, productImport) => sum + productImport.nextIndex, 0);
    expect(applied, 'killed in the middle').toBeGreaterThan(0);
    expect(applied, 'killed in the middle').toBeLessThan(1000);
    // What is committed is exactly what the progress says: whole steps, nothing of the step cut short.
    const created = cut.imports.reduce((sum, productImport) => sum + productImport.createdCount, 0);
    expect(cut.offers).toBe(created);
    expect(cut.stocks).toBe(created);
    expect(cut.jobs.filter((job) => job.status !== 'done').length, 'work left for the next process').toBeGreaterThan(0);

    const second = await runs.start({ JOB_LEASE_SECONDS: '2' });
    const jobsDone = () =>
      second.jsonLines.filter((line) => line.msg === 'job done' && line.jobType === 'offers.productImport').length;
    await second.waitForLine(
      () => jobsDone() >= cut.jobs.filter((job) => job.status !== 'done').length,
      'the imports to finish',
      60_000,
    );
    const stopped = await second.stop('SIGTERM');
    expect(stopped.code).toBe(0);

    await runs.readDatabase(async (em) => {
      const imports = await em.find(ProductImport, {}, { orderBy: { id: 'asc' } });
      for (const productImport of imports) {
        expect(productImport).toMatchObject({
          status: 'DONE',
          nextIndex: 500,
          createdCount: saleable.length,
          updatedCount: 0,
        });
        expect(productImport.rejected).toHaveLength(wrongCheckDigit.length);
        expect(new Set(productImport.rejected.map((rejection) => rejection.reason))).toEqual(new Set(['invalidEan']));
      }
      for (const [index, venueId] of venueIds.entries()) {
        const offers = await em.find(Offer, { venue: venueId, isEvent: false });
        expect(offers).toHaveLength(saleable.length);
        expect(new Set(offers.map((offer) => offer.ean))).toEqual(new Set(saleable));
        const stocks = await em.find(Stock, { offer: { venue: venueId }, isDeleted: false });
        expect(stocks).toHaveLength(saleable.length);
        expect(new Set(stocks.map((stock) => `${stock.price}/${stock.quantity}`))).toEqual(
          new Set([`${1000 + index}/3`]),
        );
      }
      expect(await em.count(Job, { type: 'offers.productImport', status: { $ne: 'done' } })).toBe(0);
    });
  }, 180_000);
});

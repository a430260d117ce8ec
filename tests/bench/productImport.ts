import { CatalogueProduct } from '../../graphql/offers/eanCatalogue/CatalogueProduct.js';
import { withEanCheckDigit } from '../../graphql/offers/eanCatalogue/ean.js';
import { ProductImport } from '../../graphql/offers/products/ProductImport.js';
import { PRODUCTS_BY_EAN_MAX } from '../../graphql/offers/limits.js';
import { median } from './measure.js';
import type { Bench } from './harness.js';
import type { BenchTarget } from './target.js';

const CREATION_RUNS = 3;
/** The target of the issue: 500 EANs processed in under 2 seconds on PostgreSQL. */
export const IMPORT_TARGET_MS = 2_000;
const POLL_MS = 5;

/**
 * Catalogue products of the benchmark's own (paper books, compliant), beyond the sandbox
 * catalogue's: each creation run puts 500 EANs never seen before on sale.
 */
async function seedBenchCatalogue(target: BenchTarget, count: number): Promise<string[]> {
  const em = target.runtime.orm.em.fork();
  const eans = Array.from({ length: count }, (_, index) =>
    withEanCheckDigit(`9782999${String(index).padStart(5, '0')}`),
  );
  await em.upsertMany(
    CatalogueProduct,
    eans.map((ean, index) => ({
      ean,
      title: `Bench book ${index + 1}`,
      author: 'Bench Author',
      performer: null,
      category: 'LIVRE_PAPIER',
      musicType: null,
      compliant: true,
      description: null,
    })),
  );
  return eans;
}

async function importFinished(target: BenchTarget, after: number): Promise<ProductImport> {
  const where = { id: { $gt: after } };
  // Only the status while waiting: the import's 500 items are no part of what is measured.
  while (
    (await target.runtime.orm.em.fork().findOne(ProductImport, where, { fields: ['status'], disableIdentityMap: true }))
      ?.status !== 'DONE'
  ) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return target.runtime.orm.em.fork().findOneOrFail(ProductImport, where);
}

async function lastImportId(target: BenchTarget): Promise<number> {
  const latest = await target.runtime.orm.em
    .fork()
    .findOne(ProductImport, { id: { $gt: 0 } }, { orderBy: { id: 'desc' } });
  return latest?.id ?? 0;
}

interface ProductImportRun {
  kind: 'create' | 'update';
  acceptedMs: number;
  completedMs: number;
}

/**
 * POST /products/ean with 500 EANs, timed from the request to the 204 and on to the job's
 * completion, with the process's own worker polling as in production (the request wakes it).
 * Three runs create 500 offers each; a fourth updates the 500 of the first run.
 */
export const productImportBench: Bench = {
  key: 'imports',
  async run(context) {
    const { target, log } = context;
    const eans = await seedBenchCatalogue(target, PRODUCTS_BY_EAN_MAX * CREATION_RUNS);
    target.runtime.worker.start();
    const runs: ProductImportRun[] = [];
    try {
      const batches: { kind: ProductImportRun['kind']; eans: string[] }[] = [
        ...Array.from({ length: CREATION_RUNS }, (_, run) => ({
          kind: 'create' as const,
          eans: eans.slice(run * PRODUCTS_BY_EAN_MAX, (run + 1) * PRODUCTS_BY_EAN_MAX),
        })),
        { kind: 'update', eans: eans.slice(0, PRODUCTS_BY_EAN_MAX) },
      ];
      for (const [index, batch] of batches.entries()) {
        const before = await lastImportId(target);
        const body = JSON.stringify({
          location: { type: 'physical', venueId: target.owner.venueId },
          products: batch.eans.map((ean, position) => ({
            ean,
            stock: { price: 500 + position, quantity: 10 + index },
          })),
        });
        const started = performance.now();
        const response = await fetch(`${context.facadeOrigin}/public/offers/v1/products/ean`, {
          method: 'POST',
          headers: { ...context.headers, 'content-type': 'application/json' },
          body,
        });
        const acceptedMs = performance.now() - started;
        if (response.status !== 204) {
          context.results.failures += 1;
          log(`import run ${index + 1}: answered ${response.status} ${await response.text()}`);
          continue;
        }
        const finished = await importFinished(target, before);
        const completedMs = performance.now() - started;
        const expected = batch.kind === 'create' ? finished.createdCount : finished.updatedCount;
        if (expected !== PRODUCTS_BY_EAN_MAX || finished.rejected.length > 0) {
          context.results.failures += 1;
          log(
            `import run ${index + 1}: created ${finished.createdCount}, updated ${finished.updatedCount}, rejected ${finished.rejected.length}`,
          );
        }
        runs.push({ kind: batch.kind, acceptedMs, completedMs });
        log(
          `import run ${index + 1} (${batch.kind}): 204 after ${acceptedMs.toFixed(0)} ms, done after ${completedMs.toFixed(0)} ms`,
        );
      }
    } finally {
      await target.runtime.worker.stop();
    }
    const creations = runs.filter((run) => run.kind === 'create').map((run) => run.completedMs);
    const medianCreateMs = creations.length > 0 ? median(creations) : Number.NaN;
    const updateMs = runs.find((run) => run.kind === 'update')?.completedMs ?? Number.NaN;
    context.results.limits.push({
      key: this.key,
      title: `product import, ${PRODUCTS_BY_EAN_MAX} EANs to the job's completion (median of ${CREATION_RUNS} creations)`,
      ms: medianCreateMs,
      targetMs: IMPORT_TARGET_MS,
      pass: medianCreateMs < IMPORT_TARGET_MS,
      detail: `update of their ${PRODUCTS_BY_EAN_MAX} stocks: ${updateMs.toFixed(0)} ms; 204 after ${runs.map((run) => run.acceptedMs.toFixed(0)).join(', ')} ms`,
    });
  },
};

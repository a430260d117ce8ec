import type { EntityManager } from '@mikro-orm/core';
import { CatalogueProduct } from './CatalogueProduct.js';
import { catalogueEntries } from './catalogueData.js';

/**
 * Writes the catalogue data into its table at start-up: new EANs are added, known ones take
 * the data's values. Idempotent, so concurrent processes may run it. Returns the count.
 */
export async function loadCatalogue(em: EntityManager): Promise<number> {
  await em.upsertMany(
    CatalogueProduct,
    catalogueEntries.map((entry) => ({ ...entry })),
    { onConflictFields: ['ean'], onConflictAction: 'merge' },
  );
  return catalogueEntries.length;
}

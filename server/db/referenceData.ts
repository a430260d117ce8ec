import type { EntityManager } from '@mikro-orm/core';
import { loadEducationalReference } from '../../graphql/collective/reference/loader.js';
import { loadCatalogue } from '../../graphql/offers/eanCatalogue/loader.js';

/**
 * The reference data every process writes at start-up: the EAN catalogue and the school
 * platform's lists. Each load is an upsert, idempotent, but two processes must not run it at the
 * same moment on an empty table: PostgreSQL arbitrates an upsert on one unique key (the id), and
 * a row that a concurrent transaction is inserting collides on any other (the institutions' UAI)
 * with a unique violation, which no retry of ours would make clearer. So it runs under the
 * migration lock (`migrate`'s `loadReference`).
 */
export async function loadReferenceData(em: EntityManager): Promise<void> {
  await loadCatalogue(em.fork());
  await loadEducationalReference(em.fork());
}

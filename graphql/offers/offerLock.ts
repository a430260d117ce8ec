import { type EntityManager, LockMode } from '@mikro-orm/core';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import type { Offer } from './Offer.js';

/**
 * Serialises changes to one offer's price categories and dates: inside a transaction, a
 * second request on the same offer waits here until the first commits, so the per-offer
 * totals and uniqueness checks read what the other wrote. PostgreSQL takes a row lock
 * (SELECT ... FOR UPDATE); SQLite has a single writer, which already serialises.
 */
export async function lockOfferForChanges(em: EntityManager, offer: Offer): Promise<void> {
  if (em.getPlatform() instanceof PostgreSqlPlatform) await em.lock(offer, LockMode.PESSIMISTIC_WRITE);
}

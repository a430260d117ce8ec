import type { EntityManager, QueryResult } from '@mikro-orm/core';
import type { Knex, SqlEntityManager } from '@mikro-orm/knex';
import { PUBLICATION_MAX_DATES } from './limits.js';
import { Offer } from './Offer.js';

export const PUBLICATION_INTERVAL_MS = 15 * 60 * 1000;

export interface PublicationRun {
  published: number;
  bookingOpened: number;
}

/**
 * The periodic job: publishes offers whose publication time has come (unless an event has
 * 2500 dates or more), then opens booking where its time has come. Idempotent: several
 * processes may run it at once. `providerId`: that provider's offers only (the sandbox's run).
 * Runs in `em`'s transaction when it has one.
 */
export async function applyPublication(em: EntityManager, now: Date, providerId?: number): Promise<PublicationRun> {
  const sql = em as SqlEntityManager;
  const knex = sql.getKnex();
  const at = em.getPlatform().processDateProperty(now);
  type Update = Knex.QueryBuilder<Record<string, unknown>, number>;
  const ofProvider = (query: Update) => (providerId === undefined ? query : query.andWhere('provider_id', providerId));
  const run = async (query: Update) =>
    (await sql.getConnection().execute<QueryResult>(query, [], 'run', sql.getTransactionContext())).affectedRows;
  const tooManyDates = knex('stock').count('*').whereRaw('stock.offer_id = offer.id').andWhere('is_deleted', false);
  const published = await run(
    ofProvider(
      knex<Record<string, unknown>>('offer')
        .update({ published_at: at })
        .whereNull('published_at')
        .whereNotNull('publication_datetime')
        .andWhere('publication_datetime', '<=', at)
        .andWhere(knex.raw('(?) < ?', [tooManyDates, PUBLICATION_MAX_DATES])),
    ),
  );
  const bookingOpened = await run(
    ofProvider(
      knex<Record<string, unknown>>('offer')
        .update({ booking_opened_at: at })
        .whereNull('booking_opened_at')
        .whereNotNull('published_at')
        .andWhere(
          (where) => void where.whereNull('booking_allowed_datetime').orWhere('booking_allowed_datetime', '<=', at),
        ),
    ),
  );
  return { published, bookingOpened };
}

export const AUTO_APPROVAL_REASON = 'Approved automatically outside production';

/** Outside production: approves sandbox offers still pending review (a decision already made stays). Returns how many. */
export async function autoApproveOffers(em: EntityManager, now: Date, offerIds: number[]): Promise<number> {
  if (offerIds.length === 0) return 0;
  return em.nativeUpdate(
    Offer,
    { id: { $in: offerIds }, validation: 'PENDING' },
    { validation: 'APPROVED', validationReason: AUTO_APPROVAL_REASON, validatedAt: now },
  );
}

/** Outside production, the periodic sweep approves pending offers older than the delay. */
export async function autoApprovePendingOffers(em: EntityManager, now: Date, delayMs: number): Promise<number> {
  const due = await em.find(Offer, { validation: 'PENDING', createdAt: { $lte: new Date(now.getTime() - delayMs) } });
  for (const offer of due) {
    offer.validation = 'APPROVED';
    offer.validationReason = AUTO_APPROVAL_REASON;
    offer.validatedAt = now;
  }
  await em.flush();
  return due.length;
}

import type { EntityManager } from '@mikro-orm/core';
import type { GraphContext } from '../shared/context.js';
import type { DomainEventPublisher } from '../shared/domainEvents.js';
import type { Stock } from './Stock.js';

declare module '../shared/domainEvents.js' {
  interface DomainEventMap {
    /**
     * A stock (an event date, or a product's stock) was soft-deleted: never shown or sold
     * again. The bookings subgraph cancels its unused bookings: in the same transaction when it
     * runs in this process, from the outbox a moment later when it is a service of its own.
     */
    'offers.stockDeleted': { stockId: number; offerId: number; at: Date };
  }
}

/**
 * Soft-deletes stocks inside the caller's transaction `em`: kept for their bookings' history,
 * never shown again. `offers.stockDeleted` is published in that transaction, so that the
 * bookings it cancels (or the job that hands them over to the bookings service) commit or fail with it.
 */
export async function deleteStocks(
  context: Pick<GraphContext, 'clock'> & { events: DomainEventPublisher },
  em: EntityManager,
  stocks: Stock[],
): Promise<void> {
  if (stocks.length === 0) return;
  for (const stock of stocks) {
    stock.isDeleted = true;
    stock.updatedAt = context.clock.now();
  }
  await em.flush();
  for (const stock of stocks) {
    await context.events.publish(em, 'offers.stockDeleted', {
      stockId: stock.id,
      offerId: stock.offer.id,
      at: stock.updatedAt,
    });
  }
}

export function deleteStock(
  context: Pick<GraphContext, 'clock'> & { events: DomainEventPublisher },
  em: EntityManager,
  stock: Stock,
): Promise<void> {
  return deleteStocks(context, em, [stock]);
}

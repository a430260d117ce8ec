/**
 * Domain events of event dates, published inside the transaction of the change. The
 * bookings subgraph subscribes to them (a rescheduled date notifies its bookers) without
 * offers depending on bookings. A deleted date is `offers.stockDeleted` (stockDeletion.ts).
 */
declare module '../../shared/domainEvents.js' {
  interface DomainEventMap {
    /** A date's beginning was sent in an edition (even unchanged): `rescheduledAt` is set. */
    'offers.dateRescheduled': { stockId: number; offerId: number; beginningDatetime: Date; at: Date };
  }
}

export {};

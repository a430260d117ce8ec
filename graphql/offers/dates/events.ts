/**
 * Domain events of event dates, published inside the transaction of the change. The
 * bookings subgraph subscribes to them (a deleted date cancels its unused bookings, a
 * rescheduled one notifies its bookers) without offers depending on bookings.
 */
declare module '../../shared/domainEvents.js' {
  interface DomainEventMap {
    /** A date's beginning was sent in an edition (even unchanged): `rescheduledAt` is set. */
    'offers.dateRescheduled': { stockId: number; offerId: number; beginningDatetime: Date };
    /** A date was soft-deleted: it is never shown or sold again. */
    'offers.dateDeleted': { stockId: number; offerId: number };
  }
}

export {};

import { clockAt } from '../../platform/time/clock.js';
import type { DeliveryFailures } from '../../platform/metrics/index.js';
import type { Outbound } from '../../platform/outbound/index.js';
import type { WorkPorts } from '../shared/work.js';
import { sendMessage, SEND_MESSAGE_JOB } from './messages.js';
import {
  autoUseEventBookings,
  cancelBookingsOfStock,
  expireUnpickedProducts,
  reimburseUsedBookings,
  rescheduleBookingsOfStock,
} from './periodicTransitions.js';

export const AUTO_USE_TASK = 'bookings.autoUse';
export const EXPIRY_TASK = 'bookings.expireProducts';
export const REIMBURSEMENT_TASK = 'bookings.reimburse';

const HOUR_MS = 3_600_000;

/**
 * The bookings' background work: sending messages to providers, the periodic transitions
 * (used 48 hours after the event, products not picked up, the fortnightly reimbursement), and
 * what the offers' domain events mean for bookings: run in the transaction of their cause, or,
 * when offers run in another process, in a job that process queued with the cause (server/work).
 */
export function registerBookingsWork(
  { jobs, scheduler, events }: WorkPorts,
  { outbound, deliveryFailures }: { outbound: Pick<Outbound, 'toProviders'>; deliveryFailures?: DeliveryFailures },
): void {
  // Outside a transaction: a call to a provider may wait 8 seconds and must hold nothing meanwhile.
  jobs.register(
    SEND_MESSAGE_JOB,
    (payload, context) =>
      sendMessage(
        outbound.toProviders,
        context.em,
        context.clock,
        Number(payload.messageId),
        context.lastAttempt,
        deliveryFailures,
      ),
    { outsideTransaction: true },
  );
  scheduler.register({
    name: AUTO_USE_TASK,
    intervalMs: HOUR_MS,
    run: async ({ em, clock: at }) => void (await autoUseEventBookings(em, at.now())),
  });
  scheduler.register({
    name: EXPIRY_TASK,
    intervalMs: HOUR_MS,
    run: async ({ em, clock: at }) => void (await expireUnpickedProducts(em, at)),
  });
  scheduler.register({
    name: REIMBURSEMENT_TASK,
    intervalMs: 14 * 24 * HOUR_MS,
    run: async ({ em, clock: at }) => void (await reimburseUsedBookings(em, at.now())),
  });
  // A deleted date or product stock cancels its bookings; a rescheduled date moves their cancellation limits.
  // Both as of the change (`at`): in a split deployment they run a moment later, from the outbox.
  events.on(
    'offers.stockDeleted',
    async (em, { stockId, at }) => void (await cancelBookingsOfStock(em, clockAt(at), stockId)),
  );
  events.on(
    'offers.dateRescheduled',
    async (em, { stockId, beginningDatetime, at }) =>
      void (await rescheduleBookingsOfStock(em, clockAt(at), stockId, beginningDatetime)),
  );
}

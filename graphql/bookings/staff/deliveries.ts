import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { recordStaffAction } from '../../shared/audit.js';
import { isProvider } from '../../shared/caller.js';
import type { GraphContext } from '../../shared/context.js';
import { BadRequestError, NotFoundError } from '../../shared/errors.js';
import { Job } from '../../../platform/jobs/Job.js';
import { type PageInput, pageBounds } from '../../shared/pagination.js';
import { enqueueSending, SEND_MESSAGE_JOB } from '../messages.js';
import { type MessageStatus, ProviderMessage } from '../ProviderMessage.js';

export interface DeliveryFilter {
  providerId?: number | null;
  bookingId?: number | null;
  status?: string | null;
}

/** Messages to a provider or about a booking, one page in id order. */
export function findDeliveries(em: EntityManager, filter: DeliveryFilter, page: PageInput): Promise<ProviderMessage[]> {
  const { firstIndex, limit } = pageBounds(page);
  const where: FilterQuery<ProviderMessage> = { id: { $gte: firstIndex } };
  if (filter.providerId != null) where.provider = filter.providerId;
  if (filter.bookingId != null) where.booking = filter.bookingId;
  if (filter.status) where.status = filter.status as MessageStatus;
  return em.find(ProviderMessage, where, { orderBy: { id: 'asc' }, limit });
}

/** The pending jobs that send these messages, by message id: their runAt is each one's next attempt. */
export async function pendingSendJobs(em: EntityManager, messageIds: number[]): Promise<Map<number, Job>> {
  if (messageIds.length === 0) return new Map();
  const jobs = await em.find(Job, {
    type: SEND_MESSAGE_JOB,
    status: { $in: ['pending', 'running'] },
    payload: { messageId: { $in: messageIds } },
  });
  return new Map(jobs.map((job) => [Number(job.payload.messageId), job]));
}

/**
 * Sends a message again now: a message still being retried has its next attempt brought forward;
 * one that failed for good gets a new job, with a full set of attempts. A sent message is not sent twice.
 * `scope.providerId` limits it to one provider's messages (another's is not found).
 */
export async function retryDelivery(
  context: GraphContext,
  messageId: number,
  scope: { providerId?: number } = {},
): Promise<ProviderMessage> {
  const message = await context.em.transactional(async (em) => {
    const where: FilterQuery<ProviderMessage> = { id: messageId };
    if (scope.providerId !== undefined) where.provider = scope.providerId;
    const row = await em.findOne(ProviderMessage, where);
    if (!row) throw new NotFoundError('Message not found');
    if (row.status === 'SENT') throw BadRequestError.on('id', 'This message was delivered already');
    // Its request has answered already: a booking call sent again would issue tickets nobody holds.
    if (row.synchronous) throw BadRequestError.on('id', 'A ticketing call made during a request is never sent again');
    const now = context.clock.now();
    const job = (await pendingSendJobs(em, [row.id])).get(row.id);
    if (job?.status === 'running') throw BadRequestError.on('id', 'This message is being sent right now');
    if (job) job.runAt = now;
    else enqueueSending(em, context.clock, row);
    const before = { status: row.status };
    row.status = 'PENDING';
    // A provider retrying its own message from the console is no staff action.
    if (!isProvider(context.caller)) {
      const facts = { before, after: { status: row.status } };
      await recordStaffAction(em, context, {
        action: 'message.retried',
        target: { type: 'provider_message', id: row.id },
        ...facts,
      });
    }
    return row;
  });
  context.services.jobs.wake();
  return message;
}

import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { GraphContext } from '../../shared/context.js';
import { isProvider } from '../../shared/caller.js';
import { ForbiddenError, NotFoundError } from '../../shared/errors.js';
import { PAGE_SIZE_MAX } from '../../shared/pagination.js';
import { MessageAttempt } from '../MessageAttempt.js';
import { type MessageKind, type MessageStatus, ProviderMessage } from '../ProviderMessage.js';

/** The provider whose messages a caller reads: its own, never another's; internal tools have `deliveries`. */
export function messagesOwner(context: GraphContext, what: string): number {
  if (!isProvider(context.caller)) throw new ForbiddenError(`Only a provider key ${what}`);
  return context.caller.providerId;
}

export interface MessageFilter {
  status?: MessageStatus | null;
  kind?: MessageKind | null;
  bookingId?: number | null;
  isTest?: boolean | null;
}

/** A provider's messages, newest first: those with an id below `beforeId` when given (the next page). */
export function findProviderMessages(
  em: EntityManager,
  providerId: number,
  filter: MessageFilter,
  page: { beforeId?: number | null; limit?: number | null },
): Promise<ProviderMessage[]> {
  const where: FilterQuery<ProviderMessage> = { provider: providerId };
  if (page.beforeId != null) where.id = { $lt: page.beforeId };
  if (filter.status) where.status = filter.status;
  if (filter.kind) where.kind = filter.kind;
  if (filter.bookingId != null) where.booking = filter.bookingId;
  if (filter.isTest != null) where.isTest = filter.isTest;
  const limit = Math.min(Math.max(1, page.limit ?? PAGE_SIZE_MAX), PAGE_SIZE_MAX);
  return em.find(ProviderMessage, where, { orderBy: { id: 'desc' }, limit });
}

/** One of the provider's messages; another's is not found, as if it did not exist. */
export async function findProviderMessage(em: EntityManager, providerId: number, id: number): Promise<ProviderMessage> {
  const message = await em.findOne(ProviderMessage, { id, provider: providerId });
  if (!message) throw new NotFoundError('Message not found');
  return message;
}

/** The tries at a message, first first. */
export function attemptsOf(em: EntityManager, messageId: number): Promise<MessageAttempt[]> {
  return em.find(MessageAttempt, { message: messageId }, { orderBy: { number: 'asc' } });
}

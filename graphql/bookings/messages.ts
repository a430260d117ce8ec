import type { EntityManager } from '@mikro-orm/core';
import { Provider } from '../providers/Provider.js';
import type { Clock } from '../shared/clock.js';
import { describeOutcome, postSigned } from '../shared/messaging/signedPost.js';
import { enqueue } from '../shared/outbox.js';
import type { BookingDetails, ProviderEndpoints } from './bookingDetails.js';
import { type MessageKind, ProviderMessage } from './ProviderMessage.js';

export const SEND_MESSAGE_JOB = 'bookings.sendMessage';

/**
 * Queues a message in the caller's transaction: the message row (its exact body) and the job
 * that sends it commit with their cause, or not at all.
 */
async function queueMessage(
  em: EntityManager,
  clock: Clock,
  message: { providerId: number; bookingId: number | null; kind: MessageKind; url: string; payload: unknown },
): Promise<void> {
  const row = em.create(ProviderMessage, {
    provider: message.providerId,
    booking: message.bookingId,
    kind: message.kind,
    url: message.url,
    body: JSON.stringify(message.payload),
    createdAt: clock.now(),
  });
  // The flush gives the message the id its sending job names.
  await em.persist(row).flush();
  enqueue(em, clock, SEND_MESSAGE_JOB, { messageId: row.id });
}

/** A BOOK or CANCEL notification to the notification URL (the venue's, else the provider's); none without one. */
export async function queueBookingNotification(
  em: EntityManager,
  clock: Clock,
  endpoints: ProviderEndpoints,
  providerId: number,
  action: 'BOOK' | 'CANCEL',
  details: BookingDetails,
): Promise<void> {
  if (!endpoints.notificationUrl) return;
  await queueMessage(em, clock, {
    providerId,
    bookingId: details.booking.id,
    kind: 'BOOKING_NOTIFICATION',
    url: endpoints.notificationUrl,
    payload: { action, ...details },
  });
}

/** Cancels tickets at the provider's cancellation URL, with their barcodes. */
export async function queueTicketCancellation(
  em: EntityManager,
  clock: Clock,
  endpoints: ProviderEndpoints,
  providerId: number,
  details: BookingDetails,
  barcodes: string[],
): Promise<void> {
  if (!endpoints.cancelUrl || barcodes.length === 0) return;
  await queueMessage(em, clock, {
    providerId,
    bookingId: details.booking.id,
    kind: 'TICKET_CANCELLATION',
    url: endpoints.cancelUrl,
    payload: { ...details, barcodes },
  });
}

/**
 * The job: sends the message as stored, signed. A 2xx answer marks it SENT; anything else is
 * recorded on the message and tried again with backoff, until the job's last attempt marks it FAILED.
 */
export async function sendMessage(
  em: EntityManager,
  clock: Clock,
  messageId: number,
  lastAttempt: boolean,
): Promise<{ retry: string } | undefined> {
  const message = await em.findOne(ProviderMessage, messageId);
  if (!message || message.status !== 'PENDING') return undefined;
  const provider = await em.findOneOrFail(Provider, message.provider.id, { populate: ['messagingSecret'] });
  const outcome = await postSigned(message.url, message.body, provider.messagingSecret);
  message.attempts += 1;
  message.lastStatusCode = outcome.kind === 'answered' ? outcome.status : null;
  if (outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300) {
    message.status = 'SENT';
    message.sentAt = clock.now();
    message.lastError = null;
    await em.flush();
    return undefined;
  }
  message.lastError = describeOutcome(outcome);
  if (lastAttempt) message.status = 'FAILED';
  await em.flush();
  return { retry: `${message.kind} ${message.id}: ${message.lastError}` };
}

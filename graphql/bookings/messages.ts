import type { EntityManager } from '@mikro-orm/core';
import { DATE_QUANTITY_MAX } from '../offers/limits.js';
import { Provider } from '../providers/Provider.js';
import type { Clock } from '../../platform/time/clock.js';
import { performance } from 'node:perf_hooks';
import {
  deliveryFailureReason,
  sendSigned,
  type SignedPostOutcome,
  TEST_EVENT_HEADER,
} from '../../platform/messaging/signedPost.js';
import type { DeliveryFailures } from '../../platform/metrics/index.js';
import { enqueue } from '../../platform/jobs/outbox.js';
import type { OutboundHttp } from '../../platform/outbound/index.js';
import type { BookingDetails, BookingNotification, ProviderEndpoints } from './bookingDetails.js';
import { recordAttempt } from './messageAttempts.js';
import { type MessageKind, ProviderMessage } from './ProviderMessage.js';

export const SEND_MESSAGE_JOB = 'bookings.sendMessage';

/**
 * Queues a message in the caller's transaction: the message row (its exact body) and the job
 * that sends it commit with their cause, or not at all.
 */
export async function queueMessage(
  em: EntityManager,
  clock: Clock,
  message: {
    providerId: number;
    bookingId: number | null;
    kind: MessageKind;
    url: string;
    payload: unknown;
    isTest?: boolean;
  },
): Promise<ProviderMessage> {
  const row = em.create(ProviderMessage, {
    provider: message.providerId,
    booking: message.bookingId,
    kind: message.kind,
    url: message.url,
    body: JSON.stringify(message.payload),
    createdAt: clock.now(),
    isTest: message.isTest ?? false,
  });
  // The flush gives the message the id its sending job names.
  await em.persist(row).flush();
  enqueueSending(em, clock, row);
  return row;
}

/**
 * The job that sends a message. A test event is tried once: the integrator who asked for it is
 * watching, and resends it if they want, rather than see it retried for hours.
 */
export function enqueueSending(em: EntityManager, clock: Clock, message: ProviderMessage): void {
  enqueue(em, clock, SEND_MESSAGE_JOB, { messageId: message.id }, message.isTest ? { maxAttempts: 1 } : {});
}

/** What the platform posts to a cancellation URL: the barcodes of the tickets to cancel, and nothing else. */
export function ticketCancellationBody(barcodes: string[]): string {
  return JSON.stringify({ barcodes });
}

/** A BOOK or CANCEL notification to the notification URL (the venue's, else the provider's); none without one. */
export async function queueBookingNotification(
  em: EntityManager,
  clock: Clock,
  endpoints: ProviderEndpoints,
  target: { providerId: number; bookingId: number },
  action: 'BOOK' | 'CANCEL',
  details: BookingDetails,
): Promise<void> {
  if (!endpoints.notificationUrl) return;
  const payload: BookingNotification = { ...details, action };
  await queueMessage(em, clock, {
    ...target,
    kind: 'BOOKING_NOTIFICATION',
    url: endpoints.notificationUrl,
    payload,
  });
}

/**
 * Cancels tickets at the provider's cancellation URL later, by a job: for cancellations that
 * cannot wait for the ticketing system (tickets issued for a booking this platform then could not
 * record, a booking cancelled by a periodic run). The venue's cancellation is synchronous instead.
 */
export async function queueTicketCancellation(
  em: EntityManager,
  clock: Clock,
  endpoints: ProviderEndpoints,
  target: { providerId: number; bookingId: number | null },
  barcodes: string[],
): Promise<void> {
  if (!endpoints.cancelUrl || barcodes.length === 0) return;
  await queueMessage(em, clock, {
    ...target,
    kind: 'TICKET_CANCELLATION',
    url: endpoints.cancelUrl,
    payload: { barcodes },
  });
}

/**
 * A number of places a ticketing system reports: an integer this platform can store, or null
 * for no limit; undefined when it is neither.
 */
export function remainingPlacesOf(value: unknown): number | null | undefined {
  if (value === null) return null;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= DATE_QUANTITY_MAX
    ? value
    : undefined;
}

/** Whether a ticketing system answered that the tickets were cancelled already (409 `already_cancelled`). */
export function isAlreadyCancelled(outcome: SignedPostOutcome): boolean {
  return (
    outcome.kind === 'answered' &&
    outcome.status === 409 &&
    (outcome.body as { error?: unknown } | null)?.error === 'already_cancelled'
  );
}

/**
 * The job: sends the message as stored, signed. A 2xx answer marks it SENT, as does a ticket
 * cancellation answered 409 `already_cancelled`; anything else is recorded on the message and
 * tried again with backoff, until the job's last attempt marks it FAILED.
 */
export async function sendMessage(
  http: OutboundHttp,
  em: EntityManager,
  clock: Clock,
  messageId: number,
  lastAttempt: boolean,
  failures?: DeliveryFailures,
): Promise<{ retry: string } | undefined> {
  const message = await em.findOne(ProviderMessage, messageId);
  if (!message || message.status !== 'PENDING') return undefined;
  const provider = await em.findOneOrFail(Provider, message.provider.id, { populate: ['messagingSecret'] });
  const startedAt = clock.now();
  const started = performance.now();
  const call = await sendSigned(http, message.url, message.body, provider.messagingSecret, {
    messageId: String(message.id),
    headers: message.isTest ? { [TEST_EVENT_HEADER]: 'true' } : {},
  });
  const durationMs = performance.now() - started;
  const { outcome } = call;
  message.attempts += 1;
  message.lastStatusCode = outcome.kind === 'answered' ? outcome.status : null;
  const delivered =
    (outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300) ||
    (message.kind === 'TICKET_CANCELLATION' && isAlreadyCancelled(outcome));
  const attempt = recordAttempt(em, message, call, { delivered, startedAt, durationMs });
  message.lastError = attempt.error;
  if (delivered) {
    message.status = 'SENT';
    message.sentAt = clock.now();
    await em.flush();
    return undefined;
  }
  if (lastAttempt) message.status = 'FAILED';
  await em.flush();
  failures?.failed(message.kind, deliveryFailureReason(outcome), lastAttempt);
  return { retry: `${message.kind} ${message.id}: ${message.lastError}` };
}

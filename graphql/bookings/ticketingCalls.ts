import { performance } from 'node:perf_hooks';
import type { GraphContext } from '../shared/context.js';
import { sendSigned, type SignedPostOutcome } from '../../platform/messaging/signedPost.js';
import { recordAttempt } from './messageAttempts.js';
import { type MessageKind, ProviderMessage } from './ProviderMessage.js';

export interface TicketingCallRequest {
  providerId: number;
  bookingId: number | null;
  kind: Extract<MessageKind, 'TICKET_BOOKING' | 'TICKET_CANCELLATION'>;
  url: string;
  body: string;
  secret: string;
}

/** A 2xx answer: the only kind a ticketing system says yes with. */
export function isSuccess(outcome: SignedPostOutcome): outcome is Extract<SignedPostOutcome, { kind: 'answered' }> {
  return outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300;
}

/** A ticketing call made and recorded: its outcome, and the message that records it (null if it could not be). */
export interface TicketingCall {
  outcome: SignedPostOutcome;
  message: ProviderMessage | null;
}

/** Whoever wants to see a ticketing call a request made (the ticketing check reports each one). */
export type TicketingCallObserver = (call: TicketingCall) => void;

/** How the caller reads an answer: whether it is a success, and what is wrong with a 2xx that is not. */
export interface TicketingAnswerJudge {
  delivered(outcome: SignedPostOutcome): boolean;
  problems?(answer: unknown): string[];
}

/**
 * A synchronous call to a ticketing system (a booking, a cancellation by the venue), signed, then
 * recorded among the provider's messages with its one attempt, so that the integrator sees it
 * as they see notifications.
 */
export async function callTicketing(
  context: GraphContext,
  request: TicketingCallRequest,
  judge: TicketingAnswerJudge,
  observe?: TicketingCallObserver,
): Promise<SignedPostOutcome> {
  const startedAt = context.clock.now();
  const started = performance.now();
  const call = await sendSigned(context.services.outbound.toProviders, request.url, request.body, request.secret);
  const durationMs = performance.now() - started;
  const ok = judge.delivered(call.outcome);
  const problems = !ok && isSuccess(call.outcome) && judge.problems ? judge.problems(call.outcome.body) : [];
  let message: ProviderMessage | null = null;
  try {
    // A fork of its own: the call was made outside any transaction, and its record must not wait for one.
    message = await context.em.fork().transactional(async (em) => {
      const row = em.create(ProviderMessage, {
        provider: request.providerId,
        booking: request.bookingId,
        kind: request.kind,
        url: request.url,
        body: request.body,
        createdAt: startedAt,
        synchronous: true,
        status: ok ? 'SENT' : 'FAILED',
        attempts: 1,
        lastStatusCode: call.outcome.kind === 'answered' ? call.outcome.status : null,
        sentAt: ok ? context.clock.now() : null,
      });
      row.lastError = recordAttempt(em, row, call, { delivered: ok, startedAt, durationMs, problems }).error;
      return row;
    });
  } catch {
    // The record is for the integrator's eyes; the request that made the call (tickets may have been
    // issued) must go on, and compensate if it has to, whatever became of it.
  }
  observe?.({ outcome: call.outcome, message });
  return call.outcome;
}

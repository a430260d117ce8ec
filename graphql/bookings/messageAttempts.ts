import type { EntityManager } from '@mikro-orm/core';
import { describeOutcome, type SignedCall } from '../../platform/messaging/signedPost.js';
import { ATTEMPT_ANSWER_KEPT_CHARS, MessageAttempt } from './MessageAttempt.js';
import type { ProviderMessage } from './ProviderMessage.js';

/**
 * A call's outcome as an attempt keeps it: the answer's status and capped body, or why none came.
 * `problems` say why an answer that is not a delivery was not one, where its status alone does
 * not (a 2xx without valid tickets).
 */
export function attemptRecordOf(call: SignedCall, delivered: boolean, problems: string[] = []) {
  const { outcome } = call;
  const text = outcome.kind === 'answered' ? outcome.text : null;
  return {
    requestHeaders: JSON.stringify(call.headers),
    statusCode: outcome.kind === 'answered' ? outcome.status : null,
    answerBody: text === null ? null : text.slice(0, ATTEMPT_ANSWER_KEPT_CHARS),
    answerTruncated: text !== null && text.length > ATTEMPT_ANSWER_KEPT_CHARS,
    error: delivered ? null : describeOutcome(outcome) + (problems.length > 0 ? `: ${problems.join('; ')}` : ''),
  };
}

/**
 * Adds the record of one try at `message` to the unit of work of `em` (flushed with the message's
 * own new state): its number follows the message's attempt count, already counted.
 */
export function recordAttempt(
  em: EntityManager,
  message: ProviderMessage,
  call: SignedCall,
  attempt: { delivered: boolean; startedAt: Date; durationMs: number; problems?: string[] },
): MessageAttempt {
  const record = em.create(MessageAttempt, {
    message,
    number: message.attempts,
    attemptedAt: attempt.startedAt,
    durationMs: Math.max(0, Math.round(attempt.durationMs)),
    ...attemptRecordOf(call, attempt.delivered, attempt.problems),
  });
  return record;
}

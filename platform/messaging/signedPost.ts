import type { DeliveryFailureReason } from '../metrics/index.js';
import type { OutboundHttp, OutboundOutcome } from '../outbound/index.js';
import { inSpan, markFailed } from '../tracing.js';
import { SIGNATURE_HEADER, signBody } from './signature.js';

import { describeOutcome } from '../outbound/index.js';

export { describeOutcome };

/** Every call to a provider's system gives up after this long. */
export const PROVIDER_CALL_TIMEOUT_MS = 8_000;

/**
 * The header of a queued message: the same on every attempt at it, so that a receiver can drop
 * a message it already handled (a message is delivered at least once).
 */
export const MESSAGE_ID_HEADER = 'PassCulture-Message-Id';

/** The header that marks a test event a provider asked for: `X-Test-Event: true`. */
export const TEST_EVENT_HEADER = 'X-Test-Event';

export type SignedPostOutcome =
  Exclude<OutboundOutcome, { kind: 'answered' }> | { kind: 'answered'; status: number; body: unknown; text: string };

export interface SignedPostOptions {
  timeoutMs?: number;
  /** The stable id of a queued message, sent in MESSAGE_ID_HEADER. */
  messageId?: string;
  /** Sent with the others (a test event's marker). */
  headers?: Record<string, string>;
}

/** A call made, as the provider received it, and what came of it. */
export interface SignedCall {
  /** The headers sent, the signature included. */
  headers: Record<string, string>;
  outcome: SignedPostOutcome;
}

/**
 * POSTs a JSON body to a provider's URL, signed with its messaging secret over these exact
 * bytes, through the guarded client, within the timeout. Never throws: the caller decides what
 * each outcome means.
 */
export async function postSigned(
  http: OutboundHttp,
  url: string,
  body: string,
  secret: string,
  options: SignedPostOptions = {},
): Promise<SignedPostOutcome> {
  return (await sendSigned(http, url, body, secret, options)).outcome;
}

/** postSigned, answering also the headers sent: what a record of the call shows the provider. */
export async function sendSigned(
  http: OutboundHttp,
  url: string,
  body: string,
  secret: string,
  options: SignedPostOptions = {},
): Promise<SignedCall> {
  const headers = {
    'Content-Type': 'application/json',
    [SIGNATURE_HEADER]: signBody(body, secret),
    ...(options.messageId ? { [MESSAGE_ID_HEADER]: options.messageId } : {}),
    ...options.headers,
  };
  // The provider's host only: a path or a query may carry the provider's own tokens.
  const host = URL.canParse(url) ? new URL(url).host : 'invalid';
  const outcome = await inSpan(
    'provider call',
    { attributes: { 'server.address': host, 'provider.message_id': options.messageId } },
    async (span) => {
      const answer = await http.send(url, {
        method: 'POST',
        headers,
        body,
        timeoutMs: options.timeoutMs ?? PROVIDER_CALL_TIMEOUT_MS,
      });
      span.setAttribute('provider.outcome', answer.kind);
      if (answer.kind === 'answered') span.setAttribute('http.response.status_code', answer.status);
      if (answer.kind !== 'answered' || answer.status >= 400) markFailed(span, describeOutcome(answer));
      return answer;
    },
  );
  if (outcome.kind !== 'answered') return { headers, outcome };
  return { headers, outcome: { ...outcome, body: parseJson(outcome.text) } };
}

/** The answer as JSON, or null when it is empty or not JSON. */
function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

/** Why a synchronous call to a ticketing system did not succeed, in the words of a 400. */
export function failureReason(outcome: SignedPostOutcome): string {
  switch (outcome.kind) {
    case 'answered':
      return `it answered ${outcome.status}`;
    case 'timeout':
      return `no answer within ${PROVIDER_CALL_TIMEOUT_MS / 1000} seconds`;
    case 'refused':
      return `its address is refused: ${outcome.reason}`;
    case 'oversized':
      return 'its answer was too large';
    case 'unreachable':
      return 'unreachable';
  }
}

/** Why a call did not deliver, as a metric's label: its outcome's kind, an answer by status class. */
export function deliveryFailureReason(outcome: SignedPostOutcome): DeliveryFailureReason {
  if (outcome.kind !== 'answered') return outcome.kind;
  if (outcome.status >= 400 && outcome.status < 500) return 'status_4xx';
  return outcome.status >= 500 && outcome.status < 600 ? 'status_5xx' : 'status_other';
}

import { SIGNATURE_HEADER, signBody } from './signature.js';

/** Every call to a provider's system gives up after this long. */
export const PROVIDER_CALL_TIMEOUT_MS = 8_000;
/** Answers are read up to this size: enough for tickets, never a memory hazard. */
const MAX_ANSWER_BYTES = 256 * 1024;

export type SignedPostOutcome =
  | { kind: 'answered'; status: number; body: unknown; text: string }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; reason: string };

/**
 * POSTs a JSON body to a provider's URL, signed with its messaging secret over these exact
 * bytes, within the timeout. Never throws: the caller decides what each outcome means.
 */
export async function postSigned(
  url: string,
  body: string,
  secret: string,
  timeoutMs = PROVIDER_CALL_TIMEOUT_MS,
): Promise<SignedPostOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signBody(body, secret) },
      body,
      signal: controller.signal,
      redirect: 'error',
    });
    const text = await readCapped(response, controller);
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { kind: 'answered', status: response.status, body: parsed, text };
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'timeout' };
    return {
      kind: 'unreachable',
      reason:
        error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error),
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The answer's text, read chunk by chunk: past the cap the call is aborted, so a provider can
 * never make this process hold more than the cap in memory.
 */
async function readCapped(response: Response, controller: AbortController): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      controller.abort();
      await reader.cancel().catch(() => undefined);
      return '';
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A short account of an outcome, for logs and delivery records (never the body sent). */
export function describeOutcome(outcome: SignedPostOutcome): string {
  if (outcome.kind === 'timeout') return 'no answer within the time limit';
  if (outcome.kind === 'unreachable') return `unreachable: ${outcome.reason}`;
  return `answered ${outcome.status}`;
}

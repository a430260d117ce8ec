import { type Dispatcher, request } from 'undici';
import { DestinationRefusedError } from './destinationGuard.js';

/** Answers are read up to this size; a bigger one is a failed call, never held in memory. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export type OutboundOutcome =
  | { kind: 'answered'; status: number; text: string }
  | { kind: 'timeout' }
  /** The destination is not one the platform calls (see addressRanges.ts). */
  | { kind: 'refused'; reason: string }
  | { kind: 'unreachable'; reason: string }
  /** The answer was bigger than MAX_ANSWER_BYTES. */
  | { kind: 'oversized' };

export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/**
 * The one way this platform calls out: through an agent that decides which addresses it may
 * reach, without following redirects (a 3xx is an answer like any other), within a time limit
 * and reading at most MAX_ANSWER_BYTES. Never throws: every failure is an outcome.
 */
export class OutboundHttp {
  constructor(private readonly dispatcher: Dispatcher) {}

  async send(url: string | URL, outgoing: OutboundRequest): Promise<OutboundOutcome> {
    // A timer of this realm rather than AbortSignal.timeout: tests that fake the clock drive it.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), outgoing.timeoutMs);
    const { signal } = controller;
    try {
      const response = await request(url, {
        dispatcher: this.dispatcher,
        method: outgoing.method,
        headers: outgoing.headers,
        body: outgoing.body,
        maxRedirections: 0,
        signal,
      });
      const text = await readCapped(response.body, response.headers['content-length']);
      if (text === null) return { kind: 'oversized' };
      return { kind: 'answered', status: response.statusCode, text };
    } catch (error) {
      if (signal.aborted) return { kind: 'timeout' };
      const cause = refusalOf(error);
      if (cause) return { kind: 'refused', reason: cause.message };
      return { kind: 'unreachable', reason: reasonOf(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}

/** The answer's text, or null past the cap (read chunk by chunk, then dropped). */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  declaredLength: string | string[] | undefined,
): Promise<string | null> {
  if (typeof declaredLength === 'string' && Number(declaredLength) > MAX_ANSWER_BYTES) {
    discard(body);
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).byteLength;
    if (size > MAX_ANSWER_BYTES) {
      discard(body);
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Stops reading an answer and closes its connection; the abort this raises is expected. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

function refusalOf(error: unknown): DestinationRefusedError | null {
  if (error instanceof DestinationRefusedError) return error;
  if (error instanceof Error && error.cause instanceof DestinationRefusedError) return error.cause;
  return null;
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}

/** A short account of an outcome, for logs and delivery records (never the body sent). */
export function describeOutcome(outcome: OutboundOutcome): string {
  switch (outcome.kind) {
    case 'timeout':
      return 'no answer within the time limit';
    case 'refused':
      return `refused: ${outcome.reason} (the platform calls only public addresses)`;
    case 'unreachable':
      return `unreachable: ${outcome.reason}`;
    case 'oversized':
      return `answer larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB, not read`;
    case 'answered':
      return outcome.status >= 300 && outcome.status < 400
        ? `answered ${outcome.status} (redirects are not followed)`
        : `answered ${outcome.status}`;
  }
}

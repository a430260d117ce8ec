/**
 * Requests sent over and over while a test breaks something, each answer kept with its timing,
 * so that the test can say what callers saw before, during and after.
 */

export interface Answer {
  /** Which stream of requests it belongs to. */
  stream: string;
  /** When it was sent, by `performance.now()`. */
  sentAt: number;
  ms: number;
  /** The HTTP status, or 0 when no answer came (the connection failed, or the client gave up). */
  status: number;
  retryAfter: string | null;
  body: unknown;
  failure?: string;
}

/** A client gives up on a request after this long: an answer that never comes shows as status 0. */
export const CLIENT_TIMEOUT_MS = 30_000;

export class Load {
  readonly answers: Answer[] = [];
  private running = true;
  private readonly streams: Promise<void>[] = [];

  /** Sends `send()` again and again, `pauseMs` apart, until stop(). */
  drive(stream: string, send: (signal: AbortSignal) => Promise<Response>, pauseMs: number): void {
    this.streams.push(
      (async () => {
        while (this.running) {
          const sentAt = performance.now();
          const answer: Answer = { stream, sentAt, ms: 0, status: 0, retryAfter: null, body: null };
          try {
            const response = await send(AbortSignal.timeout(CLIENT_TIMEOUT_MS));
            answer.status = response.status;
            answer.retryAfter = response.headers.get('retry-after');
            const text = await response.text();
            answer.body = text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text;
          } catch (error) {
            answer.failure = error instanceof Error ? error.message : String(error);
          }
          answer.ms = performance.now() - sentAt;
          this.answers.push(answer);
          await new Promise((resolve) => setTimeout(resolve, pauseMs));
        }
      })(),
    );
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.streams);
  }

  of(stream: string): Answer[] {
    return this.answers.filter((answer) => answer.stream === stream);
  }

  /** The first answer of `stream` sent after `since` that `matches`. */
  firstAfter(stream: string, since: number, matches: (answer: Answer) => boolean): Answer | undefined {
    return this.of(stream)
      .filter((answer) => answer.sentAt >= since)
      .sort((left, right) => left.sentAt - right.sentAt)
      .find(matches);
  }
}

import { expect } from 'vitest';
import { Provider } from '../../graphql/providers/Provider.js';
import { type CreatedSandbox, createSandbox } from '../../graphql/providers/sandbox.js';
import type { TestApp } from './app.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A provider's system for tests: a real HTTP server on 127.0.0.1 that records every request
 * (its exact body bytes), checks its `PassCulture-Signature` on its own (hex HMAC-SHA256 of those
 * bytes with the provider's messaging secret), and answers as each test tells it to.
 */

/** What the receiver does with one request. */
export type Reply =
  /** Answers with this status and JSON body (a string is sent as is). */
  | { status: number; json?: unknown }
  /** Answers only after `afterMs` (real time), unless the caller gave up first. */
  | { slow: { afterMs: number; status: number; json?: unknown } }
  /** Never answers: waits until the caller gives up (a timeout). */
  | { hang: true }
  /** Closes the connection without answering. */
  | { close: true };

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received. */
  raw: Buffer;
  /** The body parsed as JSON (null when it is not JSON). */
  body: any;
  /** Whether `PassCulture-Signature` is the HMAC of `raw` with the secret of the receiver. */
  signatureValid: boolean;
  /** Set when the caller closed the connection before it was answered. */
  abandoned: boolean;
  /** Set once the answer was sent in full. */
  answered: boolean;
}

type Responder = Reply | ((request: ReceivedRequest) => Reply | Promise<Reply>);

// Captured at load: a test that fakes timers must not stop the receiver's own delays.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

export function expectedSignature(raw: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(raw).digest('hex');
}

function signatureMatches(raw: Buffer, secret: string | null, header: string | string[] | undefined): boolean {
  if (secret === null || typeof header !== 'string' || !/^[0-9a-f]{64}$/.test(header)) return false;
  return timingSafeEqual(Buffer.from(expectedSignature(raw, secret), 'hex'), Buffer.from(header, 'hex'));
}

export class Receiver {
  /** Every request, in arrival order. */
  readonly requests: ReceivedRequest[] = [];
  /** The secret signatures are checked with (the provider's messaging secret). */
  secret: string | null = null;

  private readonly queued = new Map<string, Responder[]>();
  private readonly defaults = new Map<string, Responder>();
  private readonly waiters: { count: number; path: string | undefined; resolve: () => void }[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const receiver = new Receiver(server, `http://127.0.0.1:${port}`);
    server.on(
      'request',
      (request: IncomingMessage, response: ServerResponse) => void receiver.handle(request, response),
    );
    return receiver;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** How requests to `path` are answered once the queued replies are used up (200 `{}` by default). */
  answer(path: string, responder: Responder): void {
    this.defaults.set(path, responder);
  }

  /** The next requests to `path` are answered by these, in order, before the default. */
  answerNext(path: string, ...responders: Responder[]): void {
    this.queued.set(path, [...(this.queued.get(path) ?? []), ...responders]);
  }

  /** Forgets the requests and the answers: the state of a new test. */
  reset(): void {
    this.requests.length = 0;
    this.queued.clear();
    this.defaults.clear();
  }

  to(path: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** Resolves once `count` requests (to `path`, or to any path) have arrived. */
  waitForRequests(count: number, path?: string): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ count, path, resolve });
      this.notify();
    });
  }

  async close(): Promise<void> {
    for (const timer of this.timers) realClearTimeout(timer);
    this.timers.clear();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) {
      const seen = waiter.path === undefined ? this.requests.length : this.to(waiter.path).length;
      if (seen >= waiter.count) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = null;
    }
    const path = new URL(request.url ?? '/', this.origin).pathname;
    const received: ReceivedRequest = {
      method: request.method ?? '',
      path,
      headers: request.headers,
      raw,
      body,
      signatureValid: signatureMatches(raw, this.secret, request.headers['passculture-signature']),
      abandoned: false,
      answered: false,
    };
    response.on('finish', () => {
      received.answered = true;
    });
    response.on('close', () => {
      if (!response.writableFinished) received.abandoned = true;
    });
    this.requests.push(received);
    this.notify();

    const queue = this.queued.get(path);
    const responder: Responder = queue?.shift() ?? this.defaults.get(path) ?? { status: 200, json: {} };
    let reply: Reply;
    try {
      reply = typeof responder === 'function' ? await responder(received) : responder;
    } catch (error) {
      reply = { status: 599, json: { error: String(error) } };
    }
    if ('close' in reply) {
      request.socket.destroy();
      return;
    }
    if ('hang' in reply) return;
    if ('slow' in reply) {
      const { afterMs, status, json } = reply.slow;
      const timer = realSetTimeout(() => {
        this.timers.delete(timer);
        if (!response.destroyed) send(response, status, json);
      }, afterMs);
      this.timers.add(timer);
      response.on('close', () => {
        realClearTimeout(timer);
        this.timers.delete(timer);
      });
      return;
    }
    send(response, reply.status, reply.json);
  }
}

function send(response: ServerResponse, status: number, json: unknown): void {
  const text = json === undefined ? '' : typeof json === 'string' ? json : JSON.stringify(json);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

/** Every request was a signed JSON POST (the receiver checked each signature over its raw bytes). */
export function expectSigned(requests: ReceivedRequest[]): void {
  expect(requests.length).toBeGreaterThan(0);
  for (const received of requests) {
    expect(received.method).toBe('POST');
    expect(received.headers['content-type']).toMatch(/^application\/json/);
    expect(received.signatureValid).toBe(true);
  }
}

/**
 * A sandbox provider whose booking, cancellation and notification URLs all point at a new
 * receiver (`/booking`, `/cancel`, `/notify`), which checks signatures with its secret.
 */
export async function aSandboxWithReceiver(testApp: TestApp): Promise<{ sandbox: CreatedSandbox; receiver: Receiver }> {
  const receiver = await Receiver.start();
  const em = testApp.database.orm.em.fork();
  const sandbox = await createSandbox(em, testApp.clock, 'test');
  receiver.secret = sandbox.messagingSecret;
  await em.nativeUpdate(
    Provider,
    { id: sandbox.provider.id },
    {
      bookingUrl: receiver.url('/booking'),
      cancelUrl: receiver.url('/cancel'),
      notificationUrl: receiver.url('/notify'),
    },
  );
  return { sandbox, receiver };
}

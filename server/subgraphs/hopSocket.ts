import WebSocket from 'ws';
import { answersOf, callRecord, FrameBatcher, type HopAnswer } from './hopFrames.js';

/** Why a call got no answer: the service refused the connection, dropped it, or did not answer in time. */
export class HopLost extends Error {}

interface Pending {
  resolve(answer: HopAnswer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** A frame of answers may carry many 600 KB lists; far more than any the service writes. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;

/**
 * The API process's connection to one service for the facade's calls (decision 036): one
 * WebSocket, opened at the first call and again at the first call after it closed, the calls of a
 * turn of the event loop sent in one frame, each answered by its id. A call that is not answered
 * within the deadline, or is pending when the connection fails, is rejected with HopLost; a
 * connection that then does not answer a ping is dropped.
 */
export class HopSocket {
  private socket: WebSocket | null = null;
  private batcher: FrameBatcher | null = null;
  private readonly pending = new Map<number, Pending>();
  private readonly probing = new WeakSet<WebSocket>();
  private nextId = 1;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  call(signedCaller: string, traceParent: string | null, body: string): Promise<HopAnswer> {
    const batcher = this.batcher ?? this.open();
    const id = this.nextId++;
    return new Promise<HopAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id)?.reject(new HopLost('timed out'));
        this.checkAlive();
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      batcher.push(callRecord({ id, signedCaller, traceParent: traceParent ?? '', body }));
    });
  }

  close(): Promise<void> {
    const socket = this.socket;
    this.forget(socket, new HopLost('closed'));
    if (!socket || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      socket.terminate();
    });
  }

  private open(): FrameBatcher {
    const socket = new WebSocket(this.url, { perMessageDeflate: false, maxPayload: MAX_FRAME_BYTES });
    // Frames written before the handshake ends wait in order and leave with it.
    const waiting: string[] = [];
    const batcher = new FrameBatcher((frame) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(frame);
      else if (socket.readyState === WebSocket.CONNECTING) waiting.push(frame);
    });
    socket.on('open', () => {
      for (const frame of waiting.splice(0)) socket.send(frame);
    });
    socket.on('message', (data: Buffer) => this.answer(socket, data.toString('utf8')));
    socket.on('error', (error) => this.forget(socket, new HopLost(describe(error))));
    socket.on('close', () => this.forget(socket, new HopLost('connection closed')));
    this.socket = socket;
    this.batcher = batcher;
    return batcher;
  }

  /**
   * A call went unanswered: the service may be slow, or the connection dead without a reset (a
   * partition), which would leave every later call to time out. A ping tells them apart: without
   * a pong within the deadline, the connection is dropped and the next call opens another.
   */
  private checkAlive(): void {
    const socket = this.socket;
    if (!socket || this.probing.has(socket)) return;
    if (socket.readyState !== WebSocket.OPEN) {
      // Still connecting after a whole deadline: start again at the next call.
      socket.terminate();
      return;
    }
    this.probing.add(socket);
    const probe = setTimeout(() => socket.terminate(), this.timeoutMs);
    socket.once('pong', () => {
      clearTimeout(probe);
      this.probing.delete(socket);
    });
    socket.once('close', () => clearTimeout(probe));
    socket.ping();
  }

  private answer(socket: WebSocket, frame: string): void {
    const answers = answersOf(frame);
    if (!answers) {
      // Not a service of the platform, or another protocol: nothing on this connection can be trusted.
      this.forget(socket, new HopLost('answered with a frame that is not a hop answer'));
      socket.terminate();
      return;
    }
    for (const answer of answers) this.settle(answer.id)?.resolve(answer);
  }

  private settle(id: number): Pending | undefined {
    const pending = this.pending.get(id);
    if (pending) {
      clearTimeout(pending.timer);
      this.pending.delete(id);
    }
    return pending;
  }

  /** The socket is gone: its calls fail, and the next call opens another. */
  private forget(socket: WebSocket | null, error: HopLost): void {
    if (socket === null || socket !== this.socket) return;
    this.socket = null;
    this.batcher = null;
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
  }
}

function describe(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error.message;
}

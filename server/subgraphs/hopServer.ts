import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { answerRecord, callsOf, FrameBatcher, type HopAnswer, type HopCall } from './hopFrames.js';

/**
 * What the service reads of one frame before it closes the connection: the API process's frames
 * stop growing at FRAME_FLUSH_CHARS, so a larger one holds a single call, whose body the API
 * process read within its own limits (16 MB of JSON, a 10 MB image as base64).
 */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export type HopHandler = (call: HopCall) => Promise<HopAnswer>;

export interface HopListener {
  /**
   * Stops taking connections, and closes each one (1001, going away) once the calls it holds are
   * answered: the HTTP server's close waits for upgraded sockets, so a graceful stop starts here.
   */
  drain(): void;
  /** Cuts every connection now. */
  close(): void;
}

/** A connection served: its calls in progress, and whether it closes once they are answered. */
interface Served {
  inFlight: number;
  draining: boolean;
}

/**
 * Serves the API process's WebSocket at the service's GraphQL path (decision 036): each call of a
 * frame is handled on its own (each carries its signed caller, checked as the HTTP header is), and
 * the answers of one turn of the event loop leave in one frame. A frame that is not made of calls
 * closes the connection: only a process of the platform speaks this.
 */
export function acceptHops(server: Server, path: string, handle: HopHandler): HopListener {
  const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_FRAME_BYTES });
  const served = new Map<WebSocket, Served>();
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://service').pathname !== path) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (connection) => {
      const state: Served = { inFlight: 0, draining: false };
      served.set(connection, state);
      connection.on('close', () => served.delete(connection));
      serve(connection, state, handle);
    });
  };
  server.on('upgrade', onUpgrade);
  return {
    drain() {
      server.off('upgrade', onUpgrade);
      for (const [connection, state] of served) {
        state.draining = true;
        if (state.inFlight === 0) closeAfterTurn(connection);
      }
    },
    close() {
      server.off('upgrade', onUpgrade);
      for (const connection of sockets.clients) connection.terminate();
      sockets.close();
    },
  };
}

/** Closes a drained connection once this turn's answers have left (FrameBatcher sends them at the turn's end). */
function closeAfterTurn(connection: WebSocket): void {
  setImmediate(() => connection.close(1001, 'the service is stopping'));
}

function serve(connection: WebSocket, state: Served, handle: HopHandler): void {
  const batcher = new FrameBatcher((frame) => {
    if (connection.readyState === WebSocket.OPEN) connection.send(frame);
  });
  const answered = (record: string) => {
    state.inFlight -= 1;
    batcher.push(record);
    if (state.draining && state.inFlight === 0) closeAfterTurn(connection);
  };
  connection.on('message', (data: Buffer, isBinary: boolean) => {
    const calls = isBinary ? null : callsOf(data.toString('utf8'));
    if (!calls) {
      connection.close(1008, 'not a frame of hop calls');
      return;
    }
    // A stopping service runs nothing new: the caller's connection closes, and its calls fail as unavailable.
    if (state.draining) return;
    state.inFlight += calls.length;
    for (const call of calls) {
      handle(call).then(
        (answer) => answered(answerRecord(answer)),
        () => answered(answerRecord({ id: call.id, outcome: 'refused', status: 500, body: INTERNAL_ERROR })),
      );
    }
  });
  // A peer that vanishes mid-frame is only a closed connection; its calls' answers go nowhere.
  connection.on('error', () => connection.terminate());
}

const INTERNAL_ERROR = JSON.stringify({ errors: [{ message: 'Internal server error' }] });

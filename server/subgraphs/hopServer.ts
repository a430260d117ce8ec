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

/**
 * Serves the API process's WebSocket at the service's GraphQL path (decision 036): each call of a
 * frame is handled on its own (each carries its signed caller, checked as the HTTP header is), and
 * the answers of one turn of the event loop leave in one frame. A frame that is not made of calls
 * closes the connection: only a process of the platform speaks this.
 */
export function acceptHops(server: Server, path: string, handle: HopHandler): { close(): void } {
  const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_FRAME_BYTES });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://service').pathname !== path) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (connection) => serve(connection, handle));
  };
  server.on('upgrade', onUpgrade);
  return {
    close() {
      server.off('upgrade', onUpgrade);
      for (const connection of sockets.clients) connection.terminate();
      sockets.close();
    },
  };
}

function serve(connection: WebSocket, handle: HopHandler): void {
  const batcher = new FrameBatcher((frame) => {
    if (connection.readyState === WebSocket.OPEN) connection.send(frame);
  });
  connection.on('message', (data: Buffer, isBinary: boolean) => {
    const calls = isBinary ? null : callsOf(data.toString('utf8'));
    if (!calls) {
      connection.close(1008, 'not a frame of hop calls');
      return;
    }
    for (const call of calls) {
      handle(call).then(
        (answer) => batcher.push(answerRecord(answer)),
        () => batcher.push(answerRecord({ id: call.id, outcome: 'refused', status: 500, body: INTERNAL_ERROR })),
      );
    }
  });
  // A peer that vanishes mid-frame is only a closed connection; its calls' answers go nowhere.
  connection.on('error', () => connection.terminate());
}

const INTERNAL_ERROR = JSON.stringify({ errors: [{ message: 'Internal server error' }] });

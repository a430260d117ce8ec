// `npm run bench:hop-transports`: what one call across the hop costs on this machine, transport by
// transport, before the subgraph's own work (issue 41 §2). Each transport carries GET provider's
// document to a server in this process that parses it and answers GET provider's answer; ten calls
// are kept in flight for BENCH_DURATION_SECONDS (default 3), the transports alternated for
// BENCH_ROUNDS rounds (default 5), and the table gives the median calls a second and the main
// thread's microseconds per call (both sides share this event loop, as in the bench's services
// topology). The signed caller's cost (sign, then verify, with both digests) is measured alone.
// The last transport is the hop as the platform runs it (decision 036): its WebSocket, the calls
// and answers of a turn in one frame, the answer's JSON handed on as text, unparsed.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createHttp2Server, type ClientHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Pool } from 'undici';
import WebSocket, { WebSocketServer } from 'ws';
import { acceptHops } from '../../server/subgraphs/hopServer.js';
import { HopSocket } from '../../server/subgraphs/hopSocket.js';
import type { HopCaller } from '../../server/subgraphs/signedCaller.js';
import { digestOf, signCaller, verifyCaller } from '../../server/subgraphs/signedCaller.js';
import { median } from './measure.js';

const IN_FLIGHT = 10;
const durationMs = Number(process.env.BENCH_DURATION_SECONDS || 3) * 1000;
const rounds = Number(process.env.BENCH_ROUNDS || 5);

const document = JSON.stringify({
  query: 'query Provider { provider { id name bookingUrl cancelUrl notificationUrl logoUrl isActive } }',
  variables: {},
});
/** The provider both GET provider's answer and the signed caller carry. */
const provider = {
  id: 1,
  name: 'Ticketing sandbox provider',
  bookingUrl: 'https://ticketing.example.org/book',
  cancelUrl: 'https://ticketing.example.org/cancel',
  notificationUrl: 'https://ticketing.example.org/notify',
  logoUrl: null,
  isActive: true,
};
const answer = JSON.stringify({ data: { provider } });

interface Transport {
  name: string;
  call(): Promise<unknown>;
  close(): Promise<void>;
}

function listening(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

function closing(server: { close(callback: () => void): unknown }): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

async function undiciTo(name: string, server: Server): Promise<Transport> {
  const origin = await listening(server);
  const pool = new Pool(origin, { connections: 64 });
  return {
    name,
    async call() {
      const response = await pool.request({
        path: '/graphql',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: document,
      });
      return JSON.parse(await response.body.text()) as unknown;
    },
    async close() {
      await pool.close();
      server.closeAllConnections();
      await closing(server);
    },
  };
}

/** The hop's HTTP/1.1 shape today: Express, its JSON body parser, and undici's pool. */
function expressHttp(): Promise<Transport> {
  const app = express();
  app.use(express.json({ limit: '16mb' }));
  app.post('/graphql', (_request, response) => {
    response.json(JSON.parse(answer));
  });
  return undiciTo('HTTP/1.1, Express, undici (the hop until decision 036)', createServer(app));
}

/** The same protocol without a framework: Node's server, the body read and parsed by hand. */
function plainHttp(): Promise<Transport> {
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      JSON.parse(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
  });
  return undiciTo("HTTP/1.1, Node's server, undici", server);
}

/** One HTTP/2 session, a stream per call. */
async function http2(): Promise<Transport> {
  const server = createHttp2Server();
  server.on('stream', (stream) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      stream.respond({ ':status': 200, 'content-type': 'application/json' });
      stream.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const session: ClientHttp2Session = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return {
    name: 'HTTP/2, one session',
    call() {
      return new Promise((resolve, reject) => {
        const stream = session.request({ ':method': 'POST', ':path': '/graphql', 'content-type': 'application/json' });
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        stream.on('error', reject);
        stream.end(document);
      });
    },
    async close() {
      session.close();
      await closing(server);
    },
  };
}

/** One WebSocket, a message each way per call, matched by an id before the body. */
async function webSocket(): Promise<Transport> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((resolve) => server.on('listening', resolve));
  server.on('connection', (socket) => {
    socket.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      const newline = text.indexOf('\n');
      JSON.parse(text.slice(newline + 1));
      socket.send(`${text.slice(0, newline)}\n${answer}`);
    });
  });
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, {
    perMessageDeflate: false,
  });
  await new Promise((resolve) => client.once('open', resolve));
  const pending = new Map<string, (body: unknown) => void>();
  let nextId = 0;
  client.on('message', (data: Buffer) => {
    const text = data.toString('utf8');
    const newline = text.indexOf('\n');
    const id = text.slice(0, newline);
    pending.get(id)?.(JSON.parse(text.slice(newline + 1)));
    pending.delete(id);
  });
  return {
    name: 'WebSocket (ws), one connection',
    call() {
      return new Promise((resolve) => {
        nextId += 1;
        const id = String(nextId);
        pending.set(id, resolve);
        client.send(`${id}\n${document}`);
      });
    },
    async close() {
      client.close();
      await closing(server);
    },
  };
}

/** The platform's own hop: HopSocket to acceptHops, the service parsing the call's body. */
async function platformHop(): Promise<Transport> {
  const server = createServer((_request, response) => response.end());
  const hops = acceptHops(server, '/graphql', async (call) => {
    JSON.parse(call.body);
    return { id: call.id, outcome: 'answer', status: 200, body: answer };
  });
  const origin = await listening(server);
  const socket = new HopSocket(`${origin.replace('http:', 'ws:')}/graphql`, 10_000);
  return {
    name: "WebSocket, the hop's frames (the hop today)",
    call: async () => (await socket.call('signed', null, document)).body,
    async close() {
      await socket.close();
      hops.close();
      server.closeAllConnections();
      await closing(server);
    },
  };
}

async function callsPerSecond(transport: Transport): Promise<number> {
  let calls = 0;
  const end = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < end) {
        await transport.call();
        calls += 1;
      }
    }),
  );
  return (calls * 1000) / durationMs;
}

/** Microseconds the signed caller costs per call: the API process signs, the service verifies. */
function signedCallerMicroseconds(): number {
  const secret = 'a-secret-the-processes-share-32-chars';
  const hop: HopCaller = {
    caller: { kind: 'provider', apiKeyId: 1, apiKeyPrefix: 'development_abc', providerId: 1, offererId: 1 },
    callerProvider: { ...provider, canManageIndividualOffers: true },
    requestId: '00000000-0000-4000-8000-000000000000',
  };
  const schemaDigest = digestOf('type Query { provider: Provider }');
  const once = () => {
    const header = signCaller(secret, hop, { schemaDigest, bodyDigest: digestOf(document) });
    const check = verifyCaller(secret, header);
    if (!check.ok || check.target.bodyDigest !== digestOf(document)) throw new Error('the signed caller was refused');
  };
  for (let index = 0; index < 2_000; index += 1) once();
  const count = 20_000;
  const started = performance.now();
  for (let index = 0; index < count; index += 1) once();
  return ((performance.now() - started) * 1000) / count;
}

const transports = [await expressHttp(), await plainHttp(), await http2(), await webSocket(), await platformHop()];
const figures = new Map<string, number[]>(transports.map((transport) => [transport.name, []]));
try {
  for (const transport of transports) await callsPerSecond(transport);
  for (let round = 0; round < rounds; round += 1) {
    for (const transport of transports) figures.get(transport.name)!.push(await callsPerSecond(transport));
  }
} finally {
  for (const transport of transports) await transport.close();
}

console.log(
  `${IN_FLIGHT} calls in flight, ${rounds} rounds of ${durationMs / 1000} s, medians; both sides in this process`,
);
for (const [name, rates] of figures) {
  const rate = median(rates);
  console.log(
    `${name.padEnd(48)} ${rate.toFixed(0).padStart(6)} calls/s  ${(1e6 / rate).toFixed(0).padStart(5)} µs a call`,
  );
}
console.log(
  `${'the signed caller (sign, digests, verify)'.padEnd(48)} ${signedCallerMicroseconds().toFixed(1).padStart(20)} µs a call`,
);

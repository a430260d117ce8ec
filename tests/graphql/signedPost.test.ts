import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasValidSignature } from '../../platform/messaging/signature.js';
import { MESSAGE_ID_HEADER, postSigned } from '../../platform/messaging/signedPost.js';
import { createOutbound, describeOutcome, MAX_ANSWER_BYTES, type Outbound } from '../../platform/outbound/index.js';
import { listenLocally, type LocalServer } from '../support/miscLocalServer.js';
import {
  nameOfRefused,
  REFUSED_ADDRESSES,
  resolvingToRefusedAddresses,
  scriptedResolver,
} from '../support/refusedAddresses.js';

const secret = 'c'.repeat(64);

describe('outgoing calls to providers', () => {
  let server: LocalServer;
  let port: number;
  const received: { url: string; body: string; headers: Record<string, string | string[] | undefined> }[] = [];

  beforeAll(async () => {
    server = await listenLocally((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        // No connection kept alive: each call resolves its name again, as a call minutes later would.
        res.setHeader('Connection', 'close');
        if (req.url === '/endless') {
          // An endless answer: the caller must stop reading, not hold it all.
          res.writeHead(200, { 'Content-Type': 'application/json' });
          const chunk = Buffer.alloc(64 * 1024, 'a');
          const write = () => {
            while (res.write(chunk));
            res.once('drain', write);
          };
          res.on('close', () => res.removeAllListeners('drain'));
          write();
          return;
        }
        if (req.url === '/declared-huge') {
          res.writeHead(200, { 'Content-Length': String(MAX_ANSWER_BYTES + 1) }).write('{');
          return;
        }
        if (req.url === '/exactly-the-cap') {
          res.writeHead(200).end(Buffer.alloc(MAX_ANSWER_BYTES, 'b'));
          return;
        }
        if (req.url === '/redirect') {
          res.writeHead(302, { Location: '/ok' }).end();
          return;
        }
        if (req.url === '/slow') return; // never answers
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      });
    });
    port = Number(new URL(server.baseUrl).port);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    received.length = 0;
  });

  describe('with private destinations allowed (outside production)', () => {
    let outbound: Outbound;
    beforeAll(() => {
      outbound = createOutbound({ appEnv: 'development', allowPrivate: true });
    });
    afterAll(() => outbound.close());

    it('sends the exact body given, signed over its bytes, with the message id, and reads the answer', async () => {
      const body = '{"action":"BOOK","venue":"Théâtre"}';
      const outcome = await postSigned(outbound.toProviders, `${server.baseUrl}/ok`, body, secret, {
        messageId: '42',
      });
      expect(outcome).toMatchObject({ kind: 'answered', status: 200, body: { ok: true } });
      const [last] = received;
      expect(last.body).toBe(body);
      expect(hasValidSignature(last.body, secret, last.headers['passculture-signature'] as string)).toBe(true);
      expect(last.headers[MESSAGE_ID_HEADER.toLowerCase()]).toBe('42');
    });

    it('fails a call whose answer is bigger than 1 MB, streamed or declared, and reads one of exactly 1 MB', async () => {
      const endless = await postSigned(outbound.toProviders, `${server.baseUrl}/endless`, '{}', secret);
      expect(endless).toEqual({ kind: 'oversized' });
      expect(describeOutcome(endless)).toBe('answer larger than 1 MB, not read');
      const declared = await postSigned(outbound.toProviders, `${server.baseUrl}/declared-huge`, '{}', secret);
      expect(declared).toEqual({ kind: 'oversized' });
      const atTheCap = await outbound.toProviders.send(`${server.baseUrl}/exactly-the-cap`, {
        method: 'GET',
        headers: {},
        timeoutMs: 5_000,
      });
      expect(atTheCap.kind).toBe('answered');
      if (atTheCap.kind === 'answered') expect(atTheCap.text).toHaveLength(MAX_ANSWER_BYTES);
    });

    it('follows no redirect: a 302 is the answer', async () => {
      const outcome = await postSigned(outbound.toProviders, `${server.baseUrl}/redirect`, '{}', secret);
      expect(outcome).toMatchObject({ kind: 'answered', status: 302 });
      expect(describeOutcome(outcome)).toBe('answered 302 (redirects are not followed)');
      expect(received.map((request) => request.url)).toEqual(['/redirect']);
    });

    it('reports an unreachable URL and a timeout without throwing', async () => {
      expect(await postSigned(outbound.toProviders, 'http://127.0.0.1:1/none', '{}', secret)).toMatchObject({
        kind: 'unreachable',
      });
      const started = performance.now();
      const slow = await postSigned(outbound.toProviders, `${server.baseUrl}/slow`, '{}', secret, { timeoutMs: 200 });
      expect(slow).toEqual({ kind: 'timeout' });
      expect(performance.now() - started).toBeLessThan(2_000);
    });
  });

  describe('with private destinations refused (production)', () => {
    const names: Record<string, string[][]> = {
      ...resolvingToRefusedAddresses(),
      // The local receiver stands in for a public host (allowedAddresses below).
      'tickets.example.org': [['127.0.0.1']],
      // Public when first asked, the metadata service's address at the next call.
      'rebinding.example.org': [['127.0.0.1'], ['169.254.169.254']],
      'mixed.example.org': [['127.0.0.1', '10.0.0.7']],
    };
    let resolver: ReturnType<typeof scriptedResolver>;
    let outbound: Outbound;
    beforeAll(() => {
      resolver = scriptedResolver(names);
      outbound = createOutbound({
        appEnv: 'production',
        allowPrivate: false,
        resolve: resolver.resolve,
        allowedAddresses: ['127.0.0.1'],
      });
    });
    afterAll(() => outbound.close());

    const post = (url: string) => postSigned(outbound.toProviders, url, '{}', secret, { timeoutMs: 3_000 });

    it('refuses every refused range written as an IP in the URL, before connecting', async () => {
      for (const [kind, addresses] of Object.entries(REFUSED_ADDRESSES)) {
        for (const address of addresses) {
          // A zone index is not written in URLs; 127.0.0.1 stands in for a public host here.
          if (address === '127.0.0.1' || address.includes('%')) continue;
          const host = address.includes(':') ? `[${address}]` : address;
          const outcome = await post(`http://${host}:${port}/ok`);
          expect(outcome.kind, address).toBe('refused');
          expect(describeOutcome(outcome), address).toMatch(new RegExp(`^refused: .* is an? ${kind} address`));
        }
      }
      expect(received).toEqual([]);
    });

    it('refuses a name resolving to any refused range, at the call, before connecting', async () => {
      for (const [kind, addresses] of Object.entries(REFUSED_ADDRESSES)) {
        for (const [index, address] of addresses.entries()) {
          // The zone index is for a resolver's answers only; 127.0.0.1 stands in for a public host here.
          if (address.includes('%') || address === '127.0.0.1') continue;
          const name = nameOfRefused(kind, index);
          const outcome = await post(`http://${name}:${port}/ok`);
          expect(outcome.kind, name).toBe('refused');
          expect(describeOutcome(outcome)).toBe(
            `refused: ${name} resolves to ${address}, ${kind === 'unspecified' ? 'an' : 'a'} ${kind} address (the platform calls only public addresses)`,
          );
        }
      }
      expect(received).toEqual([]);
    });

    it('delivers to a name whose addresses are allowed, through the resolver it was given', async () => {
      const outcome = await post(`http://tickets.example.org:${port}/ok`);
      expect(outcome).toMatchObject({ kind: 'answered', status: 200 });
      expect(received.map((request) => [request.url, request.headers.host])).toEqual([
        ['/ok', `tickets.example.org:${port}`],
      ]);
    });

    it('checks the address it connects to: a name that changes its answer is refused at the call that sees it', async () => {
      const asked = resolver.asked.length;
      expect(await post(`http://rebinding.example.org:${port}/ok`)).toMatchObject({ kind: 'answered', status: 200 });
      const rebound = await post(`http://rebinding.example.org:${port}/ok`);
      expect(rebound).toEqual({
        kind: 'refused',
        reason: 'rebinding.example.org resolves to 169.254.169.254, a link-local address',
      });
      // One resolution per call, the one the connection used: no check followed by a second lookup.
      expect(resolver.asked.slice(asked)).toEqual(['rebinding.example.org', 'rebinding.example.org']);
      expect(received).toHaveLength(1);
    });

    it('refuses a name with a refused address among allowed ones', async () => {
      expect(await post(`http://mixed.example.org:${port}/ok`)).toMatchObject({ kind: 'refused' });
      expect(received).toEqual([]);
    });

    it("calls the operator's own services (GEOCODER_URL) on any address: configuration, not a caller's choice", async () => {
      const production = createOutbound({ appEnv: 'production', allowPrivate: false });
      try {
        const url = `${server.baseUrl}/ok`;
        const get = { method: 'GET', headers: {}, timeoutMs: 3_000 } as const;
        expect(await production.toProviders.send(url, get)).toEqual({
          kind: 'refused',
          reason: '127.0.0.1 is a loopback address',
        });
        expect(await production.toOperatorServices.send(url, get)).toMatchObject({ kind: 'answered', status: 200 });
        expect(received).toHaveLength(1);
      } finally {
        await production.close();
      }
    });
  });
});

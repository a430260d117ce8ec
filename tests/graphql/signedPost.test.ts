import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasValidSignature } from '../../graphql/shared/messaging/signature.js';
import { postSigned } from '../../graphql/shared/messaging/signedPost.js';
import { listenLocally, type LocalServer } from '../support/miscLocalServer.js';

describe('a signed call to a provider', () => {
  let server: LocalServer;
  const secret = 'c'.repeat(64);
  const received: { body: string; signature: string | undefined }[] = [];

  beforeAll(async () => {
    server = await listenLocally((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          body: Buffer.concat(chunks).toString('utf8'),
          // The header of the contract, as a provider's server reads it (Node lowercases names).
          signature: req.headers['passculture-signature'] as string | undefined,
        });
        if (req.url === '/huge') {
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
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      });
    });
  });
  afterAll(() => server.close());

  it('sends the exact body given, signed over its bytes, and reads the answer', async () => {
    const body = '{"action":"BOOK","venue":"Théâtre"}';
    const outcome = await postSigned(`${server.baseUrl}/ok`, body, secret);
    expect(outcome).toMatchObject({ kind: 'answered', status: 200, body: { ok: true } });
    const last = received.at(-1)!;
    expect(last.body).toBe(body);
    expect(hasValidSignature(last.body, secret, last.signature)).toBe(true);
  });

  it('stops reading an answer past its size cap instead of holding it in memory', async () => {
    const outcome = await postSigned(`${server.baseUrl}/huge`, '{}', secret, 5_000);
    expect(outcome.kind).toBe('answered');
    if (outcome.kind === 'answered') expect(outcome.text).toBe('');
  });

  it('reports an unreachable URL without throwing', async () => {
    const outcome = await postSigned('http://127.0.0.1:1/none', '{}', secret, 2_000);
    expect(outcome.kind).toBe('unreachable');
  });
});

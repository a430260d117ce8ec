/**
 * The retry helpers of "Errors and retries", run against a server that answers what a bad day
 * brings (a dropped connection, 503, 409, 429 with Retry-After), then the answer: each helper sends
 * the write again with the same Idempotency-Key and the same body until it is answered, and sends a
 * refusal that a retry would not change (422) once. The samples test runs them against the platform,
 * where the first attempt succeeds; this one proves the retries the page promises.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPageSamples, type RunnableSample, type SampleLanguage } from '../../app/docs/samples.server.js';
import { findProjectRoot } from '../../server/portal.js';
import { listenLocally, type LocalServer } from '../support/miscLocalServer.js';
import { runSample } from './support/sampleRunner.js';

const PAGE = join('docs', 'pages', 'understanding-our-api', 'errors-and-retries.md');
const source = readFileSync(join(findProjectRoot(), PAGE), 'utf8');
const helper = extractPageSamples(source, PAGE)
  .steps.flatMap((step) => (step.kind === 'sample' ? [step.sample] : []))
  .find((sample) => sample.curl.includes('--retry'));

const pythonProblem = (() => {
  const probe = spawnSync('python3', ['-c', 'import requests'], { encoding: 'utf8' });
  if (probe.error) return 'python3 is not installed';
  return probe.status === 0 ? null : 'python3 cannot import requests';
})();

/** One scripted answer: a status with its headers and body, or the connection dropped unanswered. */
type Scripted = { status: number; headers?: Record<string, string>; body: unknown } | 'drop';

interface Received {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  body: string;
}

const dates = {
  dates: [
    { id: 11, idAtProvider: 'malade-0506', quantity: 120, bookedQuantity: 0 },
    { id: 12, idAtProvider: 'malade-0507', quantity: 120, bookedQuantity: 0 },
  ],
};
const answered: Scripted = { status: 200, body: dates };
const retryAfter = (status: number): Scripted => ({
  status,
  headers: { 'Retry-After': '1' },
  body: { global: [`answered ${status}`] },
});

describe('the retry helpers of Errors and retries', () => {
  let server: LocalServer;
  let script: Scripted[] = [];
  let received: Received[] = [];
  let directory: string;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'retry-helper-'));
    server = await listenLocally((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const key = request.headers['idempotency-key'];
        received.push({
          method: request.method ?? '',
          path: request.url ?? '',
          idempotencyKey: typeof key === 'string' ? key : undefined,
          body,
        });
        const next = script.shift() ?? answered;
        if (next === 'drop') {
          request.socket.destroy();
          return;
        }
        response.writeHead(next.status, { 'Content-Type': 'application/json', ...next.headers });
        response.end(JSON.stringify(next.body));
      });
    });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const setupFor: Record<Exclude<SampleLanguage, 'sdk'>, (baseUrl: string) => string> = {
    shell: (baseUrl) => `BASE_URL=${baseUrl}`,
    javascript: (baseUrl) => `const BASE_URL = '${baseUrl}';`,
    python: (baseUrl) => `BASE_URL = "${baseUrl}"`,
  };

  async function run(language: Exclude<SampleLanguage, 'sdk'>, answers: Scripted[]) {
    script = [...answers];
    received = [];
    const sample = helper as RunnableSample;
    const code = language === 'shell' ? sample.curl : sample.equivalents[language]!;
    const outcome = await runSample(language, code, {
      directory,
      variables: { API_KEY: 'integration_000000000000_secret', EVENT_ID: '7', PRICE_CATEGORY_ID: '3' },
      setup: [setupFor[language](server.baseUrl)],
    });
    return { outcome, received: [...received] };
  }

  /** Every attempt is the same write: same key (there is one), same path, same body. */
  function expectOneWrite(requests: Received[], attempts: number) {
    expect(requests).toHaveLength(attempts);
    const [first] = requests;
    expect(first.method).toBe('POST');
    expect(first.path).toBe('/public/offers/v1/events/7/dates');
    expect(first.idempotencyKey).toMatch(/^[\x21-\x7e]{16,255}$/);
    expect(JSON.parse(first.body).dates.map((date: { idAtProvider: string }) => date.idAtProvider)).toEqual([
      'malade-0506',
      'malade-0507',
    ]);
    for (const attempt of requests) expect(attempt).toEqual(first);
  }

  it('finds the helper on the page, with its JavaScript and Python tabs', () => {
    expect(helper?.equivalents.javascript).toContain('Idempotency-Key');
    expect(helper?.equivalents.python).toContain('Idempotency-Key');
  });

  const languages: [string, Exclude<SampleLanguage, 'sdk'>, string | null][] = [
    ['JavaScript', 'javascript', null],
    ['Python', 'python', pythonProblem],
  ];
  for (const [name, language, problem] of languages) {
    describe(name, () => {
      it.skipIf(problem !== null)(
        `sends the write again, same key and body, after a dropped connection, 503, 409 and 429, until it is answered${problem ? ` (skipped: ${problem})` : ''}`,
        async () => {
          const { outcome, received: requests } = await run(language, [
            'drop',
            retryAfter(503),
            retryAfter(409),
            retryAfter(429),
            answered,
          ]);
          expect(outcome.exitCode, outcome.stderr).toBe(0);
          expect(outcome.status).toBe(200);
          expect(outcome.stdout).toContain('malade-0507');
          expectOneWrite(requests, 5);
        },
        60_000,
      );

      it.skipIf(problem !== null)(
        `sends a 422 once: a retry would not change it${problem ? ` (skipped: ${problem})` : ''}`,
        async () => {
          const { outcome, received: requests } = await run(language, [
            { status: 422, body: [{ loc: ['dates', 0, 'quantity'], msg: 'Invalid', type: 'value_error' }] },
          ]);
          expect(outcome.status).toBe(422);
          expectOneWrite(requests, 1);
        },
        60_000,
      );

      it.skipIf(problem !== null)(
        `gives up after five attempts and returns the last answer${problem ? ` (skipped: ${problem})` : ''}`,
        async () => {
          const { outcome, received: requests } = await run(language, [
            { status: 500, body: { global: ['Internal server error'] } },
            retryAfter(503),
            retryAfter(503),
            retryAfter(503),
            retryAfter(503),
          ]);
          expect(outcome.status).toBe(503);
          expectOneWrite(requests, 5);
        },
        60_000,
      );
    });
  }

  it('curl: sends the write again with the same key after a 503, and not after a 409, as the page says', async () => {
    const afterUnavailable = await run('shell', [retryAfter(503), answered]);
    expect(afterUnavailable.outcome.status).toBe(200);
    expectOneWrite(afterUnavailable.received, 2);

    const afterConflict = await run('shell', [retryAfter(409)]);
    expect(afterConflict.outcome.status).toBe(409);
    expectOneWrite(afterConflict.received, 1);
  }, 60_000);
});

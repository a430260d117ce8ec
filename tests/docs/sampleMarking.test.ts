/**
 * The samples' extractor and runner on pages made for the purpose: what the marking means, what
 * a mistake in it reports, and what a failing sample says.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAddresses } from '../../app/docs/addresses.server.js';
import { extractPageSamples, valueAtPath } from '../../app/docs/samples.server.js';
import { type DocsServer, startDocsServer } from './support/docsServer.js';
import { OutboundHttp } from '../../platform/outbound/index.js';
import { outsideCalls } from './support/outsideCalls.js';
import { runPageSamples } from './support/pageRunner.js';
import { bodyDifferences } from './support/shownAnswers.js';

const frontMatter = '---\ntitle: T\ndescription: D.\nsidebar_label: T\nsidebar_position: 1\n---\n';
const page = (body: string) => extractPageSamples(`${frontMatter}${body}`, 'page.md');
const fence = '```';

describe('the marking of samples', () => {
  it('reads a run block: status, saved values, first line, and the same request in the tabs that follow', () => {
    const { steps, problems } = page(
      `Intro.\n\n${fence}sh tab="curl" run status=201 save="EVENT_ID=id PRICE=priceCategories.0.id"\ncurl -X POST \\\n  {{BASE_URL}}/x\n${fence}\n\n` +
        `${fence}js tab="JavaScript"\nawait fetch('x');\n${fence}\n\n${fence}python tab="Python"\nrequests.get("x")\n${fence}\n\n` +
        `${fence}ts tab="SDK"\nawait api.GET('/x');\n${fence}\n`,
    );
    expect(problems).toEqual([]);
    expect(steps).toEqual([
      {
        kind: 'sample',
        sample: {
          line: 9,
          firstLine: 'curl -X POST \\',
          curl: 'curl -X POST \\\n  {{BASE_URL}}/x',
          status: 201,
          save: [
            { name: 'EVENT_ID', path: 'id' },
            { name: 'PRICE', path: 'priceCategories.0.id' },
          ],
          equivalents: {
            javascript: "await fetch('x');",
            python: 'requests.get("x")',
            sdk: "await api.GET('/x');",
          },
        },
      },
    ]);
  });

  it('reports a run block without status, a curl block marked neither way, and a bad save', () => {
    const { problems } = page(
      `${fence}sh run\ncurl {{BASE_URL}}/a\n${fence}\n\n` +
        `${fence}sh\ncurl {{BASE_URL}}/b\n${fence}\n\n` +
        `${fence}sh run status=200 save="id"\ncurl {{BASE_URL}}/c\n${fence}\n\n` +
        `${fence}json run status=200\n{}\n${fence}\n`,
    );
    expect(problems).toEqual([
      'page.md:7: a run block needs status=NNN',
      'page.md:11: a curl command must be marked either run (with status=) or norun',
      'page.md:15: save entry "id" is not NAME=json.path',
      'page.md:19: only a curl command can be marked run or norun',
    ]);
  });

  it('skips norun blocks, keeps setup groups and files, and collects verify blocks', () => {
    const { steps, problems, verifiers } = page(
      `${fence}sh tab="curl"\nHOST={{BASE_URL}}\n${fence}\n${fence}js tab="JavaScript"\nconst HOST = 'x';\n${fence}\n\n` +
        `${fence}sh norun\ncurl https://api.example.net/x\n${fence}\n\n` +
        `${fence}json file=event.json\n{"name": "x"}\n${fence}\n\n` +
        `${fence}js tab="JavaScript" verify\nfunction verifySignature() {}\n${fence}\n`,
    );
    expect(problems).toEqual([]);
    expect(steps).toEqual([
      {
        kind: 'setup',
        line: 7,
        code: { shell: 'HOST={{BASE_URL}}', javascript: "const HOST = 'x';" },
      },
      { kind: 'file', line: 18, name: 'event.json', content: '{"name": "x"}' },
    ]);
    expect(verifiers.map((block) => block.code)).toEqual(['function verifySignature() {}']);
  });

  it('takes the json or http block right after a sample as the answer it shows, and no other', () => {
    const { steps, problems } = page(
      `${fence}sh run status=200\ncurl {{BASE_URL}}/a\n${fence}\n\nThe answer:\n\n${fence}json\n{"id": 1}\n${fence}\n\n` +
        `${fence}json example\n{"not": "an answer"}\n${fence}\n\n` +
        `${fence}sh run status=401\ncurl -i {{BASE_URL}}/b\n${fence}\n\n${fence}http\nHTTP/1.1 401 Unauthorized\nContent-Type: application/json\n\n{"auth": "x"}\n${fence}\n\n` +
        `${fence}sh run status=200\ncurl {{BASE_URL}}/c\n${fence}\n\n${fence}json file=body.json\n{"sent": true}\n${fence}\n\n${fence}json\n{"after": "a file"}\n${fence}\n`,
    );
    expect(problems).toEqual([]);
    const samples = steps.flatMap((step) => (step.kind === 'sample' ? [step.sample] : []));
    expect(samples.map((sample) => sample.shown)).toEqual([
      { line: 13, body: { id: 1 } },
      { line: 25, status: 401, headers: { 'content-type': 'application/json' }, body: { auth: 'x' } },
      undefined,
    ]);
  });

  it('reports a second answer after a sample, unless marked example', () => {
    const { problems } = page(
      `${fence}sh run status=200\ncurl {{BASE_URL}}/a\n${fence}\n\n${fence}json\n{"id": 1}\n${fence}\n\n${fence}json\n{"id": 2}\n${fence}\n`,
    );
    expect(problems).toEqual(['page.md:15: the sample at line 7 shows one answer: mark this block example']);
  });

  it('reports an answer shown that is not JSON, and an http block without a status line', () => {
    const { problems } = page(
      `${fence}sh run status=200\ncurl {{BASE_URL}}/a\n${fence}\n\n${fence}json\n{"id": 1,}\n${fence}\n\n` +
        `${fence}sh run status=200\ncurl {{BASE_URL}}/b\n${fence}\n\n${fence}http\n200 OK\n${fence}\n`,
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^page\.md:11: the answer shown is not JSON/);
    expect(problems[1]).toBe('page.md:19: an http block starts with a status line (HTTP/1.1 200 OK)');
  });

  it('follows dot paths into objects and arrays', () => {
    const answer = { id: 7, priceCategories: [{ id: 12 }], nested: { list: [[1, 2]] } };
    expect(valueAtPath(answer, 'id')).toBe(7);
    expect(valueAtPath(answer, 'priceCategories.0.id')).toBe(12);
    expect(valueAtPath(answer, 'nested.list.0.1')).toBe(2);
    expect(valueAtPath(answer, 'priceCategories.1.id')).toBeUndefined();
    expect(valueAtPath(answer, 'id.deeper')).toBeUndefined();
  });
});

describe('an answer shown, compared with the real one', () => {
  it('may show some keys of an object and some items of a list, in their order', () => {
    const actual = { id: 7, name: 'Tour', dates: [{ id: 1 }, { id: 2, quantity: 5 }, { id: 3 }], extra: true };
    expect(bodyDifferences({ name: 'Tour', dates: [{ quantity: 5 }] }, actual)).toEqual([]);
    expect(bodyDifferences([{ id: 3, quantity: 1 }], [{ id: 1, quantity: 1 }])).toEqual([]);
    expect(bodyDifferences({ name: 'Tours' }, actual)).toEqual(['name: "Tours" is shown, the answer has "Tour"']);
    expect(bodyDifferences({ missing: null }, actual)).toEqual(['missing: shown, but not in the answer']);
    expect(bodyDifferences({ name: 'Tour', '...': '...' }, actual)).toEqual([]);
    expect(bodyDifferences(['b', 'a'], ['a', 'b'])[0]).toBe(
      '[1]: no item of the answer (2) matches it, from position 2 on',
    );
  });

  it('matches ids, datetimes and tokens by their shape, and nothing else', () => {
    const actual = {
      offerId: 42,
      creationDate: '2026-12-01T10:00:00.000Z',
      token: 'K7XQ2P',
      tickets: [{ barcode: '1234567890' }],
      quantity: 3,
    };
    const shown = {
      offerId: 1,
      creationDate: '2026-11-24T09:00:00.000Z',
      token: '3CZZER',
      tickets: [{ barcode: '0000000001' }],
      quantity: 3,
    };
    expect(bodyDifferences(shown, actual)).toEqual([]);
    expect(bodyDifferences({ ...shown, quantity: 2 }, actual)).toEqual(['quantity: 2 is shown, the answer has 3']);
    expect(bodyDifferences({ token: 'ABCDEFG' }, actual)).toEqual([
      'token: a token like "ABCDEFG" is shown, the answer has "K7XQ2P"',
    ]);
    expect(bodyDifferences({ offerId: 1 }, { offerId: '42' })).toEqual([
      'offerId: an id is shown, the answer has "42"',
    ]);
    expect(bodyDifferences({ creationDate: '2026-11-24T09:00:00.000Z' }, { creationDate: null })).toEqual([
      'creationDate: a datetime is shown, the answer has null',
    ]);
    // A count is no id: its value is shown as it is.
    expect(bodyDifferences({ quantity: 1 }, { quantity: 2 })).toEqual(['quantity: 1 is shown, the answer has 2']);
  });
});

describe('calls out of the process while samples run', () => {
  it('answer as a ticketing system under example.com, and never leave the machine', async () => {
    const network = new OutboundHttp(outsideCalls());
    try {
      const post = async (url: string, body: unknown) => {
        const outcome = await network.send(url, {
          method: 'POST',
          headers: {},
          body: JSON.stringify(body),
          timeoutMs: 2_000,
        });
        return outcome.kind === 'answered' ? JSON.parse(outcome.text) : outcome;
      };
      const booked = await post('https://tickets.example.com/book', { booking_quantity: 2 });
      expect(booked.tickets).toHaveLength(2);
      expect(booked.tickets[0].barcode).toMatch(/^[0-9A-F]{12}$/);
      expect(booked.remainingQuantity).toBe(998);
      expect(await post('https://tickets.example.com/notify', { action: 'BOOK', booking_quantity: 1 })).toEqual({});
      expect(await post('https://tickets.example.com/cancel', { barcodes: ['A'] })).toEqual({});
      expect(await post('https://passculture.example.org/x', {})).toMatchObject({ kind: 'unreachable' });
    } finally {
      await network.close();
    }
  });
});

describe('running a page of samples', () => {
  let server: DocsServer;
  let directory: string;
  beforeAll(async () => {
    server = await startDocsServer();
    directory = mkdtempSync(join(tmpdir(), 'docs-marking-'));
  });
  afterAll(async () => {
    rmSync(directory, { recursive: true, force: true });
    await server?.close();
  });

  const run = (body: string) =>
    runPageSamples(page(withAddresses(body, 'page.md', server.addresses)).steps, 'shell', {
      file: 'page.md',
      apiKey: server.sandbox.apiKey,
      directory,
      runDueJobs: () => server.runDueJobs(),
    });

  it('passes saved values to the later samples and setup variables to every one', async () => {
    const result = await run(
      `${fence}sh tab="curl"\nHOST={{BASE_URL}}\nAUTH="Authorization: Bearer $API_KEY"\n${fence}\n${fence}js tab="JavaScript"\n${fence}\n\n` +
        `${fence}sh run status=200 save="VENUE_ID=0.venues.0.id"\ncurl -H "$AUTH" "$HOST/public/offers/v1/offerer_venues"\n${fence}\n\n` +
        `${fence}sh run status=200\ncurl -H "$AUTH" "$HOST/public/offers/v1/events?venueId=$VENUE_ID"\n${fence}\n`,
    );
    expect(result.failure).toBeNull();
    expect(result.executed).toHaveLength(2);
  });

  it('reports a wrong status with the page, the first line, both statuses and the body', async () => {
    const result = await run(`${fence}sh run status=200\ncurl {{BASE_URL}}/public/providers/v1/provider\n${fence}\n`);
    expect(result.failure).toContain(`page.md:7 (shell) curl ${server.baseUrl}/public/providers/v1/provider`);
    expect(result.failure).toContain('expected status 200, got 401');
    expect(result.failure).toContain('body: {"auth":');
  });

  it('reports an answer that is not the one shown, and passes one that is', async () => {
    const shown = (body: string) =>
      `${fence}sh run status=200\ncurl -H "Authorization: Bearer $API_KEY" {{BASE_URL}}/public/providers/v1/provider\n${fence}\n\n${fence}json\n${body}\n${fence}\n`;
    expect((await run(shown('{"id": 99, "name": "Demo Ticketing", "logoUrl": null}'))).failure).toBeNull();
    const failure = (await run(shown('{"name": "Another Ticketing"}'))).failure;
    expect(failure).toContain('the answer is not the one the page shows at line 11:');
    expect(failure).toContain('name: "Another Ticketing" is shown, the answer has "Demo Ticketing"');
  });

  it('compares the headers an http block shows', async () => {
    const shown = (limit: string) =>
      `${fence}sh run status=200\ncurl -i -H "Authorization: Bearer $API_KEY" {{BASE_URL}}/public/providers/v1/provider\n${fence}\n\n${fence}http\nHTTP/1.1 200 OK\nRateLimit-Limit: ${limit}\n\n{"name": "Demo Ticketing"}\n${fence}\n`;
    expect((await run(shown('200'))).failure).toBeNull();
    expect((await run(shown('100'))).failure).toContain('header ratelimit-limit: "100" is shown, the answer has "200"');
  });

  it('reports a saved path the answer does not have', async () => {
    const result = await run(
      `${fence}sh run status=200 save="X=0.nothing"\ncurl -H "Authorization: Bearer $API_KEY" {{BASE_URL}}/public/offers/v1/offerer_venues\n${fence}\n`,
    );
    expect(result.failure).toContain('save="X=0.nothing": the answer has no value at 0.nothing');
  });
});

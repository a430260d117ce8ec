/**
 * The samples' extractor and runner on pages made for the purpose: what the marking means, what
 * a mistake in it reports, and what a failing sample says.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPageSamples, valueAtPath } from '../../app/docs/samples.server.js';
import { type DocsServer, startDocsServer } from './support/docsServer.js';
import { OutboundHttp } from '../../graphql/shared/outbound/index.js';
import { outsideCalls } from './support/outsideCalls.js';
import { runPageSamples } from './support/pageRunner.js';

const frontMatter = '---\ntitle: T\ndescription: D.\nsidebar_label: T\nsidebar_position: 1\n---\n';
const page = (body: string) => extractPageSamples(`${frontMatter}${body}`, 'page.md');
const fence = '```';

describe('the marking of samples', () => {
  it('reads a run block: status, saved values, first line, and the same request in the tabs that follow', () => {
    const { steps, problems } = page(
      `Intro.\n\n${fence}sh tab="curl" run status=201 save="EVENT_ID=id PRICE=priceCategories.0.id"\ncurl -X POST \\\n  https://backend.integration.passculture.pro/x\n${fence}\n\n` +
        `${fence}js tab="JavaScript"\nawait fetch('x');\n${fence}\n\n${fence}python tab="Python"\nrequests.get("x")\n${fence}\n`,
    );
    expect(problems).toEqual([]);
    expect(steps).toEqual([
      {
        kind: 'sample',
        sample: {
          line: 9,
          firstLine: 'curl -X POST \\',
          curl: 'curl -X POST \\\n  https://backend.integration.passculture.pro/x',
          status: 201,
          save: [
            { name: 'EVENT_ID', path: 'id' },
            { name: 'PRICE', path: 'priceCategories.0.id' },
          ],
          equivalents: { javascript: "await fetch('x');", python: 'requests.get("x")' },
        },
      },
    ]);
  });

  it('reports a run block without status, a curl block marked neither way, and a bad save', () => {
    const { problems } = page(
      `${fence}sh run\ncurl https://backend.integration.passculture.pro/a\n${fence}\n\n` +
        `${fence}sh\ncurl https://backend.integration.passculture.pro/b\n${fence}\n\n` +
        `${fence}sh run status=200 save="id"\ncurl https://backend.integration.passculture.pro/c\n${fence}\n\n` +
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
      `${fence}sh tab="curl"\nHOST=https://backend.integration.passculture.pro\n${fence}\n${fence}js tab="JavaScript"\nconst HOST = 'x';\n${fence}\n\n` +
        `${fence}sh norun\ncurl https://backend.passculture.pro/x\n${fence}\n\n` +
        `${fence}json file=event.json\n{"name": "x"}\n${fence}\n\n` +
        `${fence}js tab="JavaScript" verify\nfunction verifySignature() {}\n${fence}\n`,
    );
    expect(problems).toEqual([]);
    expect(steps).toEqual([
      {
        kind: 'setup',
        line: 7,
        code: { shell: 'HOST=https://backend.integration.passculture.pro', javascript: "const HOST = 'x';" },
      },
      { kind: 'file', line: 18, name: 'event.json', content: '{"name": "x"}' },
    ]);
    expect(verifiers.map((block) => block.code)).toEqual(['function verifySignature() {}']);
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
    runPageSamples(page(body).steps, 'shell', {
      file: 'page.md',
      baseUrl: server.baseUrl,
      apiKey: server.sandbox.apiKey,
      directory,
      runDueJobs: () => server.runDueJobs(),
    });

  it('passes saved values to the later samples and setup variables to every one', async () => {
    const result = await run(
      `${fence}sh tab="curl"\nHOST=https://backend.integration.passculture.pro\nAUTH="Authorization: Bearer $API_KEY"\n${fence}\n${fence}js tab="JavaScript"\n${fence}\n\n` +
        `${fence}sh run status=200 save="VENUE_ID=0.venues.0.id"\ncurl -H "$AUTH" "$HOST/public/offers/v1/offerer_venues"\n${fence}\n\n` +
        `${fence}sh run status=200\ncurl -H "$AUTH" "$HOST/public/offers/v1/events?venueId=$VENUE_ID"\n${fence}\n`,
    );
    expect(result.failure).toBeNull();
    expect(result.executed).toHaveLength(2);
  });

  it('reports a wrong status with the page, the first line, both statuses and the body', async () => {
    const result = await run(
      `${fence}sh run status=200\ncurl https://backend.integration.passculture.pro/public/providers/v1/provider\n${fence}\n`,
    );
    expect(result.failure).toContain(
      'page.md:7 (shell) curl https://backend.integration.passculture.pro/public/providers/v1/provider',
    );
    expect(result.failure).toContain('expected status 200, got 401');
    expect(result.failure).toContain('body: {"auth":');
  });

  it('reports a saved path the answer does not have', async () => {
    const result = await run(
      `${fence}sh run status=200 save="X=0.nothing"\ncurl -H "Authorization: Bearer $API_KEY" https://backend.integration.passculture.pro/public/offers/v1/offerer_venues\n${fence}\n`,
    );
    expect(result.failure).toContain('save="X=0.nothing": the answer has no value at 0.nothing');
  });
});

/**
 * The Postman collection the reference page offers, downloaded from a running server with its
 * sandbox environment and run by newman (Postman's own runner, a client no one here wrote) on
 * the sandbox's records: every request answers a status its operation declares, with a body that
 * fits the document, and every read that names real records succeeds.
 */
import newman, { type NewmanRunSummary } from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION_DOWNLOADS } from '../../server/http/collectionDownloads.js';
import { type DocsServer, startDocsServer } from '../docs/support/docsServer.js';
import { contractMismatch, openApiDocument } from '../support/contract.js';
import { type PathParameterValues, sandboxRecords } from './support/sandboxRecords.js';

const RUN_TIMEOUT_MS = 120_000;

interface Answer {
  /** `GET /public/offers/v1/events/{event_id}`: the operation, as the document names it. */
  operation: string;
  url: string;
  status: number;
  failure: string | null;
}

function runCollection(collection: object, environment: object): Promise<NewmanRunSummary> {
  return new Promise((resolve, reject) => {
    newman.run({ collection, environment, reporters: [], timeoutRequest: 10_000 }, (error, summary) =>
      error ? reject(error) : resolve(summary),
    );
  });
}

/** The document's path of a request of the collection: `:event_id` is `{event_id}` there. */
function templateOf(segments: string[]): string {
  return `/${segments.map((segment) => segment.replace(/^:(.+)$/, '{$1}')).join('/')}`;
}

function answersOf(summary: NewmanRunSummary): Answer[] {
  return summary.run.executions.map((execution) => {
    const request = execution.item.request;
    const method = request.method.toLowerCase();
    const path = templateOf(request.url.path ?? []);
    const operation = `${method.toUpperCase()} ${path}`;
    // The request as sent, its variables replaced (the item keeps the template); newman's types omit it.
    const { request: sent = request, requestError } = execution as typeof execution & {
      request?: typeof request;
      requestError?: Error;
    };
    const url = sent.url.toString();
    const { response } = execution;
    if (!response) return { operation, url, status: 0, failure: `no answer: ${String(requestError)}` };
    const text = response.stream ? response.stream.toString('utf8') : '';
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      return { operation, url, status: response.code, failure: `not JSON: ${text.slice(0, 200)}` };
    }
    return {
      operation,
      url,
      status: response.code,
      failure: contractMismatch({ status: response.code, body, text }, method, path),
    };
  });
}

describe('the Postman collection, run by newman', () => {
  let server: DocsServer;
  let ids: PathParameterValues;
  let answers: Answer[];

  beforeAll(async () => {
    server = await startDocsServer();
    ids = await sandboxRecords(server);
    const download = async (path: string) => {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      return (await response.json()) as Record<string, any>;
    };
    const collection = await download(COLLECTION_DOWNLOADS.postmanCollection);
    const environment = await download(COLLECTION_DOWNLOADS.postmanEnvironment);
    // What an integrator fills in: their key, and the ids of their own records.
    for (const variable of environment.values as { key: string; value: string }[]) {
      if (variable.key === 'apiKey') variable.value = server.sandbox.apiKey;
      else if (variable.key in ids) variable.value = ids[variable.key];
    }
    answers = answersOf(await runCollection(collection, environment));
  }, RUN_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
  });

  it('sends every operation of the document, once', () => {
    const operations = Object.entries(openApiDocument.paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item ?? {}).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(answers.map((answer) => answer.operation).sort()).toEqual(operations.sort());
  });

  it('gets, for every request, a status its operation declares and a body that fits the document', () => {
    expect(answers.filter((answer) => answer.failure !== null)).toEqual([]);
  });

  it('succeeds on every read that names real records', () => {
    // A read whose path and query hold no placeholder (`<string>`): a 4xx there is a wrong answer.
    const reads = answers.filter((answer) => answer.operation.startsWith('GET ') && !/<|%3C/i.test(answer.url));
    expect(reads.length).toBeGreaterThan(20);
    expect(reads.filter((answer) => answer.status !== 200)).toEqual([]);
  });

  it('fills every path parameter from the environment', () => {
    expect(answers.filter((answer) => /\{\{|:[a-z_]+/.test(answer.url.replace(/^https?:\/\/[^/]+/, '')))).toEqual([]);
  });
});

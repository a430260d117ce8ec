import { expect } from 'vitest';
import { createClient, type ClientOptions, type ProviderApiClient } from '../../clients/typescript/src/index.js';
import { routes } from '../../rest-facade/index.js';
import { expectMatchesContract } from '../support/contract.js';

/** `POST /public/offers/v1/events`: how the suite names an operation it has called. */
export type OperationName = `${string} ${string}`;

/** Every operation of the API, by method and path template. */
export const allOperations = routes.map((route): OperationName => `${route.method.toUpperCase()} ${route.path}`);

/**
 * The SDK's client, as an integrator creates it, that also records the operations it called and
 * checks every answer against the OpenAPI document (the package's types say what the document
 * says: the answers must too).
 */
export function recordingClient(options: ClientOptions): { api: ProviderApiClient; called: Set<OperationName> } {
  const api = createClient(options);
  const called = new Set<OperationName>();
  api.use({
    async onResponse({ request, response, schemaPath }) {
      called.add(`${request.method} ${schemaPath}`);
      const text = await response.clone().text();
      const isJson = response.headers.get('Content-Type')?.includes('json') ?? false;
      expectMatchesContract(
        { status: response.status, body: isJson && text !== '' ? JSON.parse(text) : text, text },
        request.method,
        schemaPath,
      );
    },
  });
  return { api, called };
}

/** A GraphQL call with the provider's key: the sandbox mutations that book as a beneficiary. */
export async function graphql<Data>(
  baseUrl: string,
  apiKey: string,
  query: string,
  variables: Record<string, unknown>,
): Promise<Data> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const answer = (await response.json()) as { data: Data; errors?: unknown[] };
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  return answer.data;
}

import createFetchClient, { type Client } from 'openapi-fetch';
import { type ApiFailure, failureOf, ProviderApiError } from './errors.js';
import { type FetchLike, type RetryOptions, retryingFetch } from './retryingFetch.js';
import type { components, operations, paths } from './schema.js';

export type { ApiFailure, RefusalStatus, ValidationErrorElement } from './errors.js';
export { failureOf, ProviderApiError } from './errors.js';
export type { FetchLike, RetryOptions } from './retryingFetch.js';
export { retryAfterSeconds } from './retryingFetch.js';
export type { components, operations, paths };

/** The API's named schemas: `Schemas['EventOfferResponse']`. */
export type Schemas = components['schemas'];

export interface ClientOptions {
  /** The server's address, without the path: `https://…` (the docs' servers list the environments). */
  baseUrl: string;
  /** Your API key, sent as a bearer token on every call. */
  apiKey: string;
  /** How many times one call is sent while the answer asks to wait (429, 503, 409 with Retry-After). */
  retry?: RetryOptions;
  /** Waits between attempts (default: a timer). */
  sleep?: (milliseconds: number) => Promise<void>;
  /** Sends the requests (default: the global fetch). */
  fetch?: FetchLike;
  /** Makes the Idempotency-Key of a write that has none (default: a random UUID). */
  newIdempotencyKey?: () => string;
}

/**
 * A client of the Provider API: `GET`, `POST`, `PATCH` and `DELETE` take a path of the API and
 * the request's params and body, all typed from the OpenAPI document, and give
 * `{ data, error, response }` (openapi-fetch). Every write carries an Idempotency-Key, the same
 * on each retry of the call.
 */
export type ProviderApiClient = Client<paths, 'application/json'>;

export function createClient(options: ClientOptions): ProviderApiClient {
  return createFetchClient<paths, 'application/json'>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch({
      ...options.retry,
      fetch: options.fetch,
      sleep: options.sleep,
      newIdempotencyKey: options.newIdempotencyKey,
    }),
  });
}

/** What a call through the client gives. */
export interface CallResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The data of a success: undefined for the operations that answer 204. */
type SuccessData<Data> = [NonNullable<Data>] extends [never] ? undefined : NonNullable<Data>;

/** Why a call failed, typed by status (`kind` says which shape), or null when it succeeded. */
export function failure(result: CallResult<unknown>): ApiFailure | null {
  if (result.response.ok) return null;
  return failureOf(result.response.status, result.error, result.response.headers);
}

/** The data of a call that succeeded; otherwise throws a ProviderApiError that says why. */
export async function orThrow<Data>(call: CallResult<Data> | Promise<CallResult<Data>>): Promise<SuccessData<Data>> {
  const result = await call;
  const failed = failure(result);
  if (failed) throw new ProviderApiError(failed, result.response);
  return result.data as SuccessData<Data>;
}

/**
 * The body of a multipart operation (an offer's image) as the form it is sent as:
 * `{ body: { file, credit }, bodySerializer: formDataOf }`.
 */
export function formDataOf(body: Record<string, Blob | string | number | boolean | null | undefined>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
    else form.append(name, String(value));
  }
  return form;
}

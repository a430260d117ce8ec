import type { Express } from 'express';
import request from 'supertest';
import { expect } from 'vitest';
import { type RoutesByOperationId, routesByOperationId } from '../../rest-facade/index.js';
import type { z } from '../../rest-facade/zod.js';
import { expectMatchesContract } from './contract.js';

/** An operation of the public contract, by its operationId. */
export type OperationId = keyof RoutesByOperationId;

/** `/a/{b_id}/c/{d_id}` -> `'b_id' | 'd_id'` */
type PathParameters<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParameters<Rest>
  : never;

/**
 * What a call sends. Path parameters go into the URL as text, so a test may send one that the
 * route refuses; the query and the body are sent as given, valid or not. `key` stands in for
 * the client's key; null sends no Authorization header.
 */
export type CallInput<Id extends OperationId> = {
  query?: Record<string, string | number | boolean> | string;
  body?: unknown;
  /** Sends the body, as given (text) or as JSON, with this Content-Type rather than the operation's. */
  contentType?: string;
  key?: string | null;
  /** More request headers (an `Idempotency-Key`). */
  headers?: Record<string, string>;
} & ([PathParameters<RoutesByOperationId[Id]['path']>] extends [never]
  ? { params?: undefined }
  : { params: Record<PathParameters<RoutesByOperationId[Id]['path']>, string | number> });

/** The input of a call, which may be left out when the path has no parameter. */
type CallArguments<Id extends OperationId> = [PathParameters<RoutesByOperationId[Id]['path']>] extends [never]
  ? [input?: CallInput<Id>]
  : [input: CallInput<Id>];

/** The statuses the document declares for failures. */
type FailureStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429;

/** The route's success: its status and, for 200 and 201, the body as its response schema reads it. */
type Success<Id extends OperationId> = RoutesByOperationId[Id]['response'] extends {
  status: infer Status extends 200 | 201;
  schema: infer Schema extends z.ZodType;
}
  ? { status: Status; body: z.output<Schema> }
  : { status: 204; body: Record<string, never> };

/**
 * An answer, already checked against the OpenAPI document. Its body is typed once its status is
 * known to be the route's success (`if (answer.status === 200)`, or `expectStatus`); a failure's
 * body is the contract's error shape for that status, left untyped as supertest gives it.
 */
export type Answer<Id extends OperationId> =
  | (Success<Id> & { headers: Record<string, string> })
  | { status: Exclude<FailureStatus, Success<Id>['status']>; body: any; headers: Record<string, string> };

/** Narrows an answer to the status expected; on another status, fails with the body. */
export function expectStatus<A extends { status: number; body: unknown }, Status extends A['status']>(
  answer: A,
  status: Status,
): asserts answer is Extract<A, { status: Status }> {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
}

function pathOf(template: string, params: Record<string, string | number> | undefined): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${template}: no value for the path parameter {${name}}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * A success's body is exactly what its response schema writes: the same keys, in the schema's
 * order. The facade sends what `select` builds without parsing it again (issue 19), so a mapper
 * that builds its keys in another order would change the bytes of an answer; this holds them.
 */
function expectAsItsSchemaWrites(
  operationId: OperationId,
  success: RoutesByOperationId[OperationId]['response'],
  response: { status: number; text: string; body: unknown },
): void {
  if (response.status !== success.status || !('schema' in success)) return;
  const schema: z.ZodType = success.schema;
  expect(response.text, `${operationId}: the answer as its response schema writes it`).toBe(
    JSON.stringify(schema.parse(response.body)),
  );
}

/**
 * The public REST API as the suites call it: by operationId, with the path built from the
 * route's, the key of the client unless told otherwise, and every answer checked against the
 * OpenAPI document.
 */
export function apiClient(app: Express, defaultKey: string) {
  return {
    async call<Id extends OperationId>(operationId: Id, ...[input]: CallArguments<Id>): Promise<Answer<Id>> {
      const route = routesByOperationId[operationId];
      const key = input?.key === undefined ? defaultKey : input.key;
      let test = request(app)[route.method](pathOf(route.path, input?.params));
      if (key !== null) test = test.set('Authorization', `Bearer ${key}`);
      if (input?.headers !== undefined) test = test.set(input.headers);
      if (input?.query !== undefined) test = test.query(input.query);
      if (input?.contentType !== undefined) {
        const { body } = input;
        test = test.set('Content-Type', input.contentType).send(typeof body === 'string' ? body : JSON.stringify(body));
      } else if (input?.body !== undefined) test = test.send(input.body as object);
      const response = await test;
      expectMatchesContract(response, route.method, route.path);
      expectAsItsSchemaWrites(operationId, route.response, response);
      // The contract check above has held the status to those the route declares, and the body to its schema.
      return { status: response.status, body: response.body, headers: response.headers } as Answer<Id>;
    },
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

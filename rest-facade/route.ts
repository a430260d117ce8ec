import type { DocumentDecoration, ResultOf, VariablesOf } from 'gql.tada';
import type { DocumentNode } from 'graphql';
import type { SubgraphName } from '../graphql/graph.js';
import type { GraphVariables } from './subgraphs/graphql.js';
import type { z } from './zod.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** Error statuses an operation may answer besides those every operation shares. */
export type OperationErrorStatus = 400 | 403 | 404 | 410;

export type SuccessStatus = 200 | 201 | 204;

export interface RouteInput<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
}

/**
 * A GraphQL document written with a subgraph's `graphql` function (rest-facade/subgraphs):
 * its result and variables types ride on it.
 */
export type GraphDocument<Result, Variables> = DocumentNode & DocumentDecoration<Result, Variables>;

/** Any typed document, whatever its result and variables (gql.tada's decoration defaults to any). */
type SomeDocument = DocumentNode & DocumentDecoration;

/** A JSON answer: `select` reads it from the operation's result, in the shape its schema takes. */
export interface JsonAnswer<Result, Schema extends z.ZodType, Status extends 200 | 201> {
  status: Status;
  description: string;
  schema: Schema;
  select: (data: Result) => z.output<Schema>;
}

export interface EmptyAnswer {
  status: 204;
  description: string;
}

/** What a route answers on success: 204 has no body, 200 and 201 have one, with its schema. */
export type Answer<Result, Schema extends z.ZodType, Status extends SuccessStatus> = Status extends 204
  ? EmptyAnswer
  : Status extends 200 | 201
    ? JsonAnswer<Result, Schema, Status>
    : never;

/** What an operation is, whatever it runs: where it lives and how the document presents it. */
interface Operation<OperationId extends string, Path extends string> {
  method: HttpMethod;
  /** OpenAPI style: `/public/offers/v1/events/{event_id}`. */
  path: Path;
  tag: string;
  operationId: OperationId;
  summary: string;
  description?: string;
  subgraph: SubgraphName;
  errors?: OperationErrorStatus[];
  /** Sandbox operations (school-platform mocks) do not exist in production. */
  sandboxOnly?: boolean;
  /** Still served because integrations call it, but marked deprecated in the document. */
  deprecated?: boolean;
}

/** `bodyType` multipart: the body arrives as a form (an image upload); JSON otherwise. */
interface RouteRequest<Params, Query, Body> {
  params?: Params;
  query?: Query;
  body?: Body;
  bodyType?: 'json' | 'multipart';
}

/**
 * One operation of the public contract, declared: where it lives, what it accepts, which
 * GraphQL operation it runs on which subgraph, and what it answers. Behaviour belongs to the
 * subgraphs; this only translates HTTP to the graph and back. The types follow the data from
 * the request schemas to the document's variables, and from the document's result to the
 * response schema, so that a field read but not selected fails the typecheck.
 */
export interface RouteDefinition<
  OperationId extends string,
  Path extends string,
  Document extends SomeDocument,
  Params extends z.ZodType,
  Query extends z.ZodType,
  Body extends z.ZodType,
  Schema extends z.ZodType,
  Status extends SuccessStatus,
> extends Operation<OperationId, Path> {
  /** The GraphQL operation, written with `graphql[subgraph]`; parsed and validated once at start-up. */
  document: Document;
  request?: RouteRequest<Params, Query, Body>;
  variables?: (
    input: RouteInput<z.output<Params>, z.output<Query>, z.output<Body>>,
  ) => GraphVariables<VariablesOf<Document>>;
  response: Answer<ResultOf<Document>, Schema, Status>;
}

/** Some route definition, whichever its types. */
export type SomeRoute = RouteDefinition<
  string,
  string,
  SomeDocument,
  z.ZodType,
  z.ZodType,
  z.ZodType,
  z.ZodType,
  SuccessStatus
>;

/**
 * A route whose types are forgotten: some document, some inputs, some answer. The router only
 * ever hands a route's `variables` the output of that route's own request schemas, and its
 * `select` the result of that route's own document, so forgetting which ones is safe. A typed
 * route becomes one only through `forgetTypes` (rest-facade/index.ts), where tables are assembled.
 */
export interface AnyRoute extends Operation<string, string> {
  document: DocumentNode;
  request?: RouteRequest<z.ZodType, z.ZodType, z.ZodType>;
  variables?: (input: RouteInput<unknown, unknown, unknown>) => { readonly [variable: string]: unknown };
  response: EmptyAnswer | JsonAnswer<unknown, z.ZodType, 200 | 201>;
}

/** A document with required variables needs `variables` to give them. */
type VariablesRequirement<Document extends SomeDocument> =
  Record<string, never> extends VariablesOf<Document> ? unknown : { variables: unknown };

/** Declares a route, keeping its types (the operationId and the path as literals). */
export function defineRoute<
  const OperationId extends string,
  const Path extends string,
  Document extends SomeDocument,
  Params extends z.ZodType,
  Query extends z.ZodType,
  Body extends z.ZodType,
  Schema extends z.ZodType,
  Status extends SuccessStatus,
>(
  route: RouteDefinition<OperationId, Path, Document, Params, Query, Body, Schema, Status> &
    VariablesRequirement<Document>,
): RouteDefinition<OperationId, Path, Document, Params, Query, Body, Schema, Status> {
  return route;
}

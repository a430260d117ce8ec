import type { RequestHandler } from 'express';
import {
  type DocumentNode,
  type ExecutionResult,
  type GraphQLError,
  type GraphQLSchema,
  parse,
  print,
  validate,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Graph, SubgraphName } from '../graphql/graph.js';
import type { GraphContext } from '../graphql/shared/context.js';
import type { ValidationIssue } from '../graphql/shared/errors.js';
import { IMAGE_MAX_BYTES } from '../platform/images/index.js';
import { inSpan } from '../platform/tracing.js';
import { asyncHandler } from './asyncHandler.js';
import { answerForError } from './httpErrors.js';
import { bodyMediaType, requireBodyMediaType } from './mediaType.js';
import { multipartBody, type MultipartOptions } from './multipart.js';
import type { AnyRoute } from './route.js';
import { routeTable } from './routeTable.js';
import { toValidationIssues } from './validation.js';
import { z } from './zod.js';

/**
 * What a route's run gives its handler: the answer, its status and its JSON text (null for a 204),
 * or the errors of its document, which the handler maps to the contract's error answers.
 */
export type RouteOutcome = { status: number; json: string | null } | { errors: readonly GraphQLError[] };

/**
 * Runs a route on a subgraph served by a process of its own, for the request's context: the
 * service runs the route's document and selects its answer, so that the answer crosses the hop
 * once, as the JSON text the handler sends (decision 036).
 */
export type RemoteExecutor = (
  operationId: string,
  variables: Record<string, unknown>,
  context: GraphContext,
) => Promise<RouteOutcome>;

export interface CompiledRoute {
  route: AnyRoute;
  schema: GraphQLSchema;
  document: DocumentNode;
  /** The route's document run (compiled to JavaScript by graphql-jit, or on its service) and its answer selected. */
  run: (context: unknown, variables: Record<string, unknown>) => Promise<RouteOutcome>;
  /** The request's schemas, compiled (requestParsers). */
  parsers: RequestParsers;
}

/**
 * A document's result as the route answers it. `select` is typed to the schema's output, and the
 * tests check every answer against the document: parsing each answer again here cost a 50-item
 * list a fifth of its time (issue 19).
 */
function outcomeOf(route: AnyRoute, result: ExecutionResult): RouteOutcome {
  if (result.errors?.length) return { errors: result.errors };
  const success = route.response;
  if (success.status === 204) return { status: 204, json: null };
  return { status: success.status, json: JSON.stringify(success.select(result.data ?? {})) };
}

export interface RequestParsers {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

/** Compiled once per route and process, as the plans are: compiling all 55 routes' schemas takes 60 ms or more. */
const compiledParsers = new WeakMap<AnyRoute, RequestParsers>();

/**
 * Each part of the request is parsed by its schema compiled ahead of time (`z.compile`, zod's own
 * code generator): a valid input takes the generated path, and an invalid one falls back to the
 * schema as written, so the issues, and the 422 built from them, are the same. On the 2500 dates of
 * one POST the compiled schema took 0.6 ms against 5 ms, and allocated a fraction of it (decision
 * 015). The route keeps its schemas as written: the OpenAPI document is built from them.
 */
export function requestParsers(route: AnyRoute): RequestParsers {
  let parsers = compiledParsers.get(route);
  if (!parsers) {
    const compiled = (schema: z.ZodType | undefined) => (schema ? z.compile(schema) : undefined);
    parsers = {
      params: compiled(route.request?.params),
      query: compiled(route.request?.query),
      body: compiled(route.request?.body),
    };
    compiledParsers.set(route, parsers);
  }
  return parsers;
}

/**
 * Parses and validates each route's document against its subgraph, once: a bad document stops the
 * boot. tsc checked it against the committed introspection; this checks it against the schema the
 * process runs, with graphql-js's own parser (the typed document was parsed by gql.tada's). Then
 * each document is compiled into a plan of its own (graphql-jit): a route runs one fixed document,
 * and interpreting it field by field on every request cost more than the resolvers (issue 19).
 */
export function compileRoutes(
  routes: AnyRoute[],
  graph: Graph,
  remote: Partial<Record<SubgraphName, RemoteExecutor>> = {},
): CompiledRoute[] {
  return routes.map((route) => {
    assertPathParametersDeclared(route);
    const schema = graph.subgraphs[route.subgraph].schema;
    // A document run on its subgraph: graphql-jit's plans have no instrumentation of their own.
    const spanName = `graphql ${route.operationId}`;
    const attributes = { 'graphql.operation.name': route.operationId, subgraph: route.subgraph };
    const execute = remote[route.subgraph];
    if (execute) {
      const document = checkedDocument(route, schema);
      // The service runs it and selects the answer, as below: one call on the hop.
      const run = (context: unknown, variables: Record<string, unknown>) =>
        inSpan(spanName, { attributes: { ...attributes, 'subgraph.remote': true } }, () =>
          execute(route.operationId, variables, context as GraphContext),
        );
      return { route, schema, document, run, parsers: requestParsers(route) };
    }
    const { document, compiled } = compiledPlan(route, schema);
    const run = (context: unknown, variables: Record<string, unknown>) =>
      inSpan(spanName, { attributes: { ...attributes, 'subgraph.remote': false } }, async () =>
        outcomeOf(route, await compiled.query(undefined, context, variables)),
      );
    return { route, schema, document, run, parsers: requestParsers(route) };
  });
}

function checkedDocument(route: AnyRoute, schema: GraphQLSchema): DocumentNode {
  const document = parse(print(route.document));
  const errors = validate(schema, document);
  if (errors.length > 0) {
    throw new Error(`${route.operationId}: invalid document for subgraph ${route.subgraph}: ${errors.join('; ')}`);
  }
  return document;
}

/**
 * A plan depends on the route's document and the schema alone, so one is compiled per pair and
 * shared by every runtime of the process on that schema (the graph is built once per process):
 * a process that makes several runtimes, such as a test worker, compiles each route once.
 */
interface Plan {
  document: DocumentNode;
  compiled: CompiledQuery;
}
const plans = new WeakMap<GraphQLSchema, Map<AnyRoute, Plan>>();

/**
 * Built-in scalars and enums are answered as the resolvers return them, without their serializers:
 * the generated code then reads each such field in place, where a serializer call built three
 * arrays per field and item (half of what POST 2500 dates allocated in its answer, decision 015).
 * What the serializers checked still holds: the resolvers are typed, every enum of the graph is its
 * own names (graphEnum), the graph has no ID, and the API's tests hold every answer to its schema
 * on both engines. The graph's own scalars (DateTimeISO) keep theirs.
 */
const PLAN_OPTIONS = { disableLeafSerialization: true } as const;

function compiledPlan(route: AnyRoute, schema: GraphQLSchema): Plan {
  let ofSchema = plans.get(schema);
  if (!ofSchema) plans.set(schema, (ofSchema = new Map<AnyRoute, Plan>()));
  let plan = ofSchema.get(route);
  if (!plan) {
    const document = checkedDocument(route, schema);
    const compiled = compileQuery(schema, document, undefined, PLAN_OPTIONS);
    if (!isCompiledQuery(compiled)) {
      throw new Error(`${route.operationId}: the document does not compile: ${compiled.errors?.join('; ')}`);
    }
    plan = { document, compiled };
    ofSchema.set(route, plan);
  }
  return plan;
}

/** A `{name}` in the path without a schema would reach the operation unvalidated and undocumented. */
function assertPathParametersDeclared(route: AnyRoute): void {
  const params = route.request?.params as { shape?: Record<string, unknown> } | undefined;
  for (const [, name] of route.path.matchAll(/\{([^}]+)\}/g)) {
    if (!params?.shape || !(name in params.shape)) {
      throw new Error(`${route.operationId}: path parameter {${name}} has no schema in request.params`);
    }
  }
}

function parsePart(schema: z.ZodType | undefined, input: unknown, issues: ValidationIssue[]): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  issues.push(...toValidationIssues(result.error, input));
  return undefined;
}

function handlerFor({ route, run, parsers }: CompiledRoute): RequestHandler {
  return asyncHandler(async (req, res) => {
    const issues: ValidationIssue[] = [];
    const params = parsePart(parsers.params, req.params, issues);
    const query = parsePart(parsers.query, req.query, issues);
    const body = parsePart(parsers.body, req.body ?? {}, issues);
    if (issues.length > 0) {
      res.status(422).json(issues);
      return;
    }
    const outcome = await run(res.locals.graphContext, route.variables?.({ params, query, body }) ?? {});
    if ('errors' in outcome) {
      const answer = answerForError(outcome.errors[0]);
      if (!answer) throw outcome.errors[0].originalError ?? outcome.errors[0];
      res.status(answer.status).json(answer.body);
      return;
    }
    if (outcome.json === null) {
      res.status(outcome.status).end();
      return;
    }
    // What res.json would send: the same bytes, type and charset.
    res.status(outcome.status).type('json').send(outcome.json);
  });
}

/**
 * Literal segments before parameters. The route table finds `/events/categories` before
 * `/events/{event_id}` in any order; this order is the one its OPTIONS answers list methods in.
 */
export function bySpecificity(left: string, right: string): number {
  const leftSegments = left.split('/');
  const rightSegments = right.split('/');
  for (let index = 0; index < Math.min(leftSegments.length, rightSegments.length); index += 1) {
    const leftIsParameter = leftSegments[index].startsWith('{');
    const rightIsParameter = rightSegments[index].startsWith('{');
    if (leftIsParameter !== rightIsParameter) return leftIsParameter ? 1 : -1;
  }
  return 0;
}

/** The contract's one form: an image upload (`file`, `credit`). */
const imageUpload: MultipartOptions = {
  fileField: 'file',
  maxFileBytes: IMAGE_MAX_BYTES,
  textFields: ['credit'],
  maxTextBytes: 1024,
};

/**
 * The public REST contract as one middleware: each declared route gets the shared middleware
 * (authentication, rate limit), its body reader, for a write the write middleware (which sees the
 * body as read: idempotency keys), and its handler.
 */
export function createFacadeRouter(
  compiled: CompiledRoute[],
  middleware: RequestHandler[],
  writeMiddleware: RequestHandler[] = [],
): RequestHandler {
  return routeTable(
    [...compiled]
      .sort((a, b) => bySpecificity(a.route.path, b.route.path))
      .map((entry) => {
        const bodyReader = entry.route.request?.body ? [requireBodyMediaType(bodyMediaType(entry.route))] : [];
        if (entry.route.request?.bodyType === 'multipart') bodyReader.push(multipartBody(imageUpload));
        const { operationId } = entry.route;
        // Named first, so that what records the request knows the operation even when a guard refuses it.
        const nameOperation: RequestHandler = (_req, res, next) => {
          res.locals.operationId = operationId;
          next();
        };
        return {
          method: entry.route.method,
          path: entry.route.path,
          handlers: [
            nameOperation,
            ...middleware,
            ...bodyReader,
            ...(entry.route.method === 'get' ? [] : writeMiddleware),
            handlerFor(entry),
          ],
        };
      }),
  );
}

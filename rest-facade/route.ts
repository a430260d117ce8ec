import type { SubgraphName } from '../graphql/graph.js';
import type { z } from './zod.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** Error statuses an operation may answer besides those every operation shares. */
export type OperationErrorStatus = 400 | 403 | 404 | 410;

export interface RouteInput<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
}

/**
 * One operation of the public contract, declared: where it lives, what it accepts, which
 * GraphQL operation it runs on which subgraph, and what it answers. Behaviour belongs to the
 * subgraphs; this only translates HTTP to the graph and back.
 */
export interface RouteDefinition<
  Params extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** OpenAPI style: `/public/offers/v1/events/{event_id}`. */
  path: string;
  tag: string;
  operationId: string;
  summary: string;
  description?: string;
  subgraph: SubgraphName;
  /** The GraphQL operation, parsed and validated once at start-up. */
  document: string;
  /** `bodyType` multipart: the body arrives as a form (an image upload); JSON otherwise. */
  request?: { params?: Params; query?: Query; body?: Body; bodyType?: 'json' | 'multipart' };
  variables?: (input: RouteInput<z.output<Params>, z.output<Query>, z.output<Body>>) => Record<string, unknown>;
  response:
    | { status: 200 | 201; description: string; schema: z.ZodType; select: (data: Record<string, unknown>) => unknown }
    | { status: 204; description: string };
  errors?: OperationErrorStatus[];
  /** Sandbox operations (school-platform mocks) do not exist in production. */
  sandboxOnly?: boolean;
  /** Still served because integrations call it, but marked deprecated in the document. */
  deprecated?: boolean;
}

export function defineRoute<Params extends z.ZodType, Query extends z.ZodType, Body extends z.ZodType>(
  route: RouteDefinition<Params, Query, Body>,
): RouteDefinition {
  return route;
}

/** `/a/{b_id}/c` -> `/a/:b_id/c` */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

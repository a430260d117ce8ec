import { print } from 'graphql';
import type { SubgraphName } from '../../graphql/subgraphNames.js';
import { routes } from '../../rest-facade/index.js';
import type { AnyRoute } from '../../rest-facade/route.js';
import { digestOf } from './signedCaller.js';

/** The routes a subgraph's service runs for the API process: those whose document runs on that subgraph. */
export function routesOf(subgraph: SubgraphName): AnyRoute[] {
  return routes.filter((route) => route.subgraph === subgraph);
}

/**
 * What a call on the hop is signed for instead of the schema alone (decision 036): the subgraph's
 * SDL and each of its routes' documents. A service of another build, whose schema or routes
 * differ, refuses the call unrun, as it refuses a GraphQL call signed for another schema.
 */
export function routeTableDigest(subgraph: SubgraphName, sdl: string): string {
  const documents = routesOf(subgraph)
    .map((route) => `${route.operationId}\n${print(route.document)}`)
    .sort();
  return digestOf([sdl, ...documents].join('\n\n'));
}

/** A route call's body: the text the signature's digest covers. */
export interface RouteCall {
  operationId: string;
  variables: Record<string, unknown>;
}

export function routeCallBody(call: RouteCall): string {
  return JSON.stringify(call);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The call a body holds, or null when it is not one. */
export function routeCallOf(body: string): RouteCall | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!isObject(parsed) || typeof parsed.operationId !== 'string' || !isObject(parsed.variables)) return null;
  return { operationId: parsed.operationId, variables: parsed.variables };
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { studentLevels } from '../../../graphql/collective/reference/educationalData.js';
import { appEnvironments } from '../../../platform/appEnv.js';
import { routes } from '../../../rest-facade/index.js';
import { generateOpenApiDocument } from '../../../rest-facade/openapi.js';
import { configVariables, loadConfig } from '../../../server/config.js';
import { findProjectRoot } from '../../../server/portal.js';

/** Every name the docs may put in a code span, from the sources that define them. */
export interface ApiNames {
  operationIds: Set<string>;
  schemas: Set<string>;
  /** Property names at any depth, parameter names, response header names. */
  fields: Set<string>;
  enumValues: Set<string>;
  statuses: Set<string>;
  /** `METHOD /path` of every operation, paths as templates (`{param}`). */
  operations: { method: string; path: string }[];
  /** Field names of the GraphQL graph (`/graphql`: the sandbox's mutations and queries). */
  graphqlFields: Set<string>;
  /** The environment variables the process reads (server/config.ts) and the environments' names. */
  environmentVariables: Set<string>;
  /** Values of the reference data the API serves as plain strings (student levels). */
  referenceValues: Set<string>;
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function walk(value: unknown, names: ApiNames): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, names);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'properties' && child && typeof child === 'object')
      for (const property of Object.keys(child)) names.fields.add(property);
    if (key === 'headers' && child && typeof child === 'object')
      for (const header of Object.keys(child)) names.fields.add(header);
    if (key === 'enum' && Array.isArray(child)) for (const item of child) names.enumValues.add(String(item));
    if (key === 'const') names.enumValues.add(String(child));
    if (key === 'operationId' && typeof child === 'string') names.operationIds.add(child);
    if (key === 'responses' && child && typeof child === 'object')
      for (const status of Object.keys(child)) names.statuses.add(status);
    if (key === 'name' && typeof child === 'string' && 'in' in value) names.fields.add(child);
    walk(child, names);
  }
}

/**
 * The names of the generated OpenAPI document (as served at /openapi.json on the integration
 * environment, sandbox operations included), of the GraphQL graph and of the configuration.
 */
export function apiNames(): ApiNames {
  const document = generateOpenApiDocument(routes, loadConfig({ APP_ENV: 'integration' }));
  const names: ApiNames = {
    operationIds: new Set(),
    schemas: new Set(Object.keys(document.components?.schemas ?? {})),
    fields: new Set(),
    enumValues: new Set(),
    statuses: new Set(),
    operations: [],
    graphqlFields: new Set(),
    environmentVariables: new Set(appEnvironments),
    referenceValues: new Set(studentLevels.map((level) => level.id)),
  };
  walk(document, names);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS)
      if (item && method in item) names.operations.push({ method: method.toUpperCase(), path });
  }
  const root = findProjectRoot();
  const supergraph = readFileSync(join(root, 'graphql', 'supergraph.graphql'), 'utf8');
  for (const match of supergraph.matchAll(/^\s+([a-zA-Z_]\w*)\s*[(:]/gm)) names.graphqlFields.add(match[1]);
  for (const variable of configVariables) names.environmentVariables.add(variable);
  return names;
}

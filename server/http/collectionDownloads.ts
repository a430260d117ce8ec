import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import { COLLECTION_DOWNLOADS } from '../../app/reference/downloads.js';

export { COLLECTION_DOWNLOADS };

/** The collections generated from the document (npm run collections), committed with it. */
export const COLLECTION_FILES = {
  postman: 'contract/collections/postman-collection.json',
  bruno: 'contract/collections/bruno-collection.json',
} as const;

/** A name the collections' requests read: the server, the key, and each path parameter. */
export interface CollectionVariable {
  name: string;
  value: string;
  secret: boolean;
}

interface DocumentWithPaths {
  paths?: Record<string, unknown>;
}

/** The path parameters of the document (`venue_id`, `event_id`…), each once, sorted. */
export function pathParameterNames(document: DocumentWithPaths): string[] {
  const names = new Set<string>();
  for (const path of Object.keys(document.paths ?? {})) {
    for (const match of path.matchAll(/\{([^}]+)\}/g)) names.add(match[1]);
  }
  return [...names].sort();
}

/**
 * What the sandbox environment holds: this server's address, the API key (left for the integrator
 * to paste, secret), and one empty variable per path parameter, which the requests' paths read.
 */
export function sandboxVariables(baseUrl: string, document: DocumentWithPaths): CollectionVariable[] {
  return [
    { name: 'baseUrl', value: baseUrl, secret: false },
    { name: 'apiKey', value: '', secret: true },
    ...pathParameterNames(document).map((name) => ({ name, value: '', secret: false })),
  ];
}

/** An id that stays the same from one generation to the next, so that a regenerated file only differs where the API does. */
export function stableId(seed: string, length = 32): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, length);
}

/** `stableId` in the UUID shape Postman writes. */
export function stableUuid(seed: string): string {
  const hex = stableId(seed);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const SANDBOX_ENVIRONMENT_NAME = 'Provider API sandbox';

/** The environment file Postman imports beside the collection. */
export function postmanEnvironment(variables: CollectionVariable[]) {
  return {
    id: stableUuid(SANDBOX_ENVIRONMENT_NAME),
    name: SANDBOX_ENVIRONMENT_NAME,
    values: variables.map(({ name, value, secret }) => ({
      key: name,
      value,
      type: secret ? 'secret' : 'default',
      enabled: true,
    })),
    _postman_variable_scope: 'environment',
  };
}

/** A Bruno collection (its JSON export) with the sandbox environment as its one environment. */
export function withBrunoEnvironment<T extends object>(collection: T, variables: CollectionVariable[]): T {
  return {
    ...collection,
    environments: [
      {
        uid: stableId(`environment ${SANDBOX_ENVIRONMENT_NAME}`, 21),
        name: SANDBOX_ENVIRONMENT_NAME,
        variables: variables.map(({ name, value, secret }) => ({
          uid: stableId(`environment variable ${name}`, 21),
          name,
          value,
          type: 'text',
          enabled: true,
          secret,
        })),
      },
    ],
  };
}

function attachment(response: express.Response, fileName: string, body: unknown): void {
  response
    .type('application/json')
    .set('Content-Disposition', `attachment; filename="${fileName}"`)
    .set('Cache-Control', 'public, max-age=300')
    .send(JSON.stringify(body, null, 2));
}

/**
 * The collections and the environment, from the committed files, with this server's address as
 * the environment's `baseUrl` (the address its documents name, decision 014). Read once, at the
 * first request.
 */
export function collectionDownloads(projectRoot: string, baseUrl: string, document: DocumentWithPaths): express.Router {
  let files: { postman: unknown; bruno: object } | null = null;
  const read = () =>
    (files ??= {
      postman: JSON.parse(readFileSync(join(projectRoot, COLLECTION_FILES.postman), 'utf8')) as unknown,
      bruno: JSON.parse(readFileSync(join(projectRoot, COLLECTION_FILES.bruno), 'utf8')) as object,
    });
  const variables = sandboxVariables(baseUrl, document);
  const router = express.Router();
  router.get(COLLECTION_DOWNLOADS.postmanCollection, (_request, response) =>
    attachment(response, 'postman-collection.json', read().postman),
  );
  router.get(COLLECTION_DOWNLOADS.postmanEnvironment, (_request, response) =>
    attachment(response, 'postman-environment.json', postmanEnvironment(variables)),
  );
  router.get(COLLECTION_DOWNLOADS.brunoCollection, (_request, response) =>
    attachment(response, 'bruno-collection.json', withBrunoEnvironment(read().bruno, variables)),
  );
  return router;
}

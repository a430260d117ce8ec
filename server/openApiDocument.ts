import { generateOpenApiDocument } from '../rest-facade/openapi.js';
import type { Runtime } from './runtime.js';

export type ServedOpenApiDocument = ReturnType<typeof generateOpenApiDocument>;

const documents = new WeakMap<Runtime, { document: ServedOpenApiDocument; json: string }>();

/**
 * The OpenAPI document of a process: its routes, and the servers and contact its configuration
 * gives. Generated once, on first use (some 60 ms), so that /openapi.json and the reference at
 * /rest-api show the very same document.
 */
export function servedOpenApiDocument(runtime: Runtime): { document: ServedOpenApiDocument; json: string } {
  let served = documents.get(runtime);
  if (!served) {
    const document = generateOpenApiDocument(runtime.routes, runtime.config);
    served = { document, json: JSON.stringify(document) };
    documents.set(runtime, served);
  }
  return served;
}

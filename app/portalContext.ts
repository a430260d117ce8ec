import type { DocsAddresses } from './docs/addresses.server.js';

/**
 * What the portal's server gives every loader (Remix's load context). The Express side fills it
 * in server/portal.ts; the routes only read it.
 */
export interface PortalAssets {
  /** The enhancement script, fingerprinted (`/build/client/portal-<hash>.js`). */
  clientScript: string;
  /** The search index built with the portal (`/build/search/search-index-<hash>.json`). */
  searchIndex: string;
  /**
   * The back office's scripts (React and Apollo Client, its screens only), the console's (the same
   * build: they share their chunks) and GraphiQL's script and styles.
   */
  backOffice: { script: string; consoleScript: string; graphiqlScript: string; graphiqlStyles: string };
  /** The text of every built stylesheet by its fingerprinted URL, written into the pages (app/components/Stylesheets.tsx). */
  stylesheets: Record<string, string>;
}

export interface PortalContext {
  assets: PortalAssets;
  /** The OpenAPI document that /openapi.json serves, for the reference at /rest-api. */
  openApiDocument: OpenApiDocument;
  /** Where the docs' samples call and whom they tell to write to: the document's server and contact. */
  addresses: DocsAddresses;
  /** Test-only routes (a loader that fails, a page that throws) answer only when this is set. */
  testFixtures: boolean;
}

/** The parts of an OpenAPI 3.1 document the portal reads. */
export interface OpenApiDocument {
  info: { title: string; version: string; description?: string; contact?: { name?: string; email?: string } };
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  'x-tagGroups'?: { name: string; tags: string[] }[];
  /** Method -> operation; other keys of a path item (parameters, summary) are not operations. */
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
  [key: string]: unknown;
}

export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
}

declare module '@remix-run/node' {
  interface AppLoadContext {
    portal: PortalContext;
  }
}

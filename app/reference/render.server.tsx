import { renderToStaticMarkup } from 'react-dom/server';
import type { OpenApiDocument } from '../portalContext.js';
import { ReferencePage } from './ReferencePage.js';
import { componentSchemas } from './schema.js';
import { SchemaBody } from './SchemaTree.js';

/**
 * The reference's markup, rendered once per document (the server keeps one document for its life):
 * the page is large, and rendering it on every request would cost the reader hundreds of
 * milliseconds before the first byte.
 */
const pages = new WeakMap<OpenApiDocument, string>();
const fragments = new WeakMap<OpenApiDocument, Map<string, string>>();

export function referenceHtml(document: OpenApiDocument): string {
  let html = pages.get(document);
  if (html === undefined) {
    html = renderToStaticMarkup(<ReferencePage document={document} />);
    pages.set(document, html);
  }
  return html;
}

/** The next levels of a component schema, as a fragment; null when the document has no such schema. */
export function schemaFragmentHtml(document: OpenApiDocument, name: string): string | null {
  const schemas = componentSchemas(document);
  if (!Object.hasOwn(schemas, name)) return null;
  let cache = fragments.get(document);
  if (!cache) fragments.set(document, (cache = new Map()));
  let html = cache.get(name);
  if (html === undefined) {
    html = renderToStaticMarkup(<SchemaBody schema={{ $ref: `#/components/schemas/${encodeURIComponent(name)}` }} schemas={schemas} level={1} />);
    cache.set(name, html);
  }
  return html;
}

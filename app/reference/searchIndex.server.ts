/**
 * The reference's search index as /rest-api/search.json serves it: built once per OpenAPI document
 * (the server's document does not change while it runs), with an ETag so that a browser that has
 * it already is answered 304.
 */
import { createHash } from 'node:crypto';
import type { OpenApiDocument } from '../portalContext.js';
import { buildReferenceIndex } from './searchIndex.js';

interface IndexResponse {
  json: string;
  etag: string;
}

const built = new WeakMap<OpenApiDocument, IndexResponse>();

function indexResponse(document: OpenApiDocument): IndexResponse {
  let entry = built.get(document);
  if (!entry) {
    const json = JSON.stringify(buildReferenceIndex(document));
    entry = { json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
    built.set(document, entry);
  }
  return entry;
}

/** Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 asks for it; `*` matches any). */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}

/** The index as JSON, or 304 when the request's If-None-Match names it. Cached for 5 minutes. */
export function referenceIndexResponse(request: Request, document: OpenApiDocument): Response {
  const { json, etag } = indexResponse(document);
  const headers = { 'Cache-Control': 'public, max-age=300', ETag: etag };
  if (matchesEtag(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
  return new Response(json, {
    status: 200,
    headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
  });
}

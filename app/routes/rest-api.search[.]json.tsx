import type { LoaderFunctionArgs } from '@remix-run/node';
import { referenceIndexResponse } from '../reference/searchIndex.server.js';

/** /rest-api/search.json: the reference's search index (app/reference/searchIndex.ts), fetched by the page's script on the first search. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return referenceIndexResponse(request, context.portal.openApiDocument);
}

/** A resource route: it answers JSON, it renders no page. */
export const handle = { resource: true };

import type { LoaderFunctionArgs } from '@remix-run/node';
import { schemaFragmentHtml } from '../reference/render.server.js';

/** A fragment, not a page: the build's route check lets it go without a component. */
export const handle = { resource: true };

/**
 * The next levels of a schema tree, as an HTML fragment the reference's client inserts into a
 * `<details data-schema-ref="<Name>">` on first opening (app/client/schemaTrees.ts): the same
 * component as the page (app/reference/SchemaTree.tsx), two levels, deeper ones again on demand.
 */
export function loader({ params, context }: LoaderFunctionArgs) {
  const name = params.name ?? '';
  const html = schemaFragmentHtml(context.portal.openApiDocument, name);
  if (html === null) {
    return new Response(`No schema named ${name}.`, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=300' } });
}

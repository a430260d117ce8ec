import type { LoaderFunctionArgs } from '@remix-run/node';
import { fragmentResponse } from '../reference/fragmentResponse.server.js';
import { schemaFragmentHtml, schemaPageFragmentHtml } from '../reference/render.server.js';

/** A fragment, not a page: the build's route check lets it go without a component. */
export const handle = { resource: true };

/**
 * The next levels of a schema tree, as an HTML fragment the reference's client inserts into a
 * `<details data-schema-ref="<Name>">` on first opening (app/client/schemaTrees.ts): the same
 * component as the page (app/reference/SchemaTree.tsx), one level, deeper ones again on demand.
 */
export function loader({ request, params, context }: LoaderFunctionArgs) {
  const name = params.name ?? '';
  // `?links=pages`: for a schema's own page, where names link to their pages.
  const render =
    new URL(request.url).searchParams.get('links') === 'pages' ? schemaPageFragmentHtml : schemaFragmentHtml;
  return fragmentResponse(render(context.portal.openApiDocument, name), `No schema named ${name}.`);
}

import type { LoaderFunctionArgs } from '@remix-run/node';
import { fragmentResponse } from '../reference/fragmentResponse.server.js';
import { operationSamplesFragmentHtml } from '../reference/render.server.js';

/** A fragment, not a page: the build's route check lets it go without a component. */
export const handle = { resource: true };

/**
 * An operation's request samples, response example and try-it console, as an HTML fragment the
 * reference's client puts in the operation's right column as it nears the viewport
 * (app/client/operationSamples.ts).
 */
export function loader({ params, context }: LoaderFunctionArgs) {
  const operationId = params.operationId ?? '';
  return fragmentResponse(
    operationSamplesFragmentHtml(context.portal.openApiDocument, operationId),
    `No operation ${operationId}.`,
  );
}

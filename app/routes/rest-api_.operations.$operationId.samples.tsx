import type { LoaderFunctionArgs } from '@remix-run/node';
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
  const html = operationSamplesFragmentHtml(context.portal.openApiDocument, operationId);
  if (html === null) {
    return new Response(`No operation ${operationId}.`, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  return new Response(html, {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
  });
}

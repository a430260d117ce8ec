import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { loadOrFail } from '../loadFailure.js';

const SLOW_PAGE_MAX_MS = 5_000;

/**
 * Pages for the browser tests of the page states, answered only when the portal is created with
 * `testFixtures` (never by `npm start`): a loader that fails, a component that throws, and a
 * page that takes a while (the navigation spinner).
 */
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  if (!context.portal.testFixtures) throw new Response('Not Found', { status: 404 });
  switch (params.kind) {
    case 'load-failure':
      return loadOrFail('The fixture could not be loaded.', () => {
        throw new Error('fixture loader failed');
      });
    case 'crash':
      return { kind: 'crash' as const };
    case 'slow': {
      const requested = Number(new URL(request.url).searchParams.get('ms') ?? 1_000);
      const ms = Number.isFinite(requested) ? Math.min(Math.max(requested, 0), SLOW_PAGE_MAX_MS) : 0;
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { kind: 'slow' as const };
    }
    default:
      throw new Response('Not Found', { status: 404 });
  }
}

export default function TestFixture() {
  const { kind } = useLoaderData<typeof loader>();
  if (kind === 'crash') throw new Error('fixture component threw');
  return (
    <div className="container">
      <h1>A slow page</h1>
      <p>This page took a while to load.</p>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from '../components/ErrorPages.js';

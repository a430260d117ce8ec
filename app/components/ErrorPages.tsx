import { Link, isRouteErrorResponse, useLocation, useRouteError } from '@remix-run/react';
import type { LoadFailure } from '../loadFailure.js';

export function NotFound() {
  return (
    <div className="container status-page">
      <h1>Page Not Found</h1>
      <p>We could not find what you were looking for.</p>
      <p>
        <Link to="/" className="button">
          Go to the home page
        </Link>
      </p>
    </div>
  );
}

/**
 * A button that loads the same page again. It is a GET form, so it works before (and without)
 * JavaScript; the client turns the submission into a navigation with a spinner.
 */
function ReloadButton({ label }: { label: string }) {
  const { pathname, search } = useLocation();
  return (
    <form method="get" action={pathname} className="status-page__retry" data-reload>
      {[...new URLSearchParams(search)].map(([name, value], index) => (
        <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="button">
        {label}
      </button>
    </form>
  );
}

/** A loader failed: the error box with its text, and Retry. */
export function LoadFailed({ message }: { message: string }) {
  return (
    <div className="container status-page">
      <div className="error-box" role="alert">
        <h1 className="error-box__title">This page could not be loaded</h1>
        <p className="error-box__message">{message}</p>
        <ReloadButton label="Retry" />
      </div>
    </div>
  );
}

/** Rendering threw: reloading is the honest retry, since the cause may be stale code or data. */
export function PageCrashed() {
  return (
    <div className="container status-page" role="alert">
      <h1>This page crashed</h1>
      <p>Something went wrong while showing this page.</p>
      <ReloadButton label="Try again" />
    </div>
  );
}

function isLoadFailure(data: unknown): data is LoadFailure {
  return typeof data === 'object' && data !== null && (data as LoadFailure).kind === 'load-failure';
}

/**
 * Every route's error boundary: not found, a failed load (a loader that threw, see
 * loadFailure.ts), or a crash while rendering. The root layout keeps the navbar and footer.
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFound />;
    if (isLoadFailure(error.data)) return <LoadFailed message={error.data.message} />;
  }
  console.error(error);
  return <PageCrashed />;
}

import { Link } from '@remix-run/react';

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

/** Reloading is the honest retry here: the crash may come from stale client code or data. */
export function PageCrashed() {
  return (
    <div className="container status-page" role="alert">
      <h1>This page crashed</h1>
      <p>Something went wrong while showing this page.</p>
      <p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Try again
        </button>
      </p>
    </div>
  );
}

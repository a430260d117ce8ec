import { NotFound } from '../components/ErrorPages.js';

// Throwing a 404 Response makes Remix answer with status 404 and render the root ErrorBoundary.
export function loader(): never {
  throw new Response('Not Found', { status: 404 });
}

// A default export keeps this a UI route; without it Remix would send the bare "Not Found" text.
export default function UnknownPage() {
  return <NotFound />;
}

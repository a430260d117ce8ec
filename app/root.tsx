import type { LinksFunction, MetaFunction } from '@remix-run/node';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteError,
} from '@remix-run/react';
import type { ReactNode } from 'react';
import { Footer } from './components/Footer.js';
import { NotFound, PageCrashed } from './components/ErrorPages.js';
import { Navbar } from './components/Navbar.js';
import { siteTitle } from './site.js';
import globalStylesHref from './styles/global.css';

// An inline icon spares every page a request for /favicon.ico that would only 404.
const faviconHref =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#6d28d9"/><path d="M9 22l7-13 7 13" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  );

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: globalStylesHref },
  { rel: 'icon', href: faviconHref, type: 'image/svg+xml' },
];

// Leaf routes set their own titles; this one applies when the root error boundary renders.
export const meta: MetaFunction = ({ error }) => {
  if (!error) return [{ title: siteTitle }];
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return [{ title: `${notFound ? 'Page Not Found' : 'This page crashed'} | ${siteTitle}` }];
};

/** Shared by the app and the error boundary, so error pages keep the navbar and footer. */
export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" data-theme="light">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <Meta />
        <Links />
      </head>
      <body>
        <Navbar />
        <main id="main" className="main" tabIndex={-1}>
          {children}
        </main>
        <Footer />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  console.error(error);
  return <PageCrashed />;
}

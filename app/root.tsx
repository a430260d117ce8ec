import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Links, Meta, Outlet, useMatches, useRouteLoaderData } from '@remix-run/react';
import type { ReactNode } from 'react';
import { BackOfficeDocument } from './backoffice/Document.js';
import type { BackOfficeHandle } from './backoffice/context.js';
import { Footer } from './components/Footer.js';
import { Navbar } from './components/Navbar.js';
import { Stylesheets, routeStylesheets } from './components/Stylesheets.js';
import type { SidebarNode } from './docs/docs.server.js';
import { errorMeta } from './meta.js';
import { siteTitle } from './site.js';
import codeStylesHref from './styles/code.css';
import globalStylesHref from './styles/global.css';
import searchStylesHref from './styles/search.css';

// An inline icon spares every page a request for /favicon.ico that would only 404.
const faviconHref =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#6d28d9"/><path d="M9 22l7-13 7 13" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  );

export const links: LinksFunction = () => [{ rel: 'icon', href: faviconHref, type: 'image/svg+xml' }];

/** Every page's styles; a route adds its own with `handle = { stylesheets: [...] }`. */
const rootStylesheets = [globalStylesHref, codeStylesHref, searchStylesHref];

// Leaf routes set their own titles; this one applies when the root error boundary renders.
export const meta: MetaFunction = ({ error }) => (error ? errorMeta(error) : [{ title: siteTitle }]);

/** The fingerprinted client assets, for the layout (loader data is never sent to the browser). */
export function loader({ context }: LoaderFunctionArgs) {
  return context.portal.assets;
}

/**
 * Shared by the app and the error boundary, so error pages keep the navbar and footer.
 * No React runs in the browser (decision 009): pages are complete HTML, and one small module
 * adds navigation without reloads, search, code tabs and copy buttons.
 */
export function Layout({ children }: { children: ReactNode }) {
  const assets = useRouteLoaderData<typeof loader>('root');
  const matches = useMatches();
  const backOffice = matches.map((match) => (match.handle as BackOfficeHandle | undefined)?.backOffice).find(Boolean);
  if (backOffice) {
    return (
      <BackOfficeDocument
        kind={backOffice}
        assets={assets}
        stylesheets={<Stylesheets hrefs={routeStylesheets(matches)} texts={assets?.stylesheets} />}
      >
        {children}
      </BackOfficeDocument>
    );
  }
  // Doc pages send their sidebar; the drawer shows it on narrow screens.
  const docsSidebar = matches
    .map((match) => (match.data as { sidebar?: SidebarNode[] } | undefined)?.sidebar)
    .findLast((sidebar) => sidebar !== undefined);
  return (
    <html lang="en" data-theme="light">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <Meta />
        <Stylesheets hrefs={[...rootStylesheets, ...routeStylesheets(matches)]} texts={assets?.stylesheets} />
        <Links />
        {assets ? <script type="module" src={assets.clientScript} /> : null}
        <noscript>
          {/* Without the script, code samples cannot switch tabs: show them all, each under its label (but
              those the script writes, the reference's JavaScript, Python and SDK ones);
              the reference's variant pickers cannot switch either: show every variant, and the links to the others;
              and its search box, which needs the script, is not shown. */}
          <style>
            {
              '.code-tabs__tablist,.schema-variants__picker,.reference-search{display:none}.code-tabs__panel[hidden],.code-tabs__label[hidden],.schema-variants:not([data-picked]) .schema-variant~.schema-variant,.schema-variants__links[hidden]{display:block}.code-tabs__panel[data-sample-pending]{display:none}'
            }
          </style>
        </noscript>
      </head>
      <body>
        <Navbar searchIndexUrl={assets?.searchIndex} docsSidebar={docsSidebar} />
        <main id="main" className="main" tabIndex={-1}>
          {children}
        </main>
        <Footer />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export { RouteErrorBoundary as ErrorBoundary } from './components/ErrorPages.js';

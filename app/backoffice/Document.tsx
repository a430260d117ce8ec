import { Links, Meta } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { PortalAssets } from '../portalContext.js';

/**
 * The document of the back office's pages, instead of the portal's: no navbar, none of the
 * portal's styles or script; the back office's script on its screens only, the console's on its
 * screens, GraphiQL's on its page.
 */
export function BackOfficeDocument({
  kind,
  assets,
  stylesheets,
  children,
}: {
  kind: 'app' | 'console' | 'page' | 'graphiql';
  assets: PortalAssets | undefined;
  stylesheets: ReactNode;
  children: ReactNode;
}) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <Meta />
        {stylesheets}
        <Links />
        {kind === 'graphiql' && assets ? <link rel="stylesheet" href={assets.backOffice.graphiqlStyles} /> : null}
        {kind === 'graphiql' ? <style>{'body{margin:0}#graphiql{height:100vh}'}</style> : null}
        {kind === 'app' && assets ? <script type="module" src={assets.backOffice.script} /> : null}
        {kind === 'console' && assets ? <script type="module" src={assets.backOffice.consoleScript} /> : null}
        {kind === 'graphiql' && assets ? <script type="module" src={assets.backOffice.graphiqlScript} /> : null}
      </head>
      <body className={kind === 'graphiql' ? 'graphiql-body' : 'bo-body'}>{children}</body>
    </html>
  );
}

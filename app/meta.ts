import type { MetaDescriptor } from '@remix-run/node';
import { isRouteErrorResponse } from '@remix-run/react';
import type { LoadFailure } from './loadFailure.js';
import { siteTitle } from './site.js';

/** The page title of an error boundary: the same words as its heading. */
export function errorMeta(error: unknown): MetaDescriptor[] {
  let heading = 'This page crashed';
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) heading = 'Page Not Found';
    else if ((error.data as LoadFailure | undefined)?.kind === 'load-failure')
      heading = 'This page could not be loaded';
  }
  return [{ title: `${heading} | ${siteTitle}` }];
}

export function pageMeta(title: string, description: string): MetaDescriptor[] {
  return [{ title: `${title} | ${siteTitle}` }, { name: 'description', content: description }];
}

/**
 * A route's meta: its own from its data, or the error's when its error boundary renders (Remix
 * uses the deepest route's meta alone, so every route must name its error pages itself).
 */
export function routeMeta<Data>(describe: (data: Data) => MetaDescriptor[]) {
  return ({ data, error }: { data: Data | undefined; error?: unknown }): MetaDescriptor[] =>
    error ? errorMeta(error) : describe(data as Data);
}

import { useCallback, useEffect, useState } from 'react';

/** How an area's paths map to its screens, and what each screen is called. */
export interface ScreenRoutes<S> {
  screenOf(pathname: string): S | null;
  titleOf(screen: S): string;
  /** Said after each screen's title, in the browser's tab. */
  titleSuffix: string;
  /** The screen of a path that is none (the server answers 404 for it before the script runs). */
  fallback: S;
}

/**
 * Routing within one area's screens (the back office, the console), without reloading: a link of
 * the area pushes its path and renders its screen; the browser's back and forward buttons follow;
 * any other path loads as a page. The first render is the server's (the frame, "Loading…"), so
 * hydration adopts its HTML as it is; `hydrated` says when the screen's own content may render.
 */
export function useScreenRouter<S>(routes: ScreenRoutes<S>, initialPath: string) {
  const [screen, setScreen] = useState<S>(() => routes.screenOf(initialPath) ?? routes.fallback);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    const onPop = () => {
      const next = routes.screenOf(location.pathname);
      if (next) setScreen(next);
      else location.reload();
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, [routes]);
  useEffect(() => {
    document.title = `${routes.titleOf(screen)} | ${routes.titleSuffix}`;
  }, [routes, screen]);
  const navigate = useCallback(
    (href: string) => {
      const next = routes.screenOf(new URL(href, location.href).pathname);
      if (!next) {
        location.assign(href);
        return;
      }
      history.pushState(null, '', href);
      setScreen(next);
      // The new screen's heading is where a keyboard or screen-reader user continues.
      requestAnimationFrame(() => document.getElementById('main')?.focus());
    },
    [routes],
  );
  return { screen, hydrated, navigate };
}

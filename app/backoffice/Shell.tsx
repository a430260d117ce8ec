import type { MouseEvent, ReactNode } from 'react';
import { NAVIGATION, type Screen } from './routing.js';

export interface ShellProps {
  screen: Screen;
  /** The screen's content; without it (the server's render, the first in the browser) a loading line. */
  children?: ReactNode;
  /** Follows a link of the navigation in the page (the browser); without it links load pages. */
  onNavigate?: (href: string) => void;
}

function followInPage(event: MouseEvent<HTMLAnchorElement>, onNavigate?: (href: string) => void): void {
  if (!onNavigate || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  onNavigate(event.currentTarget.getAttribute('href') ?? '/backoffice');
}

/**
 * The frame of every screen, rendered alike by the server and by the browser's first render, so
 * that React hydrates it as it is; the screen itself comes once its data does.
 */
export function Shell({ screen, children, onNavigate }: ShellProps) {
  const current = screen.name === 'provider' ? 'providers' : screen.name === 'request' ? 'requests' : screen.name;
  return (
    <>
      <a className="bo-skip" href="#main">
        Skip to content
      </a>
      <header className="bo-header">
        <p className="bo-brand">Back office</p>
        <nav aria-label="Back office">
          <ul>
            {NAVIGATION.map((item) => (
              <li key={item.href}>
                <a
                  href={item.href}
                  aria-current={item.screen === current ? 'page' : undefined}
                  onClick={(event) => followInPage(event, onNavigate)}
                >
                  {item.label}
                </a>
              </li>
            ))}
            <li>
              <a href="/graphql">GraphiQL</a>
            </li>
          </ul>
        </nav>
        <form method="post" action="/backoffice/sign-out">
          <button type="submit" className="bo-button bo-button--quiet">
            Sign out
          </button>
        </form>
      </header>
      <main id="main" className="bo-main" tabIndex={-1}>
        {children ?? (
          <p role="status" className="bo-status">
            Loading…
          </p>
        )}
      </main>
    </>
  );
}

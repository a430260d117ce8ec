import type { MouseEvent, ReactNode } from 'react';
import type { StaffRole } from '../../graphql/shared/staffRoles.js';
import { navigationFor } from './routing.js';

/** The part of the site a frame belongs to: the back office, or a provider's console. */
export interface ShellArea {
  brand: string;
  navigation: readonly { href: string; label: string; screen: string }[];
  /** Links of the navigation that leave the area's screens (loaded as pages). */
  links?: readonly { href: string; label: string }[];
  /** Where the sign-out form posts. */
  signOut: string;
  /** Who is signed in, said beside the sign-out button. */
  signedInAs?: string;
}

/** The back office as someone with these roles sees it: the screens they may use, and who they are. */
export function backOfficeArea(roles: readonly StaffRole[], signedInAs?: string): ShellArea {
  return {
    brand: 'Back office',
    navigation: navigationFor(roles),
    links: [{ href: '/graphql', label: 'GraphiQL' }],
    signOut: '/backoffice/sign-out',
    signedInAs,
  };
}

export interface ShellProps {
  /** The screen shown: its name marks the current link of the navigation. */
  screen: { name: string };
  /** The back office (as its area says who is signed in), or a provider's console. */
  area: ShellArea;
  /** The screen's content; without it (the server's render, the first in the browser) a loading line. */
  children?: ReactNode;
  /** Follows a link of the navigation in the page (the browser); without it links load pages. */
  onNavigate?: (href: string) => void;
}

/** Follows a link in the page (a plain left click, with a navigation to call); any other click loads the page. */
export function followInPage(event: MouseEvent<HTMLAnchorElement>, onNavigate?: (href: string) => void): void {
  if (!onNavigate || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  onNavigate(event.currentTarget.getAttribute('href') ?? '/backoffice');
}

/**
 * The frame of every screen, rendered alike by the server and by the browser's first render, so
 * that React hydrates it as it is; the screen itself comes once its data does.
 */
export function Shell({ screen, area, children, onNavigate }: ShellProps) {
  const current = screen.name === 'provider' ? 'providers' : screen.name === 'request' ? 'requests' : screen.name;
  return (
    <>
      <a className="bo-skip" href="#main">
        Skip to content
      </a>
      <header className="bo-header">
        <p className="bo-brand">{area.brand}</p>
        <nav aria-label={area.brand}>
          <ul>
            {area.navigation.map((item) => (
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
            {area.links?.map((link) => (
              <li key={link.href}>
                <a href={link.href}>{link.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        {area.signedInAs ? <p className="bo-signed-in">{area.signedInAs}</p> : null}
        <form method="post" action={area.signOut}>
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

import { Link, NavLink } from '@remix-run/react';
import type { SidebarNode } from '../docs/docs.server.js';
import { SidebarList } from './DocLayout.js';
import { ExternalLink } from './ExternalLink.js';
import { SearchBox } from './SearchBox.js';
import { ColorModeToggle, DocsVersionDropdown, LanguageDropdown } from './SiteSettings.js';
import { navbarItems, siteTitle, sourceRepositoryUrl } from '../site.js';

function NavbarLinks() {
  return (
    <ul className="navbar__list">
      {navbarItems.map((item) => (
        <li key={item.href}>
          <NavLink to={item.href} className="navbar__link">
            {item.label}
          </NavLink>
        </li>
      ))}
      <li>
        <ExternalLink href={sourceRepositoryUrl} className="navbar__link navbar__link--source">
          <GitHubIcon />
          GitHub
        </ExternalLink>
      </li>
    </ul>
  );
}

/**
 * Wide screens show the links inline. At 996px or less CSS hides them and shows the drawer:
 * a native <details>, so the menu opens without JavaScript and the toggle is announced as an
 * expandable button. Only one of the two navs is displayed at a time, so assistive technology
 * never meets the links twice. The search box stays in the bar at every width.
 */
export function Navbar({ searchIndexUrl, docsSidebar }: { searchIndexUrl?: string; docsSidebar?: SidebarNode[] }) {
  return (
    <header className="navbar">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <div className="navbar__inner">
        <details className="navbar__drawer" data-dropdown>
          <summary className="navbar__toggle">
            <MenuIcon />
            <span className="visually-hidden">Navigation menu</span>
          </summary>
          <nav className="navbar__drawer-panel" aria-label="Main">
            <NavbarLinks />
            {docsSidebar ? (
              <nav className="navbar__drawer-docs" aria-label="Docs">
                <SidebarList nodes={docsSidebar} />
              </nav>
            ) : null}
            <div className="navbar__settings">
              <DocsVersionDropdown />
              <LanguageDropdown />
            </div>
          </nav>
        </details>
        <Link to="/" className="navbar__brand">
          <Logo />
          <span className="navbar__brand-text">{siteTitle}</span>
        </Link>
        <nav className="navbar__links" aria-label="Main">
          <NavbarLinks />
        </nav>
        <div className="navbar__end">
          <div className="navbar__settings navbar__settings--wide">
            <DocsVersionDropdown />
            <LanguageDropdown />
            <ColorModeToggle />
          </div>
          <SearchBox indexUrl={searchIndexUrl} />
        </div>
      </div>
      {/* Shown by the client while a navigation loads. */}
      <div className="page-loading" data-page-loading hidden>
        <span className="page-loading__spinner" aria-hidden="true" />
        <span className="visually-hidden">Loading page</span>
      </div>
    </header>
  );
}

function Logo() {
  return (
    <svg className="navbar__logo" width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#6d28d9" />
      <path
        d="M9 22l7-13 7 13"
        stroke="#fff"
        strokeWidth="3"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function MenuIcon() {
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function GitHubIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M8 0C3.58 0 0 3.58 0 8c0 3.54 2.29 6.53 5.47 7.59.4.07.55-.17.55-.38 0-.19-.01-.82-.01-1.49-2.01.37-2.53-.49-2.69-.94-.09-.23-.48-.94-.82-1.13-.28-.15-.68-.52-.01-.53.63-.01 1.08.58 1.23.82.72 1.21 1.87.87 2.33.66.07-.52.28-.87.51-1.07-1.78-.2-3.64-.89-3.64-3.95 0-.87.31-1.59.82-2.15-.08-.2-.36-1.02.08-2.12 0 0 .67-.21 2.2.82.64-.18 1.32-.27 2-.27.68 0 1.36.09 2 .27 1.53-1.04 2.2-.82 2.2-.82.44 1.1.16 1.92.08 2.12.51.56.82 1.27.82 2.15 0 3.07-1.87 3.75-3.65 3.95.29.25.54.73.54 1.48 0 1.07-.01 1.93-.01 2.2 0 .21.15.46.55.38A8.013 8.013 0 0016 8c0-4.42-3.58-8-8-8z"
      />
    </svg>
  );
}
